package io.aigw.runtime.admin;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import jakarta.json.stream.JsonLocation;
import jakarta.json.stream.JsonParser;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A JSON-P parser that refuses a member named twice in one object and knows which top-level
 * member's value is being read, so that a body bound by JSON-B (which keeps the last of two
 * members and reports a wrong value without naming it) can be refused naming the field at fault.
 * Every call goes on to the wrapped parser; the lazy streams ({@code getArrayStream} and the
 * like), which JSON-B does not use, stay unsupported, since they would read past the bookkeeping.
 */
final class MemberCheckingParser implements JsonParser {
    private final JsonParser parser;
    /** The names met in each open structure, outermost first; null for an array. */
    private final List<Set<String>> open = new ArrayList<>();
    private final Set<String> topLevel = new LinkedHashSet<>();
    private Event current;
    private String member;

    MemberCheckingParser(JsonParser parser) {
        this.parser = parser;
    }

    /** A member named a second time in the same object. */
    static final class DuplicateMember extends RuntimeException {
        private final String name;

        DuplicateMember(String name) {
            super("The member '" + name + "' appears more than once.", null, false, false);
            this.name = name;
        }

        String name() {
            return name;
        }
    }

    /** The names of the top-level object's members read so far, whatever their values. */
    Set<String> topLevelMembers() {
        return topLevel;
    }

    /** The top-level member whose name was read last, until the top-level object closes; else null. */
    String member() {
        return member;
    }

    @Override
    public Event next() {
        Event event = parser.next();
        current = event;
        switch (event) {
            case START_OBJECT -> open.add(new HashSet<>());
            case START_ARRAY -> open.add(null);
            case END_OBJECT, END_ARRAY -> closed();
            case KEY_NAME -> named(parser.getString());
            default -> {
            }
        }
        return event;
    }

    private void named(String name) {
        if (!open.getLast().add(name)) {
            throw new DuplicateMember(name);
        }
        if (open.size() == 1) {
            member = name;
            topLevel.add(name);
        }
    }

    private void closed() {
        open.removeLast();
        if (open.isEmpty()) {
            member = null;
        }
    }

    /** After the wrapped parser read a whole structure that started at the current event. */
    private void consumed(Event end) {
        closed();
        current = end;
    }

    @Override
    public boolean hasNext() {
        return parser.hasNext();
    }

    @Override
    public Event currentEvent() {
        return parser.currentEvent();
    }

    @Override
    public String getString() {
        return parser.getString();
    }

    @Override
    public boolean isIntegralNumber() {
        return parser.isIntegralNumber();
    }

    @Override
    public int getInt() {
        return parser.getInt();
    }

    @Override
    public long getLong() {
        return parser.getLong();
    }

    @Override
    public BigDecimal getBigDecimal() {
        return parser.getBigDecimal();
    }

    @Override
    public JsonLocation getLocation() {
        return parser.getLocation();
    }

    @Override
    public JsonObject getObject() {
        JsonObject object = parser.getObject();
        consumed(Event.END_OBJECT);
        return object;
    }

    @Override
    public JsonArray getArray() {
        JsonArray array = parser.getArray();
        consumed(Event.END_ARRAY);
        return array;
    }

    @Override
    public JsonValue getValue() {
        return switch (current) {
            case START_OBJECT -> getObject();
            case START_ARRAY -> getArray();
            default -> parser.getValue();
        };
    }

    @Override
    public void skipObject() {
        boolean inObject = !open.isEmpty() && open.getLast() != null;
        parser.skipObject();
        if (inObject) {
            consumed(Event.END_OBJECT);
        }
    }

    @Override
    public void skipArray() {
        boolean inArray = !open.isEmpty() && open.getLast() == null;
        parser.skipArray();
        if (inArray) {
            consumed(Event.END_ARRAY);
        }
    }

    @Override
    public void close() {
        parser.close();
    }
}

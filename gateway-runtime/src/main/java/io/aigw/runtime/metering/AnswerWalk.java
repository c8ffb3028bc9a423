package io.aigw.runtime.metering;

import io.aigw.runtime.error.Jsons;
import jakarta.json.JsonException;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One walk over a whole answer's top-level members, skipping every value it does not want: it
 * notes where the {@code usage} object starts, for the API's usage reader to read it there, and
 * reads the answer's model, id and finish reasons ({@link ResponseFacts}) on the way. Tracing alone
 * asks for it: usage without the facts is found from the answer's end, without a walk over the rest.
 */
final class AnswerWalk extends JsonCursor<AnswerWalk.Level> {
    private static final byte[] ID = ascii("id");
    private static final byte[] MODEL = ascii("model");
    private static final byte[] USAGE = ascii("usage");
    private static final byte[] CHOICES = ascii("choices");
    private static final byte[] FINISH_REASON = ascii("finish_reason");
    private static final byte[] STOP_REASON = ascii("stop_reason");
    private static final byte[] STATUS = ascii("status");
    private static final byte[] INCOMPLETE_DETAILS = ascii("incomplete_details");
    private static final byte[] REASON = ascii("reason");

    /** Which API's answer is walked: where each keeps its finish reasons. */
    enum Shape { CHAT, EMBEDDINGS, RESPONSES, MESSAGES }

    /** The object whose members are being read. */
    enum Level { ANSWER, CHOICE, INCOMPLETE_DETAILS }

    private final Shape shape;
    private String model;
    private String id;
    private final List<String> reasons = new ArrayList<>(1);
    private String status;
    private String incomplete;
    private int usageAt = -1;
    private boolean whole;

    private AnswerWalk(byte[] json, int from, int end, Shape shape) {
        super(json, from, end);
        this.shape = shape;
    }

    /** Walks the answer in {@code json[offset, offset + length)}. */
    static AnswerWalk over(byte[] json, int offset, int length, Shape shape) {
        AnswerWalk walk = new AnswerWalk(json, offset, offset + length, shape);
        walk.skipBlanks();
        walk.whole = walk.isAt('{') && walk.members(Level.ANSWER);
        return walk;
    }

    /**
     * Whether the answer was walked to its end: then {@link #usageAt} is where its usage is, or
     * -1 for none. An answer of another shape, or malformed, or only the start of one, is not.
     */
    boolean whole() {
        return whole;
    }

    /** Where the top-level {@code usage} object opens, or -1. */
    int usageAt() {
        return usageAt;
    }

    /** The facts found, whether or not the walk reached the end. */
    ResponseFacts facts() {
        List<String> finish = shape != Shape.RESPONSES ? reasons
                : incomplete != null ? List.of(incomplete) : status != null ? List.of(status) : List.of();
        return new ResponseFacts(Optional.ofNullable(model), Optional.ofNullable(id), finish);
    }

    /** Reads the member named by {@code json[keyStart, keyEnd)} if it is one wanted, else skips it; false to give up. */
    @Override
    boolean value(Level level, int keyStart, int keyEnd) {
        switch (level) {
            case ANSWER -> {
                if (is(MODEL, keyStart, keyEnd)) {
                    return (model = string()) != null || skipValue();
                }
                if (is(USAGE, keyStart, keyEnd)) {
                    usageAt = isAt('{') ? at : -1;
                    return skipValue();
                }
                if (shape == Shape.EMBEDDINGS) {
                    break;
                }
                if (is(ID, keyStart, keyEnd)) {
                    return (id = string()) != null || skipValue();
                }
                if (shape == Shape.CHAT && is(CHOICES, keyStart, keyEnd) && isAt('[')) {
                    return choices();
                }
                if (shape == Shape.MESSAGES && is(STOP_REASON, keyStart, keyEnd)) {
                    return reason() || skipValue();
                }
                if (shape == Shape.RESPONSES && is(STATUS, keyStart, keyEnd)) {
                    return (status = string()) != null || skipValue();
                }
                if (shape == Shape.RESPONSES && is(INCOMPLETE_DETAILS, keyStart, keyEnd) && isAt('{')) {
                    return members(Level.INCOMPLETE_DETAILS);
                }
            }
            case CHOICE -> {
                if (is(FINISH_REASON, keyStart, keyEnd)) {
                    return reason() || skipValue();
                }
            }
            case INCOMPLETE_DETAILS -> {
                if (is(REASON, keyStart, keyEnd)) {
                    return (incomplete = string()) != null || skipValue();
                }
            }
        }
        return skipValue();
    }

    /** Reads chat's {@code choices}, each one's {@code finish_reason}; false to give up. */
    private boolean choices() {
        at++;
        skipBlanks();
        if (isAt(']')) {
            at++;
            return true;
        }
        while (true) {
            if (!(isAt('{') ? members(Level.CHOICE) : skipValue())) {
                return false;
            }
            skipBlanks();
            if (isAt(']')) {
                at++;
                return true;
            }
            if (!isAt(',')) {
                return false;
            }
            at++;
            skipBlanks();
        }
    }

    /** Adds the finish reason here when it is a string; false, moving nowhere, for another kind of value. */
    private boolean reason() {
        String reason = string();
        if (reason != null) {
            reasons.add(reason);
        }
        return reason != null;
    }

    /** The string here, read to just past its closing quote; null, moving nowhere, for another kind of value. */
    private String string() {
        int start = at;
        if (!isAt('"') || !skipString(false)) {
            at = start;
            return null;
        }
        for (int i = start + 1; i < at - 1; i++) {
            if (json[i] == '\\') {
                String text = escaped(start, at);
                if (text == null) {
                    at = start;
                }
                return text;
            }
        }
        return new String(json, start + 1, at - start - 2, StandardCharsets.UTF_8);
    }

    /** A string written with escapes, as a JSON parser reads it. */
    private String escaped(int from, int to) {
        String text = new String(json, from, to - from, StandardCharsets.UTF_8);
        try (var reader = Jsons.PROVIDER.createReader(new StringReader(text))) {
            JsonValue value = reader.readValue();
            return value instanceof JsonString string ? string.getString() : null;
        } catch (JsonException | IllegalStateException e) {
            return null;
        }
    }
}

package io.aigw.runtime.api;

import io.aigw.runtime.error.ApiError;
import io.aigw.runtime.error.ApiException;
import io.aigw.runtime.routing.Route;
import io.aigw.runtime.upstream.UpstreamRequest;
import io.aigw.runtime.error.Jsons;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.json.stream.JsonParser;
import jakarta.json.stream.JsonParser.Event;
import java.io.ByteArrayOutputStream;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A chat completion request body, validated once and kept as the caller's bytes.
 *
 * <p>The gateway changes only {@code model} (and drops fields a provider rejects), so instead of
 * re-serialising a tree it remembers where each top-level member stands in the original bytes and
 * splices: every other field keeps its exact text, order and form, numbers included.
 */
public final class ChatRequest implements UpstreamRequest {
    /** Deeper documents are refused: no real request nests this far, and a parser fed one might. */
    static final int MAX_DEPTH = 256;

    private static final String STREAM_OPTIONS = "stream_options";
    private static final byte[] USAGE_OPTION = "\"stream_options\":{\"include_usage\":true},"
            .getBytes(StandardCharsets.UTF_8);

    private final byte[] body;
    private final String model;
    private final boolean stream;
    private final boolean callerAskedForUsage;
    private final List<Member> members;

    private ChatRequest(byte[] body, String model, boolean stream, boolean callerAskedForUsage, List<Member> members) {
        this.body = body;
        this.model = model;
        this.stream = stream;
        this.callerAskedForUsage = callerAskedForUsage;
        this.members = members;
    }

    /**
     * Validates a request body: a JSON object in UTF-8 with a non-empty string {@code model}, an
     * array of objects {@code messages}, an optional boolean {@code stream}, and no key twice.
     *
     * @throws ApiException a 400 naming the field at fault
     */
    public static ChatRequest parse(byte[] body) {
        String text = decodeUtf8(body);
        if (text.startsWith("\uFEFF")) {
            // Some Windows tools write one; JSON sent over a network must not (RFC 8259, section 8.1).
            throw invalid(null, "The request body starts with a byte order mark; send the JSON without one.");
        }
        List<Member> members = new ArrayList<>();
        Set<String> names = new HashSet<>();
        String model = null;
        boolean stream = false;
        boolean includeUsage = false;
        boolean messagesSeen = false;
        try (JsonParser parser = Jsons.PROVIDER.createParser(new StringReader(text))) {
            if (!parser.hasNext() || parser.next() != Event.START_OBJECT) {
                throw invalid(null, "The request body must be a JSON object.");
            }
            int tokenEnd = offset(parser);
            while (true) {
                Event event = parser.next();
                if (event == Event.END_OBJECT) {
                    break;
                }
                String name = parser.getString();
                int keyStart = skip(text, tokenEnd, ",");
                if (!names.add(name)) {
                    throw invalid(name, "The field '" + name + "' appears more than once.");
                }
                int valueStart = skip(text, offset(parser), ":");
                Event value = parser.next();
                switch (name) {
                    case "model" -> model = readModel(parser, value);
                    case "messages" -> {
                        readMessages(parser, value);
                        messagesSeen = true;
                    }
                    case "stream" -> stream = readStream(value);
                    case STREAM_OPTIONS -> includeUsage = readIncludeUsage(parser, value);
                    default -> skipValue(parser, value, 1);
                }
                tokenEnd = offset(parser);
                members.add(new Member(name, keyStart, valueStart, tokenEnd));
            }
            if (parser.hasNext()) {
                parser.next();
                throw invalid(null, "The request body has content after its JSON object.");
            }
        } catch (JsonException e) {
            throw invalid(null, "The request body is not valid JSON: " + e.getMessage());
        } catch (java.util.NoSuchElementException | IllegalStateException e) {
            throw invalid(null, "The request body is not valid JSON: it ends too early.");
        }
        if (model == null) {
            throw invalid("model", "The request must name a 'model', such as \"openai/gpt-5\" or \"gateway/auto\".");
        }
        if (!messagesSeen) {
            throw invalid("messages", "The request must carry 'messages', an array of message objects.");
        }
        return new ChatRequest(body, model, stream, includeUsage, List.copyOf(toByteOffsets(text, members)));
    }

    /** The model the caller asked for, such as {@code openai/gpt-5}. */
    public String model() {
        return model;
    }

    @Override
    public boolean stream() {
        return stream;
    }

    /** The body exactly as the caller sent it. */
    public byte[] body() {
        return body;
    }

    @Override
    public byte[] bodyFor(Route route) {
        return forUpstream(route.upstreamModel(), route.provider().unsupportedFields(), addsUsage(route));
    }

    /**
     * Usage is counted for every stream: when the caller did not ask for the final usage chunk, the
     * gateway asks for it (unless the provider rejects {@code stream_options}) and hides it again.
     */
    @Override
    public boolean addsUsage(Route route) {
        return stream && !callerAskedForUsage && !route.provider().unsupportedFields().contains(STREAM_OPTIONS);
    }

    /** Returns the body to forward with {@code model} replaced and {@code dropped} fields removed. */
    public byte[] forUpstream(String upstreamModel, Set<String> dropped) {
        return forUpstream(upstreamModel, dropped, false);
    }

    /**
     * Returns the body to forward: the caller's bytes with {@code model} set to {@code upstreamModel},
     * the top-level fields in {@code dropped} removed and, when {@code addUsage}, with
     * {@code stream_options.include_usage} set. Returns the original array when nothing changes.
     */
    byte[] forUpstream(String upstreamModel, Set<String> dropped, boolean addUsage) {
        boolean modelChanges = !upstreamModel.equals(model);
        boolean dropsAny = false;
        Member streamOptions = null;
        for (Member member : members) {
            dropsAny |= dropped.contains(member.name());
            if (streamOptions == null && member.name().equals(STREAM_OPTIONS)) {
                streamOptions = member;
            }
        }
        if (!modelChanges && !dropsAny && !addUsage) {
            return body;
        }
        byte[] modelJson = jsonString(upstreamModel).getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream out = new ByteArrayOutputStream(body.length + modelJson.length + USAGE_OPTION.length);
        int copied = 0;
        if (addUsage && streamOptions == null) {
            // Right after the opening brace: every body has a model after it, so the comma is always right.
            copied = indexOf(body, (byte) '{') + 1;
            out.write(body, 0, copied);
            out.writeBytes(USAGE_OPTION);
        }
        boolean first = true;
        for (Member member : members) {
            if (dropped.contains(member.name())) {
                // Cut from the end of the previous member (or from this key, when it is the first)
                // to the end of this one, so exactly one separating comma goes with it.
                int cutFrom = first ? member.keyStart() : member.previousEnd();
                out.write(body, copied, cutFrom - copied);
                copied = first ? skipCommaAfter(member.valueEnd()) : member.valueEnd();
                continue;
            }
            first = false;
            if (member.name().equals("model") && modelChanges) {
                out.write(body, copied, member.valueStart() - copied);
                out.writeBytes(modelJson);
                copied = member.valueEnd();
            } else if (member == streamOptions && addUsage) {
                out.write(body, copied, member.valueStart() - copied);
                out.writeBytes(withIncludeUsage(member));
                copied = member.valueEnd();
            }
        }
        out.write(body, copied, body.length - copied);
        return out.toByteArray();
    }

    /** The caller's stream options with {@code include_usage} set to true and every other option kept. */
    private byte[] withIncludeUsage(Member member) {
        String value = new String(body, member.valueStart(), member.valueEnd() - member.valueStart(),
                StandardCharsets.UTF_8);
        JsonObjectBuilder options = Jsons.PROVIDER.createObjectBuilder().add("include_usage", true);
        try (JsonReader reader = Jsons.PROVIDER.createReader(new StringReader(value))) {
            if (reader.readValue() instanceof JsonObject object) {
                object.forEach((name, option) -> {
                    if (!name.equals("include_usage")) {
                        options.add(name, option);
                    }
                });
            }
        }
        return options.build().toString().getBytes(StandardCharsets.UTF_8);
    }

    private static int indexOf(byte[] bytes, byte wanted) {
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == wanted) {
                return i;
            }
        }
        throw new IllegalStateException("a validated body starts with '{'");
    }

    /**
     * Writes {@code value} as a JSON string. Parsson's writer would leave a lone surrogate (which a
     * caller can send as a JSON escape) unescaped, and UTF-8 has no bytes for one: it would reach
     * the upstream as {@code ?}, another model than the caller named.
     */
    private static String jsonString(String value) {
        StringBuilder json = new StringBuilder(value.length() + 2).append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            boolean pair = Character.isHighSurrogate(c) && i + 1 < value.length()
                    && Character.isLowSurrogate(value.charAt(i + 1));
            if (pair) {
                json.append(c).append(value.charAt(++i));
                continue;
            }
            switch (c) {
                case '"' -> json.append("\\\"");
                case '\\' -> json.append("\\\\");
                case '\n' -> json.append("\\n");
                case '\r' -> json.append("\\r");
                case '\t' -> json.append("\\t");
                case '\b' -> json.append("\\b");
                case '\f' -> json.append("\\f");
                default -> {
                    if (c < 0x20 || Character.isSurrogate(c)) {
                        json.append(String.format("\\u%04x", (int) c));
                    } else {
                        json.append(c);
                    }
                }
            }
        }
        return json.append('"').toString();
    }

    private int skipCommaAfter(int position) {
        int at = position;
        while (at < body.length && isWhitespace(body[at])) {
            at++;
        }
        if (at < body.length && body[at] == ',') {
            at++;
            while (at < body.length && isWhitespace(body[at])) {
                at++;
            }
        }
        return at;
    }

    private static String readModel(JsonParser parser, Event value) {
        if (value != Event.VALUE_STRING) {
            skipValue(parser, value, 1);
            throw invalid("model", "'model' must be a string such as \"openai/gpt-5\".");
        }
        String model = parser.getString();
        if (model.isBlank()) {
            throw invalid("model", "'model' must not be empty.");
        }
        return model;
    }

    private static void readMessages(JsonParser parser, Event value) {
        if (value != Event.START_ARRAY) {
            throw invalid("messages", "'messages' must be an array of message objects.");
        }
        while (true) {
            Event element = parser.next();
            if (element == Event.END_ARRAY) {
                return;
            }
            if (element != Event.START_OBJECT) {
                throw invalid("messages", "Every entry of 'messages' must be an object.");
            }
            skipValue(parser, element, 2);
        }
    }

    /** Reads {@code stream_options}, which must be an object or null; returns its {@code include_usage}. */
    private static boolean readIncludeUsage(JsonParser parser, Event value) {
        if (value == Event.VALUE_NULL) {
            return false;
        }
        if (value != Event.START_OBJECT) {
            throw invalid(STREAM_OPTIONS, "'stream_options' must be an object such as {\"include_usage\": true}.");
        }
        boolean includeUsage = false;
        while (true) {
            Event event = parser.next();
            if (event == Event.END_OBJECT) {
                return includeUsage;
            }
            String option = parser.getString();
            Event optionValue = parser.next();
            if (option.equals("include_usage")) {
                includeUsage = optionValue == Event.VALUE_TRUE;
            }
            skipValue(parser, optionValue, 2);
        }
    }

    private static boolean readStream(Event value) {
        return switch (value) {
            case VALUE_TRUE -> true;
            case VALUE_FALSE, VALUE_NULL -> false;
            default -> throw invalid("stream", "'stream' must be true or false.");
        };
    }

    /** Walks past a value whose first event was {@code first}, checking nesting depth on the way. */
    private static void skipValue(JsonParser parser, Event first, int depth) {
        if (first != Event.START_OBJECT && first != Event.START_ARRAY) {
            return;
        }
        int level = depth;
        int open = 1;
        while (open > 0) {
            Event event = parser.next();
            if (event == Event.START_OBJECT || event == Event.START_ARRAY) {
                open++;
                if (level + open > MAX_DEPTH) {
                    throw invalid(null, "The request body nests deeper than " + MAX_DEPTH + " levels.");
                }
            } else if (event == Event.END_OBJECT || event == Event.END_ARRAY) {
                open--;
            }
        }
    }

    private static String decodeUtf8(byte[] body) {
        // The JDK's own decoding is the cheap one (an ASCII body becomes its string in one copy), but
        // it turns malformed input into U+FFFD, so only a text that holds one is decoded again,
        // strictly, to tell a caller's U+FFFD from bytes that are not UTF-8.
        String text = new String(body, StandardCharsets.UTF_8);
        if (text.indexOf('\uFFFD') < 0) {
            return text;
        }
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(body))
                    .toString();
        } catch (CharacterCodingException e) {
            throw invalid(null, "The request body is not valid UTF-8.");
        }
    }

    /** Parsson reports the offset just past the token it last read. */
    private static int offset(JsonParser parser) {
        return (int) parser.getLocation().getStreamOffset();
    }

    /** Returns the index of the first character from {@code from} that is neither white space nor a separator. */
    private static int skip(String text, int from, String separators) {
        int at = from;
        while (at < text.length()) {
            char c = text.charAt(at);
            if (!isWhitespace(c) && separators.indexOf(c) < 0) {
                break;
            }
            at++;
        }
        return at;
    }

    private static boolean isWhitespace(int c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r';
    }

    /** Converts the members' character offsets to byte offsets in one pass over the text. */
    private static List<Member> toByteOffsets(String text, List<Member> members) {
        List<Member> converted = new ArrayList<>(members.size());
        int charAt = 0;
        int byteAt = 0;
        int previousEnd = -1;
        for (Member member : members) {
            int keyStart = byteAt + utf8Length(text, charAt, member.keyStart());
            int valueStart = keyStart + utf8Length(text, member.keyStart(), member.valueStart());
            int valueEnd = valueStart + utf8Length(text, member.valueStart(), member.valueEnd());
            converted.add(new Member(member.name(), keyStart, valueStart, valueEnd, previousEnd));
            charAt = member.valueEnd();
            byteAt = valueEnd;
            previousEnd = valueEnd;
        }
        return converted;
    }

    private static int utf8Length(String text, int from, int to) {
        int length = 0;
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                length += 1;
            } else if (c < 0x800) {
                length += 2;
            } else if (Character.isHighSurrogate(c)) {
                length += 4;
                i++;
            } else {
                length += 3;
            }
        }
        return length;
    }

    private static ApiException invalid(String param, String message) {
        return new ApiException(ApiError.invalidRequest(param, message));
    }

    /** Where one top-level member stands: its key's opening quote, its value, and where the previous member ended. */
    private record Member(String name, int keyStart, int valueStart, int valueEnd, int previousEnd) {
        Member(String name, int keyStart, int valueStart, int valueEnd) {
            this(name, keyStart, valueStart, valueEnd, -1);
        }
    }
}

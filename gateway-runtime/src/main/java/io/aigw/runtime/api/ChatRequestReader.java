package io.aigw.runtime.api;

import io.aigw.runtime.api.BodySplice.Member;
import io.aigw.runtime.error.ApiError;
import io.aigw.runtime.error.ApiException;
import io.aigw.runtime.error.Jsons;
import jakarta.json.JsonException;
import jakarta.json.stream.JsonParsingException;
import jakarta.json.stream.JsonParser;
import jakarta.json.stream.JsonParser.Event;
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
 * Validates a chat completion body in one pass of a streaming parser, reading the few fields the
 * gateway needs and noting where every top-level member stands in the caller's bytes, so that
 * {@link BodySplice} can change the body without re-serialising it.
 */
final class ChatRequestReader {
    /** Deeper documents are refused: no real request nests this far, and a parser fed one might. */
    static final int MAX_DEPTH = 256;

    private ChatRequestReader() {
    }

    /**
     * Validates a request body: a JSON object in UTF-8 with a non-empty string {@code model}, an
     * array of objects {@code messages}, an optional boolean {@code stream}, and no key twice.
     *
     * @throws ApiException a 400 naming the field at fault
     */
    static ChatRequest read(byte[] body) {
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
                    case BodySplice.STREAM_OPTIONS -> includeUsage = readIncludeUsage(parser, value);
                    default -> skipValue(parser, value, 1);
                }
                tokenEnd = offset(parser);
                members.add(new Member(name, keyStart, valueStart, tokenEnd));
            }
            if (parser.hasNext()) {
                parser.next();
                throw invalid(null, "The request body has content after its JSON object.");
            }
        } catch (JsonParsingException e) {
            throw invalid(null, "The request body is not valid JSON: " + JsonSyntax.describe(e.getLocation(), text));
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
        return new ChatRequest(model, stream, includeUsage,
                new BodySplice(body, model, List.copyOf(toByteOffsets(text, members))));
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
            throw invalid(BodySplice.STREAM_OPTIONS,
                    "'stream_options' must be an object such as {\"include_usage\": true}.");
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
            if (!BodySplice.isWhitespace(c) && separators.indexOf(c) < 0) {
                break;
            }
            at++;
        }
        return at;
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
}

package io.aigw.runtime.admin;

import io.aigw.runtime.error.ApiError;
import io.aigw.runtime.error.ApiException;
import io.aigw.runtime.error.Jsons;
import io.helidon.http.HeaderValues;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerResponse;
import jakarta.json.JsonException;
import jakarta.json.bind.JsonbException;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * The admin API's bodies as records, read and written by JSON-B ({@link Jsons#BINDING}).
 *
 * <p>A body is read by the rules of a chat request: exactly one JSON object in UTF-8, no member
 * named twice. Members the record does not declare are ignored, so that a client which sends more
 * than this version knows keeps working. Every fault is a 400 in the OpenAI shape: the whole body
 * ({@code param} null) when it is not one JSON object; the member when it is named twice or its
 * value is of the wrong kind. A member that is missing reads as null, for the service to refuse.
 * A body nesting deeper than {@link JsonDepth#MAX} is refused before it is parsed.
 */
final class JsonBodies {

    private JsonBodies() {
    }

    /**
     * Reads {@code body} into a {@code type}.
     *
     * @param example a body to show the caller when this one is not a JSON object
     * @param ruleOf  the rule of a member, in a sentence naming it, for a value of the wrong kind
     * @throws ApiException with the 400 to send
     */
    static <T> T read(byte[] body, Class<T> type, String example, UnaryOperator<String> ruleOf) {
        return readWithMembers(body, type, example, ruleOf).value();
    }

    /** A body read, and the names of the members it had: one given as null is there, one left out is not. */
    record Read<T>(T value, Set<String> members) {
    }

    /** As {@link #read}, telling a member sent as {@code null} from one left out, as a patch must. */
    static <T> Read<T> readWithMembers(byte[] body, Class<T> type, String example, UnaryOperator<String> ruleOf) {
        ApiError notAnObject = ApiError.invalidRequest(null, "The body must be a JSON object such as " + example + ".");
        String text = utf8(body, notAnObject);
        if (JsonDepth.exceedsMax(text)) {
            throw new ApiException(ApiError.invalidRequest(null, "The body nests arrays and objects more than "
                    + JsonDepth.MAX + " deep; send a JSON object such as " + example + "."));
        }
        MemberCheckingParser parser = new MemberCheckingParser(Jsons.PROVIDER.createParser(new StringReader(text)));
        T value;
        boolean more;
        try (parser) {
            value = Jsons.BINDING.fromJson(parser, type);
            more = parser.hasNext();
        } catch (JsonbException | JsonException | NoSuchElementException | IllegalStateException
                 | MemberCheckingParser.DuplicateMember e) {
            throw new ApiException(refusal(e, parser.member(), notAnObject, ruleOf));
        }
        if (value == null || more) {
            throw new ApiException(notAnObject);
        }
        return new Read<>(value, Set.copyOf(parser.topLevelMembers()));
    }

    /** Sends {@code document} as a JSON answer with {@code status}. */
    static void send(ServerResponse response, Status status, Object document) {
        response.status(status);
        response.header(HeaderValues.CONTENT_TYPE_JSON);
        response.send(Jsons.BINDING.toJson(document).getBytes(StandardCharsets.UTF_8));
    }

    private static String utf8(byte[] body, ApiError notAnObject) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(body)).toString();
        } catch (CharacterCodingException e) {
            throw new ApiException(notAnObject);
        }
    }

    /** JSON-B wraps what went wrong, at times more than once; the causes tell the kind of fault. */
    private static ApiError refusal(RuntimeException failure, String member, ApiError notAnObject,
                                    UnaryOperator<String> ruleOf) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof MemberCheckingParser.DuplicateMember duplicate) {
                return ApiError.invalidRequest(duplicate.name(), "The field '" + duplicate.name()
                        + "' appears more than once.");
            }
        }
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof JsonException || cause instanceof NoSuchElementException) {
                return notAnObject; // not JSON at all, or cut short
            }
        }
        return member == null ? notAnObject : ApiError.invalidRequest(member, ruleOf.apply(member));
    }
}

package io.aigw.runtime.api;

import io.aigw.runtime.error.ApiError;
import io.aigw.runtime.error.ApiException;
import io.aigw.runtime.transport.CallerTooSlow;
import io.helidon.common.buffers.DataReader;
import io.helidon.http.BadRequestException;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.HttpMediaType;
import io.helidon.http.ServerRequestHeaders;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;

/**
 * A request's body as it comes off the connection: JSON by its type, framed one way only,
 * within the size limit and the heap set aside for bodies in flight, at the pace the transport asks.
 */
final class RequestBody {
    private static final String JSON = "application/json";

    private RequestBody() {
    }

    /** A missing Content-Type is taken for JSON; any other type than JSON is refused. */
    static void requireJson(ServerRequest request) {
        // What SDKs send, checked without building a media type on every request.
        if (request.headers().first(HeaderNames.CONTENT_TYPE).map(JSON::equalsIgnoreCase).orElse(true)) {
            return;
        }
        Optional<HttpMediaType> contentType;
        try {
            contentType = request.headers().contentType();
        } catch (BadRequestException e) {
            // Helidon cannot parse it ("json", an empty value): that is no JSON type either, so it
            // gets the same 415 as any other non-JSON type rather than Helidon's generic 400.
            throw unsupportedMediaType(request.headers().first(HeaderNames.CONTENT_TYPE).orElse(""));
        }
        contentType.ifPresent(type -> {
            String subtype = type.mediaType().subtype();
            if (!type.mediaType().type().equalsIgnoreCase("application")
                    || !(subtype.equalsIgnoreCase("json") || subtype.toLowerCase().endsWith("+json"))) {
                throw unsupportedMediaType(type.text());
            }
        });
    }

    /**
     * A caller that sent {@code Expect: 100-continue} and is refused before the gateway asked for the
     * body will not send it; Helidon, though, would wait for it on the connection, taking the
     * caller's next request for it. So the body is marked as never coming and the connection as closing.
     */
    static void abandonUnsent(ServerRequest request, ServerResponse response) {
        if (request.headers().contains(HeaderValues.EXPECT_100) && !request.continueSent()) {
            request.reset();
            response.header(HeaderValues.CONNECTION_CLOSE);
        }
    }

    /**
     * Reads the whole body, refusing more than the limit, taking room for it as it arrives
     * ({@link ArrivingBody}). Helidon reads (and drops) the rest of a refused body after the answer,
     * which keeps the connection in step with the caller; a body too slow to wait for is answered
     * 408 and its connection closed.
     */
    static byte[] read(ServerRequest request, ServerResponse response, long maxBodyBytes,
                       BodyBudget.Reservation reservation) {
        long declared = declaredLength(request, response);
        if (declared > maxBodyBytes) {
            throw new ApiException(ApiError.requestTooLarge(maxBodyBytes));
        }
        try (InputStream in = request.content().inputStream()) {
            byte[] body = ArrivingBody.read(in, declared, maxBodyBytes, reservation);
            if (body.length == 0) {
                throw new ApiException(ApiError.invalidRequest(null, "The request body is empty; send a JSON"
                        + " object with 'model' and the endpoint's fields ('messages', 'input')."));
            }
            return body;
        } catch (CallerTooSlow e) {
            // The rest of the body is not waited for: the connection closes after the answer, as
            // after a body whose end cannot be told.
            throw brokenFraming(response, new ApiError(Status.REQUEST_TIMEOUT_408, "The request body arrived slower"
                    + " than " + e.minRate() + " bytes a second (gateway.timeouts.caller-body-min-rate) for longer"
                    + " than its grace; send it at once, as an HTTP client does.", "invalid_request_error", null,
                    "request_timeout"));
        } catch (IOException | UncheckedIOException | IllegalArgumentException
                 | DataReader.InsufficientDataAvailableException | DataReader.IncorrectNewLineException e) {
            // Helidon reports broken chunked framing unchecked: a size that is not hexadecimal (a
            // NumberFormatException), a chunk longer than its size, a connection cut mid-body.
            throw brokenFraming(response, ApiError.invalidRequest(null, "The request body could not be read: it was"
                    + " cut short or its encoding is broken."));
        }
    }

    /**
     * The body's declared length, once the framings HTTP/1.1 calls invalid or ambiguous (RFC 9112,
     * section 6) are refused. Helidon lets them through: it takes the first of two different
     * Content-Lengths, reads a negative one as "chunked", ignores a body whose transfer coding is
     * not exactly "chunked", and keeps the connection open after a message with both
     * Content-Length and Transfer-Encoding. Each is how one request is smuggled inside another.
     *
     * @return the declared Content-Length, or -1 when the body has none (chunked, or no body at all)
     */
    private static long declaredLength(ServerRequest request, ServerResponse response) {
        ServerRequestHeaders headers = request.headers();
        if (headers.contains(HeaderNames.TRANSFER_ENCODING)) {
            List<String> codings = headers.get(HeaderNames.TRANSFER_ENCODING).allValues(true);
            if (codings.size() != 1 || !codings.getFirst().strip().equalsIgnoreCase("chunked")) {
                throw brokenFraming(response, ApiError.invalidRequest(null, "The request uses a transfer coding"
                        + " other than 'chunked', which the gateway does not accept."));
            }
            if (headers.contains(HeaderNames.CONTENT_LENGTH)) {
                throw brokenFraming(response, ApiError.invalidRequest(null, "The request has both Content-Length"
                        + " and Transfer-Encoding; send one of them."));
            }
            return -1;
        }
        if (!headers.contains(HeaderNames.CONTENT_LENGTH)) {
            return -1;
        }
        List<String> lengths = headers.get(HeaderNames.CONTENT_LENGTH).allValues(true);
        boolean disagreeing = lengths.size() > 1 && lengths.stream().map(String::strip).distinct().count() > 1;
        long declared = disagreeing ? -1 : headers.contentLength().orElse(0);
        if (declared < 0) {
            throw brokenFraming(response, ApiError.invalidRequest(null, "The request's Content-Length is"
                    + " invalid: negative, or given twice with different values."));
        }
        return declared;
    }

    /**
     * Answers a request whose body's end cannot be told; the connection must close after it (RFC
     * 9112, section 6.3), since whatever follows on it may be the rest of this body.
     */
    private static ApiException brokenFraming(ServerResponse response, ApiError error) {
        response.header(HeaderValues.CONNECTION_CLOSE);
        return new ApiException(error);
    }

    private static ApiException unsupportedMediaType(String type) {
        String shown = type.length() > 100 ? type.substring(0, 100) + "..." : type;
        return new ApiException(new ApiError(Status.UNSUPPORTED_MEDIA_TYPE_415, "The request body must be JSON"
                + " sent with 'Content-Type: application/json', not '" + shown + "'.",
                "invalid_request_error", null, "unsupported_media_type"));
    }
}

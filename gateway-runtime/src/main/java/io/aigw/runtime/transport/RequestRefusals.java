package io.aigw.runtime.transport;

import io.helidon.http.DirectHandler.EventType;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.RequestException;
import io.helidon.http.Status;

/**
 * The refusals the transport adds to Helidon's parser. Thrown while Helidon reads a request, each
 * is answered as Helidon's own are (the listener's direct handlers, in the OpenAI shape) and closes
 * the connection.
 */
final class RequestRefusals {
    private RequestRefusals() {
    }

    static RequestException badRequest(String message) {
        return RequestException.builder()
                .type(EventType.BAD_REQUEST)
                .status(Status.BAD_REQUEST_400)
                .setKeepAlive(false)
                .safeMessage(true)
                .message(message)
                .build();
    }

    static RequestException overloaded(String message) {
        return RequestException.builder()
                .type(EventType.OTHER)
                .status(Status.SERVICE_UNAVAILABLE_503)
                .setKeepAlive(false)
                .safeMessage(true)
                .message(message)
                .header(HeaderValues.create(HeaderNames.RETRY_AFTER, "1"))
                .build();
    }
}

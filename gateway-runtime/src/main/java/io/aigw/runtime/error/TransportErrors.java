package io.aigw.runtime.error;

import io.helidon.http.DirectHandler;
import io.helidon.http.HeaderValues;
import io.helidon.http.ServerResponseHeaders;
import io.helidon.http.Status;
import io.helidon.webserver.http.DirectHandlers;

/**
 * Answers the requests Helidon refuses before any route runs (broken framing, a malformed request
 * line or header) in the OpenAI error shape, so an SDK reads them as it reads the gateway's own.
 */
public final class TransportErrors implements DirectHandler {
    /** Helidon's messages may quote the caller's bytes; the caller gets enough of them to see the fault. */
    private static final int MAX_MESSAGE = 200;

    private TransportErrors() {
    }

    /** One handler for every kind of event Helidon reports. */
    public static DirectHandlers handlers() {
        DirectHandlers.Builder handlers = DirectHandlers.builder();
        TransportErrors errors = new TransportErrors();
        for (EventType type : EventType.values()) {
            handlers.addHandler(type, errors);
        }
        return handlers.build();
    }

    @Override
    public TransportResponse handle(TransportRequest request, EventType eventType, Status status,
                                    ServerResponseHeaders headers, String message) {
        headers.set(HeaderValues.CONTENT_TYPE_JSON);
        ApiError error = ApiError.fromHttp(status);
        String shown = message == null || message.isBlank() ? error.message()
                : "The request was refused: " + truncate(message.strip());
        return TransportResponse.builder()
                .status(status)
                .headers(headers)
                .keepAlive(eventType.keepAlive())
                .entity(ApiError.toJson(shown, error.type(), null, error.code()))
                .build();
    }

    private static String truncate(String message) {
        return message.length() > MAX_MESSAGE ? message.substring(0, MAX_MESSAGE) + "..." : message;
    }
}

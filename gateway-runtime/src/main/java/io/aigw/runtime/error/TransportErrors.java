package io.aigw.runtime.error;

import io.aigw.runtime.text.LogText;
import io.helidon.http.DirectHandler;
import io.helidon.http.HeaderValues;
import io.helidon.http.ServerResponseHeaders;
import io.helidon.http.Status;
import io.helidon.webserver.http.DirectHandlers;
import java.lang.System.Logger.Level;

/**
 * Answers the requests Helidon refuses before any route runs (broken framing, a malformed request
 * line or header) in the OpenAI error shape, so an SDK reads them as it reads the gateway's own,
 * and logs each in one line, without a stack trace.
 */
public final class TransportErrors implements DirectHandler {
    /** Helidon's messages may quote the caller's bytes; the caller gets enough of them to see the fault. */
    private static final int MAX_MESSAGE = 200;
    private static final int MAX_LOGGED = 256;
    /** What Helidon passes instead of a message it does not mark safe to show. */
    private static final String UNSAFE = "Bad request, see server log for more information";
    private static final System.Logger LOG = System.getLogger(TransportErrors.class.getName());

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
        Status answered = unparsed(request, eventType) ? Status.BAD_REQUEST_400 : status;
        headers.set(HeaderValues.CONTENT_TYPE_JSON);
        ApiError error = ApiError.fromHttp(answered);
        String shown = message == null || message.isBlank() || message.equals(UNSAFE) || answered != status
                ? error.message() : "The request was refused: " + truncate(message.strip());
        LOG.log(Level.INFO, "Refused a request (" + answered.code() + "): " + LogText.escaped(shown) + describe(request));
        return TransportResponse.builder()
                .status(answered)
                .headers(headers)
                .keepAlive(eventType.keepAlive())
                .entity(ApiError.toJson(shown, error.type(), null, error.code()))
                .build();
    }

    /**
     * Whether Helidon failed on a request it could not read at all (nothing of it known), which it
     * reports as its own internal error with a stack trace: a control character in the method does
     * this. The fault is the request's.
     */
    private static boolean unparsed(TransportRequest request, EventType eventType) {
        return eventType == EventType.INTERNAL_ERROR && request.method().isEmpty() && request.path().isEmpty();
    }

    /** The request line as far as it was read, cut short: what an operator needs to find the caller's fault. */
    private static String describe(TransportRequest request) {
        if (request.method().isEmpty() && request.path().isEmpty()) {
            return "";
        }
        String line = request.method() + " " + request.path();
        StringBuilder shown = new StringBuilder(" [");
        // A log line stays one line, and reads as written, whatever the caller sent.
        LogText.appendEscaped(shown, line, 0, Math.min(line.length(), MAX_LOGGED));
        return shown.append(line.length() > MAX_LOGGED ? "...]" : "]").toString();
    }

    private static String truncate(String message) {
        return message.length() > MAX_MESSAGE ? message.substring(0, MAX_MESSAGE) + "..." : message;
    }
}

package io.aigw.runtime;

import io.aigw.runtime.error.ApiError;
import io.aigw.runtime.error.ApiException;
import io.aigw.runtime.error.ErrorShape;
import io.aigw.runtime.observe.ObservedRequest;
import io.aigw.runtime.store.StoreUnavailableException;
import io.aigw.runtime.text.LogText;
import io.helidon.http.HeaderNames;
import io.helidon.http.HttpException;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.lang.System.Logger.Level;

/**
 * What reaches a caller when a handler fails: the error shape of its surface (OpenAI's, Anthropic's
 * under {@code /anthropic/}), with the status an SDK expects, and for the operator one log line
 * where the failure is the gateway's.
 */
final class ErrorAnswers {
    private static final System.Logger LOG = System.getLogger(ErrorAnswers.class.getName());

    private ErrorAnswers() {
    }

    static HttpRouting.Builder register(HttpRouting.Builder routing) {
        return routing
                .error(ApiException.class, (request, response, e) -> send(e.error(), request, response))
                .error(StoreUnavailableException.class, (request, response, e) -> {
                    response.header(HeaderNames.RETRY_AFTER, Long.toString(Math.max(1,
                            (e.retryAfter().toMillis() + 999) / 1000)));
                    send(ApiError.storeUnavailable(), request, response);
                })
                // Helidon's own refusals (no such path, wrong method, bad framing) keep their status.
                .error(HttpException.class, (request, response, e) -> send(ApiError.fromHttp(e.status()), request,
                        response))
                // The limits keep the heap from running out; should it still, the caller is told to
                // retry, and the operator gets one line, not a stack trace.
                .error(OutOfMemoryError.class, (request, response, e) -> {
                    LOG.log(Level.ERROR, "Out of heap answering " + LogText.escaped(request.prologue().uriPath().path())
                            + ": give the gateway more heap or lower its limits (docs/operations.md, \"Sizing\")");
                    response.header(HeaderNames.RETRY_AFTER, "1");
                    send(ApiError.outOfMemory(), request, response);
                })
                .error(Exception.class, (request, response, e) -> {
                    LOG.log(Level.ERROR, "Unexpected failure answering " + LogText.escaped(request.prologue().uriPath().path()), e);
                    send(new ApiError(Status.INTERNAL_SERVER_ERROR_500, "The gateway failed unexpectedly; this is a"
                            + " bug, and the gateway's log has the details.", "server_error", null, null), request,
                            response);
                });
    }

    /** Sends {@code error} in the shape of the surface the request came to (Anthropic's under /anthropic/). */
    private static void send(ApiError error, ServerRequest request, ServerResponse response) {
        String requestId = request.context().get(ObservedRequest.class).map(ObservedRequest::id)
                .orElse(null);
        error.send(response, ErrorShape.forPath(request.prologue().uriPath().path()), requestId);
    }
}

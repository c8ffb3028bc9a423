package io.aigw.runtime.upstream;

import io.aigw.runtime.error.ApiError;
import io.aigw.runtime.observe.CallReport;
import io.aigw.runtime.plugin.Provider;
import io.helidon.http.Header;
import io.helidon.http.HeaderValues;
import io.helidon.http.Status;
import io.helidon.webclient.api.HttpClientResponse;
import io.helidon.webserver.http.ServerResponse;
import java.util.List;
import java.util.function.Function;

/**
 * An attempt that failed before the caller was sent anything.
 *
 * @param summary a few words for the list of what {@code gateway/auto} tried
 */
record Failure(Status status, byte[] body, String summary, Function<String, byte[]> rewrite,
               List<Header> headers) {

    static Failure answered(int status, byte[] normalized, HttpClientResponse upstream) {
        String upstreamMessage = UpstreamErrors.message(normalized);
        return new Failure(Status.create(status), normalized, status + " " + upstreamMessage,
                message -> UpstreamErrors.withMessage(normalized, message), ChatForwarder.relayedHeaders(upstream));
    }

    static Failure unreachable(Provider provider, Exception cause) {
        String reason = "unreachable: " + describe(cause);
        ApiError error = ApiError.upstream("Upstream " + provider.prefix() + " at " + provider.baseUrl()
                + " is " + reason);
        return new Failure(error.status(), error.toJson(), reason,
                message -> ApiError.upstream(message).toJson(), List.of());
    }

    static Failure timeout(Provider provider, String what) {
        ApiError error = ApiError.upstreamTimeout("Upstream " + provider.prefix() + " " + what + ".");
        return new Failure(error.status(), error.toJson(), "timed out",
                message -> ApiError.upstreamTimeout(message).toJson(), List.of());
    }

    /** The same failure with another message; a lone upstream answer keeps its status, type and code. */
    Failure withMessage(String message) {
        return new Failure(status, rewrite.apply(message), summary, rewrite, headers);
    }

    void send(ServerResponse response, CallReport report) {
        report.answered(status.code(), System.nanoTime());
        response.status(status);
        response.header(HeaderValues.CONTENT_TYPE_JSON);
        headers.forEach(response::header);
        response.send(body);
    }

    private static String describe(Exception cause) {
        Throwable root = cause;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String text = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        return text.length() > 200 ? text.substring(0, 200) : text;
    }
}

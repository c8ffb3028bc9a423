package io.aigw.runtime.upstream;

import io.aigw.runtime.error.ApiError;
import io.aigw.runtime.observe.CallReport;
import io.aigw.runtime.plugin.Provider;
import io.helidon.http.Header;
import io.helidon.http.HeaderValues;
import io.helidon.http.Status;
import io.helidon.webclient.api.HttpClientResponse;
import io.helidon.webserver.http.ServerResponse;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;

/**
 * An attempt that failed before the caller was sent anything: the answer the caller gets unless
 * another provider is tried.
 *
 * @param summary a few words for the list of what {@code gateway/auto} tried
 * @param headers the upstream's headers that go back with it ({@link RelayedHeaders})
 */
record Failure(Status status, byte[] body, String summary, Function<String, byte[]> rewrite,
               List<Header> headers) {

    /** The upstream answered an error status; {@code normalized} is its body in the OpenAI shape. */
    static Failure answered(int status, byte[] normalized, HttpClientResponse upstream) {
        return answered(status, normalized, RelayedHeaders.of(upstream));
    }

    /** As {@link #answered(int, byte[], HttpClientResponse)}, with the upstream's headers already picked. */
    static Failure answered(int status, byte[] normalized, List<Header> relayedHeaders) {
        String upstreamMessage = UpstreamErrors.message(normalized);
        return new Failure(Status.create(status), normalized, status + " " + upstreamMessage,
                message -> UpstreamErrors.withMessage(normalized, message), relayedHeaders);
    }

    /** The upstream could not be reached, or its connection broke before its answer was whole: a 502. */
    static Failure unreachable(Provider provider, Exception cause) {
        String reason = "unreachable: " + describe(cause);
        ApiError error = ApiError.upstream("Upstream " + provider.prefix() + " at " + provider.baseUrl()
                + " is " + reason);
        return new Failure(error.status(), error.toJson(), reason,
                message -> ApiError.upstream(message).toJson(), List.of());
    }

    /** No response headers came within {@code firstByte}: a 504. */
    static Failure noHeadersWithin(Provider provider, Duration firstByte) {
        return timeout(provider, "sent no response headers within " + seconds(firstByte)
                + " (gateway.timeouts.first-byte)");
    }

    /** The upstream's answer stopped for {@code idle} before it was whole: a 504. */
    static Failure stalledFor(Provider provider, Duration idle) {
        return timeout(provider, "stopped sending its response for " + seconds(idle) + " (gateway.timeouts.idle)");
    }

    private static Failure timeout(Provider provider, String what) {
        ApiError error = ApiError.upstreamTimeout("Upstream " + provider.prefix() + " " + what + ".");
        return new Failure(error.status(), error.toJson(), "timed out",
                message -> ApiError.upstreamTimeout(message).toJson(), List.of());
    }

    /**
     * Whether another provider may answer where this one failed: after a status
     * {@link UpstreamStatus#movesOn()}, which includes the gateway's own 502 and 504 for an
     * unreachable or silent upstream.
     */
    boolean movesOn() {
        return UpstreamStatus.of(status.code()).movesOn();
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

    /** A timeout as a message shows it: {@code 120 s}, or {@code 1500 ms} when not whole seconds. */
    static String seconds(Duration duration) {
        return duration.toMillis() % 1000 == 0 ? duration.toSeconds() + " s" : duration.toMillis() + " ms";
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

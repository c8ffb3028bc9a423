package io.aigw.runtime.upstream;

import io.aigw.runtime.error.ApiError;
import io.aigw.runtime.error.ErrorShape;
import io.aigw.runtime.plugin.Provider;
import io.helidon.http.Header;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Status;
import io.helidon.webclient.api.HttpClientResponse;
import io.helidon.webserver.http.ServerResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * An attempt that failed before the caller was sent anything: the answer the caller gets unless
 * another provider is tried.
 *
 * @param summary a few words for the list of what {@code gateway/auto} tried
 * @param headers the upstream's headers that go back with it ({@link RelayedHeaders})
 * @param movesOn whether another provider may answer where this one failed: after a status
 *                {@link UpstreamStatus#movesOn()}, which includes the gateway's own 502 and 504 for
 *                an unreachable or silent upstream; never once the call's total time is up
 */
public record Failure(Status status, byte[] body, String summary, Function<String, byte[]> rewrite,
               List<Header> headers, boolean movesOn) {

    /** The upstream answered an error status; {@code normalized} is its body in the OpenAI shape. */
    static Failure answered(int status, byte[] normalized, HttpClientResponse upstream) {
        return answered(status, normalized, RelayedHeaders.of(upstream));
    }

    /** As {@link #answered(int, byte[], HttpClientResponse)}, with the upstream's headers already picked. */
    static Failure answered(int status, byte[] normalized, List<Header> relayedHeaders) {
        String upstreamMessage = UpstreamErrors.message(normalized);
        return new Failure(Status.create(status), normalized, status + " " + upstreamMessage,
                message -> UpstreamErrors.withMessage(normalized, message), relayedHeaders,
                UpstreamStatus.of(status).movesOn());
    }

    /**
     * The upstream refused the gateway's own key (401/403): a 502, since the caller's key is fine and
     * an SDK reads a 401 as "your key is wrong". The upstream's text stays out: it may show part of
     * the key; {@link RejectedKeyLog} tells the operator.
     */
    static Failure keyRejected(Provider provider, int status) {
        String reason = "key rejected (" + status + ")";
        return new Failure(Status.BAD_GATEWAY_502, authFailed("Upstream " + provider.prefix() + " refused the"
                + " gateway's own API key (" + status + "). This is not about your key: the gateway's operator must"
                + " fix the key for " + provider.prefix() + "."), reason, Failure::authFailed, List.of(), true);
    }

    /**
     * Every key of the provider was refused by its upstream (401/403) and none is due for a probe: a
     * 502, as {@link #keyRejected} would have answered, without calling the upstream again.
     */
    public static Failure keysRefused(Provider provider) {
        return new Failure(Status.BAD_GATEWAY_502, authFailed("Upstream " + provider.prefix() + " refused the"
                + " gateway's own API keys. This is not about your key: the gateway's operator must fix the keys for "
                + provider.prefix() + "."), "every key refused", Failure::authFailed, List.of(), true);
    }

    /**
     * Every key of the provider cools down after the upstream's 429: a 429 that says when the first
     * may be called again, which the SDKs wait for before they retry.
     */
    public static Failure keysCooling(Provider provider, Duration wait) {
        long seconds = Math.max(1, (wait.toMillis() + 999) / 1000);
        ApiError error = ApiError.rateLimited("requests", "Upstream " + provider.prefix() + " is rate-limiting"
                + " every key of the gateway; retry in " + seconds + " s.");
        return new Failure(error.status(), error.toJson(), "every key cooling down",
                message -> ApiError.rateLimited("requests", message).toJson(),
                List.of(HeaderValues.create(HeaderNames.RETRY_AFTER, Long.toString(seconds))), true);
    }

    /** No key of the provider may be called now: each failed again and again, or a probe of it is under way. */
    public static Failure keysEjected(Provider provider) {
        return upstreamError("Upstream " + provider.prefix() + " has no key that can be called now: each failed"
                + " repeatedly and rests before it is tried again.", "every key resting");
    }

    /**
     * How long the upstream asked to be left alone, from its {@code retry-after-ms} or
     * {@code Retry-After} (seconds, or an HTTP date); empty when it said not, or not readably.
     */
    public Optional<Duration> retryAfter() {
        for (Header header : headers) {
            try {
                if (header.name().equalsIgnoreCase("retry-after-ms")) {
                    return Optional.of(Duration.ofMillis((long) Double.parseDouble(header.get().strip())));
                }
                if (header.name().equalsIgnoreCase("retry-after")) {
                    String value = header.get().strip();
                    return Optional.of(value.chars().allMatch(Character::isDigit)
                            ? Duration.ofSeconds(Long.parseLong(value))
                            : Duration.between(Instant.now(), ZonedDateTime.parse(value,
                            DateTimeFormatter.RFC_1123_DATE_TIME).toInstant()));
                }
            } catch (RuntimeException e) {
                return Optional.empty();
            }
        }
        return Optional.empty();
    }

    private static byte[] authFailed(String message) {
        return ApiError.toJson(message, "upstream_error", null, "upstream_auth_failed");
    }

    /**
     * The upstream could not be reached, or its connection broke before its answer was whole: a 502
     * that says how in a few words of the gateway's own. The cause's text stays out: it names the
     * upstream's address, which is the operator's business ({@link UpstreamCall} logs it).
     */
    static Failure unreachable(Provider provider, Exception cause) {
        String reason = "unreachable: " + ConnectFailure.of(cause).describe();
        return upstreamError("Upstream " + provider.prefix() + " is " + reason + ".", reason);
    }

    /** A 2xx answer to a plain request whose body is not a JSON object (a proxy's page, text, nothing): a 502. */
    static Failure notJson(Provider provider, int status) {
        return upstreamError("Upstream " + provider.prefix() + " answered " + status + " with a body that is not a"
                + " JSON object.", "answered " + status + " without JSON");
    }

    /** A 2xx answer to a stream request that is not an event stream ({@code contentType} empty when none): a 502. */
    static Failure notAnEventStream(Provider provider, String contentType) {
        String shown = contentType.isEmpty() ? "no Content-Type"
                : "'" + (contentType.length() > 100 ? contentType.substring(0, 100) + "..." : contentType) + "'";
        return upstreamError("Upstream " + provider.prefix() + " answered a stream request with " + shown
                + ", not an event stream.", "answered without an event stream");
    }

    private static Failure upstreamError(String message, String summary) {
        ApiError error = ApiError.upstream(message);
        return new Failure(error.status(), error.toJson(), summary, text -> ApiError.upstream(text).toJson(),
                List.of(), true);
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

    /**
     * The call ran past {@code total} before the caller got a byte: a 504, after which no other
     * provider is tried, since the caller's time is up for all of them.
     */
    static Failure outOfTime(Provider provider, Duration total) {
        return timeout(provider, "did not answer within " + seconds(total) + " (gateway.timeouts.total)", false);
    }

    private static Failure timeout(Provider provider, String what) {
        return timeout(provider, what, true);
    }

    private static Failure timeout(Provider provider, String what, boolean movesOn) {
        ApiError error = ApiError.upstreamTimeout("Upstream " + provider.prefix() + " " + what + ".");
        return new Failure(error.status(), error.toJson(), "timed out",
                message -> ApiError.upstreamTimeout(message).toJson(), List.of(), movesOn);
    }

    /**
     * The gateway is stopping and its grace period ran out while the call waited on the upstream: a
     * 503 that closes the connection, which a client retries on another replica; no other provider
     * is tried.
     */
    static Failure shuttingDown() {
        ApiError error = ApiError.shuttingDown();
        return new Failure(error.status(), error.toJson(), "the gateway is stopping",
                message -> ApiError.shuttingDown().toJson(), List.of(HeaderValues.CONNECTION_CLOSE), false);
    }

    /** The same failure with another message; a lone upstream answer keeps its status, type and code. */
    public Failure withMessage(String message) {
        return new Failure(status, rewrite.apply(message), summary, rewrite, headers, movesOn);
    }

    /** Sends the failure to the caller as its answer, in OpenAI's error shape. */
    public void send(ServerResponse response) {
        send(response, ErrorShape.OPENAI, null);
    }

    /**
     * Sends the failure to the caller as its answer, in {@code shape}: an upstream's body already in
     * that shape goes as it came.
     */
    public void send(ServerResponse response, ErrorShape shape, String requestId) {
        response.status(status);
        response.header(HeaderValues.CONTENT_TYPE_JSON);
        RelayedHeaders.addTo(response, headers);
        response.send(shape.body(status.code(), body, requestId));
    }

    /** A timeout as a message shows it: {@code 120 s}, or {@code 1500 ms} when not whole seconds. */
    static String seconds(Duration duration) {
        return duration.toMillis() % 1000 == 0 ? duration.toSeconds() + " s" : duration.toMillis() + " ms";
    }
}

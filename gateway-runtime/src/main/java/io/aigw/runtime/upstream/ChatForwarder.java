package io.aigw.runtime.upstream;

import io.aigw.runtime.error.ApiError;
import io.aigw.runtime.error.ApiException;
import io.aigw.runtime.observe.GatewayMetrics;
import io.aigw.runtime.observe.Millis;
import io.aigw.runtime.plugin.Provider;
import io.aigw.runtime.routing.Route;
import io.aigw.runtime.transport.TransportOptions.Choice;
import io.aigw.runtime.upstream.SseRelay.CallerGone;
import io.aigw.runtime.upstream.SseRelay.UpstreamBroke;
import io.helidon.common.LazyValue;
import io.helidon.common.tls.Tls;
import io.helidon.http.Header;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Status;
import io.helidon.webclient.api.HttpClientResponse;
import io.helidon.webserver.http.ServerResponse;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Collectors;

/**
 * Sends a chat completion to its upstream and relays the answer to the caller: whole for a plain
 * request, event by event for a stream. Given several routes ({@code gateway/auto}), it tries the
 * next one when the current fails before anything reached the caller.
 */
public final class ChatForwarder implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(ChatForwarder.class.getName());
    /** Upstream headers worth passing back: they tell an SDK when to retry. */
    private static final List<String> RELAYED_HEADER_PREFIXES = List.of("retry-after", "x-ratelimit-");
    public static final HeaderName PROVIDER_HEADER = HeaderNames.create("X-Gateway-Provider");
    private static final HeaderName SERVER_TIMING = HeaderNames.create("Server-Timing");
    /** Bodies up to this size, with a Content-Length, are read into an array of exactly that size. */
    private static final long MAX_SIZED_BODY = 16 * 1024 * 1024;

    /** Built on first use: each loads a TLS trust store, which providers never called need not pay for. */
    private final Map<String, LazyValue<UpstreamClient>> clients;
    private final KeyCooldowns cooldowns;
    private final UpstreamTimeouts timeouts;
    private final Deadlines deadlines;
    private final GatewayMetrics metrics;

    public ChatForwarder(List<Provider> providers, UpstreamTimeouts timeouts, Duration keyCooldown,
                         Optional<Tls> tls, Choice upstreamPool, GatewayMetrics metrics) {
        this.timeouts = timeouts;
        this.deadlines = new Deadlines(Deadlines.tickFor(timeouts));
        this.metrics = metrics;
        this.cooldowns = new KeyCooldowns(keyCooldown);
        this.clients = providers.stream().collect(Collectors.toUnmodifiableMap(Provider::name,
                provider -> LazyValue.create(() -> new UpstreamClient(provider, timeouts, tls, upstreamPool))));
    }

    /** Whether {@code gateway/auto} may try this provider now: it has a key not recently rejected. */
    public boolean usable(Provider provider) {
        return provider.apiKey().isPresent() && !cooldowns.isCoolingDown(provider.name());
    }

    /** Forwards along one route; failures go back to the caller as they are. */
    public void forward(UpstreamRequest request, Route route, ServerResponse response, CallReport report) {
        Provider provider = route.provider();
        if (provider.apiKey().isEmpty()) {
            throw new ApiException(ApiError.upstream("The provider '" + provider.prefix() + "' has no API key"
                    + " configured: set " + provider.apiKeyVariable() + " (or providers." + provider.name()
                    + ".api-key) where the gateway runs."));
        }
        Failure failure = attempt(request, route, response, false, report);
        if (failure != null) {
            failure.send(response, report);
        }
    }

    /**
     * Forwards along the first route that works, in order. Every route must be {@link #usable}; with
     * none at all, or when all fail, the caller gets the last failure with a list of what was tried.
     */
    public void forwardWithFallback(UpstreamRequest request, List<Route> routes, ServerResponse response,
                                    CallReport report) {
        List<String> tried = new ArrayList<>();
        Failure last = null;
        for (Route route : routes) {
            last = attempt(request, route, response, true, report);
            if (last == null) {
                return;
            }
            metrics.fallback(route.provider().prefix());
            tried.add(route.provider().prefix() + " (" + last.summary() + ")");
        }
        if (last == null) {
            throw new ApiException(ApiError.upstream("gateway/auto has no usable provider: no upstream key is"
                    + " configured, or every configured key was recently rejected."));
        }
        String message = "gateway/auto tried every usable provider and all failed: " + String.join("; ", tried) + ".";
        last.withMessage(message).send(response, report);
    }

    /** Returns null when the caller has been answered, or the failure when nothing was sent yet. */
    private Failure attempt(UpstreamRequest request, Route route, ServerResponse response, boolean fallback,
                            CallReport report) {
        Provider provider = route.provider();
        report.attempt(provider.prefix(), route.upstreamModel());
        byte[] body = request.bodyFor(route);
        long started = System.nanoTime();
        HttpClientResponse upstream;
        try (Deadlines.Deadline deadline = deadlines.start(timeouts.firstByte().toNanos())) {
            try {
                upstream = clients.get(provider.name()).get().post(body, request.stream(), report.requestId());
            } catch (RuntimeException e) {
                report.waitedOnUpstream(System.nanoTime() - started);
                return deadline.expired() ? Failure.timeout(provider, "sent no response headers within "
                        + seconds(timeouts.firstByte()) + " (gateway.timeouts.first-byte)")
                        : Failure.unreachable(provider, e);
            }
            long headersAt = System.nanoTime();
            deadline.progress(timeouts.idle().toNanos());
            try (upstream) {
                InputStream in = new ProgressInputStream(upstream.inputStream(), deadline);
                int status = upstream.status().code();
                if (status >= 200 && status < 300) {
                    if (request.stream() && isEventStream(upstream)) {
                        report.waitedOnUpstream(headersAt - started);
                        relayStream(upstream, in, provider, response, deadline,
                                request.addsUsage(route), report);
                        return null;
                    }
                    byte[] answer = readBody(upstream, in, provider, deadline);
                    report.waitedOnUpstream(System.nanoTime() - started);
                    sendAnswer(response, upstream, status, answer, provider, report);
                    report.answered(status, System.nanoTime());
                    // Counted after the answer is out: the caller does not wait for it.
                    report.usage(TokenUsage.from(answer, 0, answer.length).orElse(TokenUsage.NONE));
                    return null;
                }
                byte[] error = UpstreamErrors.normalize(status, readBody(upstream, in, provider, deadline), provider.prefix());
                report.waitedOnUpstream(System.nanoTime() - started);
                if (status == 401 || status == 403) {
                    cooldowns.markRejected(provider.name());
                    metrics.keyCooldown(provider.prefix());
                    LOG.log(Level.WARNING, "Upstream " + provider.prefix() + " rejected the gateway's key (" + status
                            + "); gateway/auto skips it during the cool-down. Check " + provider.apiKeyVariable() + ".");
                }
                Failure failure = Failure.answered(status, error, upstream);
                if (fallback && retryable(status)) {
                    return failure;
                }
                failure.send(response, report);
                return null;
            } catch (BodyFailed e) {
                report.waitedOnUpstream(System.nanoTime() - started);
                return e.failure;
            }
        }
    }

    private void relayStream(HttpClientResponse upstream, InputStream in, Provider provider, ServerResponse response,
                             Deadlines.Deadline deadline, boolean hideUsageChunk,
                             CallReport report) {
        response.status(Status.OK_200);
        response.header(HeaderNames.CONTENT_TYPE, contentType(upstream, "text/event-stream"));
        response.header(HeaderValues.CACHE_NO_CACHE);
        response.header(PROVIDER_HEADER, provider.prefix());
        response.header(SERVER_TIMING, serverTiming(report));
        OutputStream out = response.outputStream();
        report.answered(Status.OK_200.code(), System.nanoTime());
        report.streamed();
        metrics.streamStarted();
        SseRelay relay = new SseRelay(in, out, hideUsageChunk);
        try {
            relay.run();
            out.close();
        } catch (UpstreamBroke e) {
            // Disarm first: a pending interrupt would otherwise close the caller's socket too.
            deadline.close();
            String message = deadline.expired()
                    ? "Upstream " + provider.prefix() + " sent nothing for " + seconds(timeouts.idle())
                    + " (gateway.timeouts.idle); the stream was cut."
                    : "The connection to upstream " + provider.prefix() + " broke mid-stream.";
            endWithError(relay, out, errorEvent(message, deadline.expired() ? "timeout" : null));
        } catch (CallerGone | UncheckedIOException e) {
            // Leaving now closes the upstream response unread, which drops its connection: the
            // upstream stops generating for a caller who is gone.
            LOG.log(Level.DEBUG, "Caller left a stream from " + provider.prefix() + "; upstream call cancelled");
        } catch (java.io.IOException e) {
            LOG.log(Level.DEBUG, "Caller left at the end of a stream from " + provider.prefix());
        } finally {
            report.usage(relay.usage());
            metrics.streamEnded();
        }
    }

    private static void endWithError(SseRelay relay, OutputStream out, byte[] event) {
        try {
            relay.emit(event);
            out.close();
        } catch (CallerGone | UncheckedIOException | java.io.IOException e) {
            LOG.log(Level.DEBUG, "Caller left before the error event of a broken stream");
        }
    }

    private static byte[] errorEvent(String message, String code) {
        byte[] json = ApiError.toJson(message, "upstream_error", null, code);
        byte[] prefix = "data: ".getBytes(StandardCharsets.US_ASCII);
        byte[] event = new byte[prefix.length + json.length + 2];
        System.arraycopy(prefix, 0, event, 0, prefix.length);
        System.arraycopy(json, 0, event, prefix.length, json.length);
        event[event.length - 2] = '\n';
        event[event.length - 1] = '\n';
        return event;
    }

    private void sendAnswer(ServerResponse response, HttpClientResponse upstream, int status, byte[] answer,
                            Provider provider, CallReport report) {
        response.status(Status.create(status));
        response.header(HeaderNames.CONTENT_TYPE, contentType(upstream, "application/json"));
        response.header(PROVIDER_HEADER, provider.prefix());
        response.header(SERVER_TIMING, serverTiming(report));
        relayedHeaders(upstream).forEach(response::header);
        response.send(answer);
    }

    private byte[] readBody(HttpClientResponse upstream, InputStream in, Provider provider,
                            Deadlines.Deadline deadline) {
        try {
            OptionalLong length = upstream.headers().contentLength();
            return length.isPresent() && length.getAsLong() <= MAX_SIZED_BODY
                    ? readDeclared(in, (int) length.getAsLong()) : in.readAllBytes();
        } catch (java.io.IOException | RuntimeException e) {
            throw new BodyFailed(deadline.expired()
                    ? Failure.timeout(provider, "stopped sending its response for " + seconds(timeouts.idle())
                    + " (gateway.timeouts.idle)")
                    : Failure.unreachable(provider, e));
        }
    }

    /**
     * Reads a body of known length into an array of that size: readAllBytes would read in 16 KB
     * chunks, and the client allocates a buffer of each chunk's size too, for every answer.
     */
    private static byte[] readDeclared(InputStream in, int length) throws java.io.IOException {
        byte[] body = new byte[length];
        // The read past the end is what tells the client the body is done, so the connection is reused.
        if (in.readNBytes(body, 0, length) < length || in.read() != -1) {
            throw new java.io.IOException("The upstream body did not match its Content-Length");
        }
        return body;
    }

    /** The upstream's headers that tell an SDK when to retry, those of them that are well formed. */
    static List<Header> relayedHeaders(HttpClientResponse upstream) {
        List<Header> relayed = new ArrayList<>();
        for (Header header : upstream.headers()) {
            // Every value: a header the upstream sent more than once holds them all.
            if (isRelayed(header.name()) && HeaderSyntax.isName(header.name())
                    && header.allValues().stream().allMatch(HeaderSyntax::isValue)) {
                relayed.add(header);
            }
        }
        return relayed;
    }

    private static boolean isRelayed(String name) {
        for (String prefix : RELAYED_HEADER_PREFIXES) {
            if (name.regionMatches(true, 0, prefix, 0, prefix.length())) {
                return true;
            }
        }
        return false;
    }

    /**
     * The upstream's Content-Type as it was sent, when it is well formed: parsing it only to write
     * it out again costs every answer.
     */
    private static String contentType(HttpClientResponse upstream, String otherwise) {
        return upstream.headers().first(HeaderNames.CONTENT_TYPE).filter(HeaderSyntax::isValue).orElse(otherwise);
    }

    /**
     * Reads the header's text up to its parameters: parsing it into a media type took 26-44 µs of a
     * stream's time to first byte, on a path that runs cold between a stream's events.
     */
    private static boolean isEventStream(HttpClientResponse upstream) {
        String type = contentType(upstream, "");
        int parameters = type.indexOf(';');
        return (parameters < 0 ? type : type.substring(0, parameters)).strip().equalsIgnoreCase("text/event-stream");
    }

    private static boolean retryable(int status) {
        return status == 401 || status == 403 || status == 408 || status == 409 || status == 429 || status >= 500;
    }

    /** The gateway's own time so far and the time spent waiting on upstreams, as a {@code Server-Timing} value. */
    private static String serverTiming(CallReport report) {
        long upstreamMicros = report.upstreamNanos() / 1000;
        long gatewayMicros = Math.max(0, (System.nanoTime() - report.startedNanos()) / 1000 - upstreamMicros);
        // One builder for the whole value: it is made on every answer.
        StringBuilder value = new StringBuilder(48).append("gateway;dur=");
        Millis.append(value, gatewayMicros).append(", upstream;dur=");
        return Millis.append(value, upstreamMicros).toString();
    }

    private static String seconds(Duration duration) {
        return duration.toMillis() % 1000 == 0 ? duration.toSeconds() + " s" : duration.toMillis() + " ms";
    }

    @Override
    public void close() {
        deadlines.close();
        clients.values().stream().filter(LazyValue::isLoaded).map(LazyValue::get).forEach(UpstreamClient::close);
    }

    /** Reading an upstream body failed before anything reached the caller. */
    private static final class BodyFailed extends RuntimeException {
        private final Failure failure;

        BodyFailed(Failure failure) {
            super(null, null, false, false);
            this.failure = failure;
        }
    }
}

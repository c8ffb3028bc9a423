package io.aigw.runtime.api;

import io.aigw.runtime.auth.Caller;
import io.aigw.runtime.batch.BatchWriter;
import io.aigw.runtime.error.ApiError;
import io.aigw.runtime.error.ApiException;
import io.aigw.runtime.observe.GatewayMetrics;
import io.aigw.runtime.observe.RequestObserver;
import io.aigw.runtime.routing.Route;
import io.aigw.runtime.routing.RoutingTable;
import io.aigw.runtime.store.UsageRecord;
import io.aigw.runtime.upstream.CallReport;
import io.aigw.runtime.upstream.ChatForwarder;
import io.aigw.runtime.upstream.TokenUsage;
import io.helidon.http.HttpMediaType;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.List;

/**
 * {@code POST /api/v1/chat/completions}: reads and validates the body, routes it by the model's
 * prefix ({@code gateway/auto} along the fallback chain) and hands it to the upstream layer.
 */
public final class ChatCompletionsService implements HttpService {
    private final RoutingTable routing;
    private final ChatForwarder forwarder;
    private final BatchWriter<UsageRecord> usage;
    private final GatewayMetrics metrics;
    private final long maxBodyBytes;

    public ChatCompletionsService(RoutingTable routing, ChatForwarder forwarder, BatchWriter<UsageRecord> usage,
                                  GatewayMetrics metrics, long maxBodyBytes) {
        this.routing = routing;
        this.forwarder = forwarder;
        this.usage = usage;
        this.metrics = metrics;
        this.maxBodyBytes = maxBodyBytes;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.post("/", this::create);
    }

    private void create(ServerRequest request, ServerResponse response) {
        long started = System.nanoTime();
        requireJson(request);
        ChatRequest chat = ChatRequest.parse(readBody(request));
        CallReport report = new CallReport(request.context().get(RequestObserver.RequestId.class)
                .map(RequestObserver.RequestId::value).orElse("none"), chat.model(), started);
        request.context().register(report);
        metrics.requestStarted();
        int status = 0;
        try {
            if (RoutingTable.AUTO_MODEL.equals(chat.model())) {
                List<Route> chain = routing.byPriority().stream()
                        .filter(forwarder::usable)
                        .map(provider -> new Route(provider, provider.defaultModel()))
                        .toList();
                forwarder.forwardWithFallback(chat, chain, response, report);
            } else {
                forwarder.forward(chat, routing.route(chat.model()), response, report);
            }
            status = report.status();
        } catch (ApiException e) {
            status = e.error().status().code();
            throw e;
        } finally {
            metrics.requestEnded();
            count(report, status);
            usage.offer(record(request, chat, report, status, started));
        }
    }

    private void count(CallReport report, int status) {
        long now = System.nanoTime();
        long waitedFor = report.isStream() ? report.firstByteNanos() : now;
        TokenUsage tokens = report.usage();
        metrics.completed(report.requestedModel(), report.provider(), status,
                Math.max(0, waitedFor - report.startedNanos() - report.upstreamNanos()), report.upstreamNanos(),
                tokens.promptTokens(), tokens.completionTokens());
        if (report.isStream()) {
            metrics.streamFirstByte(report.provider(), report.firstByteNanos() - report.startedNanos());
        }
    }

    private static UsageRecord record(ServerRequest request, ChatRequest chat, CallReport report, int status,
                                      long started) {
        long now = System.nanoTime();
        TokenUsage tokens = report.usage();
        return new UsageRecord(Instant.now(),
                request.context().get(Caller.class).map(Caller::keyId).orElse("unknown"),
                chat.model(), report.provider(), report.upstreamModel(), status,
                tokens.promptTokens(), tokens.completionTokens(), tokens.totalTokens(),
                (now - started) / 1000,
                report.firstByteNanos() < 0 ? -1 : (report.firstByteNanos() - started) / 1000,
                report.fallbacks());
    }

    /** A missing Content-Type is taken for JSON; any other type than JSON is refused. */
    private static void requireJson(ServerRequest request) {
        request.headers().contentType().ifPresent(type -> {
            String subtype = type.mediaType().subtype();
            if (!type.mediaType().type().equalsIgnoreCase("application")
                    || !(subtype.equalsIgnoreCase("json") || subtype.toLowerCase().endsWith("+json"))) {
                throw new ApiException(new ApiError(Status.UNSUPPORTED_MEDIA_TYPE_415, "The request body must be JSON"
                        + " sent with 'Content-Type: application/json', not '" + text(type) + "'.",
                        "invalid_request_error", null, "unsupported_media_type"));
            }
        });
    }

    private byte[] readBody(ServerRequest request) {
        if (request.headers().contentLength().orElse(0) > maxBodyBytes) {
            throw new ApiException(ApiError.requestTooLarge(maxBodyBytes));
        }
        try (InputStream in = request.content().inputStream()) {
            byte[] body = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBodyBytes + 1));
            if (body.length > maxBodyBytes) {
                throw new ApiException(ApiError.requestTooLarge(maxBodyBytes));
            }
            if (body.length == 0) {
                throw new ApiException(ApiError.invalidRequest(null, "The request body is empty; send a JSON"
                        + " object with 'model' and 'messages'."));
            }
            return body;
        } catch (IOException | UncheckedIOException e) {
            throw new ApiException(ApiError.invalidRequest(null, "The request body could not be read: it was cut"
                    + " short or its encoding is broken."));
        }
    }

    private static String text(HttpMediaType type) {
        String text = type.text();
        return text.length() > 100 ? text.substring(0, 100) + "..." : text;
    }
}

package io.aigw.runtime.api;

import io.aigw.runtime.error.ApiException;
import io.aigw.runtime.routing.Route;
import io.aigw.runtime.upstream.UpstreamRequest;
import io.aigw.runtime.upstream.WireFormat;
import io.aigw.spi.UpstreamApi;
import io.helidon.http.Header;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * An Anthropic Messages request body (or a token count's), validated once
 * ({@link MessagesRequestReader}) and kept as the caller's bytes: each upstream's body is the
 * caller's with only {@code model} replaced.
 */
public final class MessagesRequest implements UpstreamRequest {
    private static final String COUNT_TOKENS = "/count_tokens";

    private final String model;
    private final boolean stream;
    private final long maxTokens;
    private final Optional<String> session;
    private final BodySplice body;
    private final boolean countTokens;
    private final List<Header> headers;

    /** @param session the session the body names, its {@code metadata.user_id} */
    MessagesRequest(String model, boolean stream, long maxTokens, Optional<String> session, BodySplice body) {
        this(model, stream, maxTokens, session, body, false, List.of());
    }

    private MessagesRequest(String model, boolean stream, long maxTokens, Optional<String> session, BodySplice body,
                            boolean countTokens, List<Header> headers) {
        this.model = model;
        this.stream = stream;
        this.maxTokens = maxTokens;
        this.session = session;
        this.body = body;
        this.countTokens = countTokens;
        this.headers = headers;
    }

    /**
     * Validates a Messages body, which must set {@code max_tokens}.
     *
     * @throws ApiException a 400 naming the field at fault
     */
    public static MessagesRequest parse(byte[] body) {
        return MessagesRequestReader.read(body, true);
    }

    /**
     * Validates a token count's body ({@code POST /v1/messages/count_tokens}), which counts a
     * Messages request's prompt and writes nothing.
     *
     * @throws ApiException a 400 naming the field at fault
     */
    public static MessagesRequest parseCount(byte[] body) {
        MessagesRequest read = MessagesRequestReader.read(body, false);
        return new MessagesRequest(read.model, false, 0, read.session, read.body, true, List.of());
    }

    /** This request, sending {@code headers} (the caller's {@code anthropic-*} ones) upstream with it. */
    MessagesRequest withHeaders(List<Header> headers) {
        return new MessagesRequest(model, stream, maxTokens, session, body, countTokens, List.copyOf(headers));
    }

    /** The model the caller asked for, such as {@code claude-sonnet-4-5-20250929}. */
    public String model() {
        return model;
    }

    /** {@code max_tokens}, the most the answer may write; 0 for a token count, which writes nothing. */
    public long maxTokens() {
        return maxTokens;
    }

    /** The session the body names: its {@code metadata.user_id}, which Claude Code sets per session. */
    public Optional<String> session() {
        return session;
    }

    @Override
    public UpstreamApi api() {
        return UpstreamApi.MESSAGES;
    }

    @Override
    public WireFormat format() {
        return WireFormat.MESSAGES;
    }

    @Override
    public boolean stream() {
        return stream;
    }

    @Override
    public byte[] bodyFor(Route route) {
        return body.apply(route.upstreamModel(), Set.of(), false);
    }

    @Override
    public String pathBelowApi() {
        return countTokens ? COUNT_TOKENS : "";
    }

    @Override
    public List<Header> headers() {
        return headers;
    }

    /** The gateway never asks a Messages stream for more than the caller did: its usage comes unasked. */
    @Override
    public boolean addsUsage(Route route) {
        return false;
    }
}

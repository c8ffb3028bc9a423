package io.aigw.runtime.api;

import io.aigw.runtime.error.ApiException;
import io.aigw.runtime.routing.Route;
import io.aigw.runtime.upstream.UpstreamRequest;
import io.aigw.runtime.upstream.WireFormat;
import io.aigw.spi.UpstreamApi;
import java.util.Optional;
import java.util.Set;

/**
 * A chat completion request body, validated once ({@link ChatRequestReader}) and kept as the
 * caller's bytes, from which the body for each upstream is spliced ({@link BodySplice}).
 */
public final class ChatRequest implements UpstreamRequest {
    private final String model;
    private final boolean stream;
    private final boolean callerAskedForUsage;
    private final long maxOutputTokens;
    private final Optional<String> session;
    private final BodySplice body;

    /** @param session the session the body names ({@code prompt_cache_key}, else {@code user}) */
    ChatRequest(String model, boolean stream, boolean callerAskedForUsage, long maxOutputTokens,
                Optional<String> session, BodySplice body) {
        this.model = model;
        this.stream = stream;
        this.callerAskedForUsage = callerAskedForUsage;
        this.maxOutputTokens = maxOutputTokens;
        this.session = session;
        this.body = body;
    }

    /**
     * Validates a request body: a JSON object in UTF-8 with a non-empty string {@code model}, an
     * array of objects {@code messages}, an optional boolean {@code stream}, and no key twice.
     *
     * @throws ApiException a 400 naming the field at fault
     */
    public static ChatRequest parse(byte[] body) {
        return ChatRequestReader.read(body);
    }

    /** The model the caller asked for, such as {@code openai/gpt-5}. */
    public String model() {
        return model;
    }

    /** {@code max_completion_tokens}, else {@code max_tokens}; -1 when the request sets neither. */
    public long maxOutputTokens() {
        return maxOutputTokens;
    }

    /** The session the body names: its {@code prompt_cache_key}, else its {@code user}. */
    public Optional<String> session() {
        return session;
    }

    @Override
    public UpstreamApi api() {
        return UpstreamApi.CHAT_COMPLETIONS;
    }

    @Override
    public WireFormat format() {
        return WireFormat.CHAT_COMPLETIONS;
    }

    @Override
    public boolean stream() {
        return stream;
    }

    /** The body exactly as the caller sent it. */
    public byte[] body() {
        return body.original();
    }

    @Override
    public byte[] bodyFor(Route route) {
        return body.apply(route.upstreamModel(), route.provider().unsupportedFields(), addsUsage(route));
    }

    /**
     * Usage is counted for every stream: when the caller did not ask for the final usage chunk, the
     * gateway asks for it (unless the provider rejects {@code stream_options}) and hides it again.
     */
    @Override
    public boolean addsUsage(Route route) {
        return stream && !callerAskedForUsage
                && !route.provider().unsupportedFields().contains(BodySplice.STREAM_OPTIONS);
    }

    /** Returns the body to forward with {@code model} replaced and {@code dropped} fields removed. */
    public byte[] forUpstream(String upstreamModel, Set<String> dropped) {
        return body.apply(upstreamModel, dropped, false);
    }

    /** As {@link #forUpstream(String, Set)}, with {@code stream_options.include_usage} set when {@code addUsage}. */
    byte[] forUpstream(String upstreamModel, Set<String> dropped, boolean addUsage) {
        return body.apply(upstreamModel, dropped, addUsage);
    }
}

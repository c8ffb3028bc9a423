package io.aigw.runtime.api;

import io.aigw.runtime.routing.Route;
import io.aigw.runtime.upstream.UpstreamRequest;
import io.aigw.runtime.upstream.WireFormat;
import io.aigw.spi.UpstreamApi;
import java.util.Optional;
import java.util.Set;

/**
 * A Responses API request body, validated once ({@link ResponsesRequestReader}) and kept as the
 * caller's bytes: each upstream gets them with its own model id spliced in and nothing else changed.
 */
final class ResponsesRequest implements UpstreamRequest {
    private final String model;
    private final boolean stream;
    private final long maxOutputTokens;
    private final Optional<String> previousResponseId;
    private final Optional<String> session;
    private final BodySplice body;
    private final Creations created;

    /**
     * @param session the session the body names ({@code prompt_cache_key}, else {@code user})
     * @param created told of the response an upstream creates for the request
     */
    ResponsesRequest(String model, boolean stream, long maxOutputTokens, Optional<String> previousResponseId,
                     Optional<String> session, BodySplice body, Creations created) {
        this.model = model;
        this.stream = stream;
        this.maxOutputTokens = maxOutputTokens;
        this.previousResponseId = previousResponseId;
        this.session = session;
        this.body = body;
        this.created = created;
    }

    /** The model the caller asked for, such as {@code openai/gpt-5}. */
    String model() {
        return model;
    }

    /** {@code max_output_tokens}; -1 when the request sets none. */
    long maxOutputTokens() {
        return maxOutputTokens;
    }

    /** The response this one continues, when the request names one. */
    Optional<String> previousResponseId() {
        return previousResponseId;
    }

    /** The session the body names: its {@code prompt_cache_key}, else its {@code user}. */
    Optional<String> session() {
        return session;
    }

    @Override
    public UpstreamApi api() {
        return UpstreamApi.RESPONSES;
    }

    @Override
    public WireFormat format() {
        return WireFormat.RESPONSES;
    }

    @Override
    public boolean stream() {
        return stream;
    }

    /** Usage is always in a Responses stream ({@code response.completed}): nothing to ask for. */
    @Override
    public byte[] bodyFor(Route route) {
        return body.apply(route.upstreamModel(), Set.of(), false);
    }

    @Override
    public boolean addsUsage(Route route) {
        return false;
    }

    @Override
    public void created(Route route, String keyName, String id) {
        created.created(route, keyName, id);
    }

    /** Hears of the response an upstream creates for a request. */
    @FunctionalInterface
    interface Creations {
        /** The upstream along {@code route}, called with its key {@code keyName}, created {@code id}. */
        void created(Route route, String keyName, String id);
    }
}

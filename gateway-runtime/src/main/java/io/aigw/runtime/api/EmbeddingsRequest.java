package io.aigw.runtime.api;

import io.aigw.runtime.routing.Route;
import io.aigw.runtime.upstream.UpstreamRequest;
import io.aigw.runtime.upstream.WireFormat;
import io.aigw.spi.UpstreamApi;
import java.util.Optional;

/**
 * An embeddings request body, validated once ({@link EmbeddingsRequestReader}) and kept as the
 * caller's bytes, from which the body for each upstream is spliced: its {@code model} replaced, the
 * fields the provider rejects dropped, everything else as it came.
 *
 * @param model   the model the caller asked for, such as {@code openai/text-embedding-3-small}
 * @param session the session the body names, its {@code user}
 */
record EmbeddingsRequest(String model, Optional<String> session, BodySplice body) implements UpstreamRequest {

    @Override
    public UpstreamApi api() {
        return UpstreamApi.EMBEDDINGS;
    }

    @Override
    public WireFormat format() {
        return WireFormat.EMBEDDINGS;
    }

    /** The API answers whole: a {@code stream} member is the caller's, passed on untouched. */
    @Override
    public boolean stream() {
        return false;
    }

    @Override
    public byte[] bodyFor(Route route) {
        return body.apply(route.upstreamModel(), route.provider().unsupportedFields(), false);
    }

    @Override
    public boolean addsUsage(Route route) {
        return false;
    }
}

package io.aigw.runtime.upstream;

import io.aigw.runtime.routing.Route;
import io.aigw.spi.UpstreamApi;
import io.helidon.http.Header;
import java.util.List;

/** A caller's request as the upstream layer needs it: one body per route it may be sent to. */
public interface UpstreamRequest {

    /** The upstream API the request is sent to, which every route's provider serves. */
    UpstreamApi api();

    /** The API's wire format: where its answers report usage, how its streams end. */
    WireFormat format();

    /** Whether the caller asked for a stream of server-sent events. */
    boolean stream();

    /**
     * Where under the API's URL the request goes: empty for the API itself, else a path such as
     * {@code /count_tokens} (the Messages API's token count).
     */
    default String pathBelowApi() {
        return "";
    }

    /** Headers of the caller's that go upstream with the request, such as {@code anthropic-version}. */
    default List<Header> headers() {
        return List.of();
    }

    /** Returns the body to send along {@code route}; called once per attempt, and only when attempted. */
    byte[] bodyFor(Route route);

    /**
     * Whether the body for {@code route} asks for stream usage that the caller did not: the final
     * usage-only chunk is then counted but not relayed.
     */
    boolean addsUsage(Route route);

    /**
     * The upstream along {@code route}, called with its key named {@code keyName}, created {@code id}
     * (the Responses API's response, named by a plain answer or its stream's first event), as soon as
     * the answer names it; by default nothing is remembered.
     */
    default void created(Route route, String keyName, String id) {
    }
}

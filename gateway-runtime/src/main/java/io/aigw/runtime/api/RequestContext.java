package io.aigw.runtime.api;

import io.aigw.runtime.auth.Caller;
import io.aigw.runtime.exchange.Endpoint;
import io.aigw.runtime.exchange.Exchange;
import io.aigw.runtime.observe.ObservedRequest;
import io.aigw.runtime.store.KeyPolicy;
import io.aigw.runtime.upstream.UpstreamRequest;
import io.helidon.webserver.http.ServerRequest;

/** What the filters left in a request's context for its endpoint: who called, and the request's id. */
final class RequestContext {
    private RequestContext() {
    }

    /** The key that sent the request; the key gate registers the caller of every /api/ request. */
    static Caller caller(ServerRequest request) {
        // Usage records say "unknown" without one.
        return request.context().get(Caller.class).orElseGet(() -> new Caller("unknown", false, KeyPolicy.NONE));
    }

    /** The request's id, as the access log and the upstream see it. */
    static String requestId(ServerRequest request) {
        return observed(request).id();
    }

    /**
     * The exchange of a request its endpoint has read: with the request's id, and its observer told
     * how the exchange ended, from one lookup in the context.
     */
    static Exchange exchange(Endpoint endpoint, ServerRequest request, Caller caller, String model,
                             long maxOutputTokens, byte[] body, UpstreamRequest upstreamRequest, long startedNanos) {
        ObservedRequest observed = observed(request);
        return new Exchange(endpoint, observed.id(), caller, model, maxOutputTokens, body, upstreamRequest,
                startedNanos, request.context(), observed);
    }

    private static ObservedRequest observed(ServerRequest request) {
        return request.context().get(ObservedRequest.class).orElseGet(ObservedRequest::unobserved);
    }
}

package io.aigw.runtime.api;

import io.aigw.runtime.config.GatewayConfig;
import io.aigw.runtime.exchange.Endpoint;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

/**
 * The room a request takes before its endpoint handles it, the same for every endpoint since the
 * limits hold for the gateway as a whole: a slot once its key is known, before its body is read,
 * then heap for its body as it arrives; both held until the request's handling ends, a stream's
 * included.
 */
public final class RequestAdmission {
    /** Each request in flight holds buffers and a thread stack: past the limit the heap would run out. */
    private final InFlightAdmission inFlight;
    /** The heap request bodies in flight hold together: past it the heap would run out. */
    private final BodyAdmission bodies;

    /** @param limits the largest body, the requests and bodies in flight, and each key's share of them */
    public RequestAdmission(GatewayConfig.Limits limits) {
        this.inFlight = new InFlightAdmission(limits.maxConcurrentRequests(), limits.inFlightReserve());
        this.bodies = new BodyAdmission(limits.maxBodyBytes(), limits.bodyMemory(), limits.keyBodyMemory());
    }

    /** What an endpoint does with a request once admitted. */
    @FunctionalInterface
    interface Handler {
        /**
         * @param body    the body read whole (empty for a request without one)
         * @param started {@link System#nanoTime()} when the request came, before its body was read
         */
        void handle(ServerRequest request, ServerResponse response, byte[] body, long started);
    }

    /**
     * Handles a request with a JSON body to {@code endpoint} within a slot and its body's room. The
     * endpoint goes into the request's context first, so that the access log names it for a request
     * refused before its exchange (no slot, a body too large or not the endpoint's).
     */
    void withBody(Endpoint endpoint, ServerRequest request, ServerResponse response, Handler handler) {
        request.context().register(endpoint);
        long started = System.nanoTime();
        try (RequestSlots.Admission.Taken slot = inFlight.admit(request, response);
             BodyAdmission.Body body = bodies.read(request, response)) {
            handler.handle(request, response, body.bytes(), started);
        }
    }

    /** Handles a request whose body the endpoint does not read within a slot. */
    void withoutBody(ServerRequest request, ServerResponse response, Handler handler) {
        long started = System.nanoTime();
        try (RequestSlots.Admission.Taken slot = inFlight.admit(request, response)) {
            handler.handle(request, response, new byte[0], started);
        }
    }
}

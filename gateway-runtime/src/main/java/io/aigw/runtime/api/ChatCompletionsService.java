package io.aigw.runtime.api;

import io.aigw.runtime.auth.Caller;
import io.aigw.runtime.config.GatewayConfig;
import io.aigw.runtime.exchange.Dispatcher;
import io.aigw.runtime.exchange.Endpoint;
import io.aigw.runtime.exchange.Exchange;
import io.aigw.runtime.observe.RequestObserver;
import io.aigw.runtime.store.KeyPolicy;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

/**
 * {@code POST /api/v1/chat/completions}: reads and validates the body into an {@link Exchange} and
 * hands it to the {@link Dispatcher}, which admits, routes, forwards and settles it.
 */
public final class ChatCompletionsService implements HttpService {
    private final Dispatcher dispatcher;
    /** Each request in flight holds buffers and a thread stack: past the limit the heap would run out. */
    private final InFlightAdmission inFlight;
    /** The heap request bodies in flight hold together: past it the heap would run out. */
    private final BodyAdmission bodies;

    /** @param limits the largest body, the requests and bodies in flight, and each key's share of them */
    public ChatCompletionsService(Dispatcher dispatcher, GatewayConfig.Limits limits) {
        this.dispatcher = dispatcher;
        this.inFlight = new InFlightAdmission(limits.maxConcurrentRequests(), limits.inFlightReserve());
        this.bodies = new BodyAdmission(limits.maxBodyBytes(), limits.bodyMemory(), limits.keyBodyMemory());
    }

    @Override
    public void routing(HttpRules rules) {
        rules.post("/", this::createWithinLimit);
    }

    /** A slot once the key is known, before the body is read; then room for the body as it arrives. */
    private void createWithinLimit(ServerRequest request, ServerResponse response) {
        long started = System.nanoTime();
        try (RequestSlots.Admission.Taken slot = inFlight.admit(request, response);
             BodyAdmission.Body body = bodies.read(request, response)) {
            create(request, response, body.bytes(), started);
        }
    }

    private void create(ServerRequest request, ServerResponse response, byte[] body, long started) {
        ChatRequest chat = ChatRequest.parse(body);
        // The key filter registers the caller of every /api/ request; usage records say "unknown" without one.
        Caller caller = request.context().get(Caller.class)
                .orElseGet(() -> new Caller("unknown", false, KeyPolicy.NONE));
        String requestId = request.context().get(RequestObserver.RequestId.class)
                .map(RequestObserver.RequestId::value).orElse("none");
        dispatcher.dispatch(new Exchange(Endpoint.CHAT_COMPLETIONS, requestId, caller, chat.model(),
                chat.maxOutputTokens(), body, chat, started, request.context()), response);
    }
}

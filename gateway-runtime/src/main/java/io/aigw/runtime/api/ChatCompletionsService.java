package io.aigw.runtime.api;

import io.aigw.runtime.exchange.Dispatcher;
import io.aigw.runtime.exchange.Endpoint;
import io.aigw.runtime.exchange.Exchange;
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
    private final RequestAdmission admission;

    /** @param admission the room every endpoint's requests share */
    public ChatCompletionsService(Dispatcher dispatcher, RequestAdmission admission) {
        this.dispatcher = dispatcher;
        this.admission = admission;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.post("/", (request, response) ->
                admission.withBody(Endpoint.CHAT_COMPLETIONS, request, response, this::create));
    }

    private void create(ServerRequest request, ServerResponse response, byte[] body, long started) {
        ChatRequest chat = ChatRequest.parse(body);
        RequestSession.register(request, chat.session());
        dispatcher.dispatch(RequestContext.exchange(Endpoint.CHAT_COMPLETIONS, request, RequestContext.caller(request),
                chat.model(), chat.maxOutputTokens(), body, chat, started), response);
    }
}

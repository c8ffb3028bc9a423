package io.aigw.runtime.api;

import io.aigw.runtime.exchange.Dispatcher;
import io.aigw.runtime.exchange.Endpoint;
import io.aigw.runtime.exchange.Exchange;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

/**
 * OpenAI's Responses API under {@code /api/v1/responses}: {@code POST /} reads and validates the body
 * into an {@link Exchange} and hands it to the {@link Dispatcher}, as chat completions do.
 */
public final class ResponsesService implements HttpService {
    private final Dispatcher dispatcher;
    private final RequestAdmission admission;

    /** @param admission the room every endpoint's requests share */
    public ResponsesService(Dispatcher dispatcher, RequestAdmission admission) {
        this.dispatcher = dispatcher;
        this.admission = admission;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.post("/", (request, response) -> admission.withBody(request, response, this::create));
    }

    private void create(ServerRequest request, ServerResponse response, byte[] body, long started) {
        ResponsesRequest responses = ResponsesRequestReader.read(body);
        dispatcher.dispatch(new Exchange(Endpoint.RESPONSES, RequestContext.requestId(request),
                RequestContext.caller(request), responses.model(), responses.maxOutputTokens(), body, responses,
                started, request.context()), response);
    }
}

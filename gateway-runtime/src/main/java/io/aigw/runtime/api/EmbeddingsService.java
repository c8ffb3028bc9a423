package io.aigw.runtime.api;

import io.aigw.runtime.exchange.Dispatcher;
import io.aigw.runtime.exchange.Endpoint;
import io.aigw.runtime.exchange.Exchange;
import io.aigw.runtime.routing.RoutingTable;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

/**
 * {@code POST /api/v1/embeddings}, in OpenAI's wire format: reads and validates the body into an
 * {@link Exchange} and hands it to the {@link Dispatcher}, as chat completions do. An embedding
 * writes no tokens, so the exchange's output is none: its key's {@code tpm} counts its input alone.
 */
public final class EmbeddingsService implements HttpService {
    private final Dispatcher dispatcher;
    private final RequestAdmission admission;

    /** @param admission the room every endpoint's requests share */
    public EmbeddingsService(Dispatcher dispatcher, RequestAdmission admission) {
        this.dispatcher = dispatcher;
        this.admission = admission;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.post("/", (request, response) ->
                admission.withBody(Endpoint.EMBEDDINGS, request, response, this::create));
    }

    private void create(ServerRequest request, ServerResponse response, byte[] body, long started) {
        EmbeddingsRequest embeddings = EmbeddingsRequestReader.read(body);
        if (embeddings.model().equals(RoutingTable.AUTO_MODEL)) {
            // gateway/auto picks among the providers' default models, which are chat models; and two
            // embedding models' vectors cannot be compared, so no chain could fall back between them.
            throw RequestObject.invalid("model", "'" + RoutingTable.AUTO_MODEL + "' picks a chat model and"
                    + " cannot embed; name an embedding model, such as \"openai/text-embedding-3-small\""
                    + " (GET /api/v1/models lists each model's kind).");
        }
        RequestSession.register(request, embeddings.session());
        dispatcher.dispatch(RequestContext.exchange(Endpoint.EMBEDDINGS, request, RequestContext.caller(request),
                embeddings.model(), 0, body, embeddings, started), response);
    }
}

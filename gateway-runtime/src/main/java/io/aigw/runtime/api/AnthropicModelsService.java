package io.aigw.runtime.api;

import io.aigw.runtime.auth.Caller;
import io.aigw.runtime.error.ApiError;
import io.aigw.runtime.error.ApiException;
import io.aigw.runtime.error.Jsons;
import io.aigw.runtime.plugin.ModelEntry;
import io.aigw.runtime.plugin.Provider;
import io.aigw.runtime.routing.CurrentRoutes;
import io.aigw.runtime.routing.Destination;
import io.aigw.runtime.routing.Route;
import io.aigw.runtime.routing.RoutingTable;
import io.aigw.runtime.store.KeyPolicy;
import io.aigw.spi.UpstreamApi;
import io.helidon.http.HeaderValues;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /anthropic/v1/models} and {@code GET /anthropic/v1/models/{id}}, in the shape of
 * Anthropic's model list ({@code data} of {@code {type, id, display_name, created_at}},
 * {@code has_more}, {@code first_id}, {@code last_id}): the models of the providers that serve the
 * Messages API, each id as a Messages request names it (the Messages API's home's without a
 * prefix, as Claude Code sends them); for a key with a {@code models} policy, only those it allows.
 * The whole list is one page.
 */
public final class AnthropicModelsService implements HttpService {
    private final CurrentRoutes routes;
    private volatile Listed listed;

    public AnthropicModelsService(CurrentRoutes routes) {
        this.routes = routes;
    }

    /** The models of one routing table, by id, in order. */
    private record Listed(RoutingTable table, Map<String, Model> models) {
    }

    /**
     * One model as listed, and the id a key's allow-list may name it by besides: with its provider's
     * prefix, as on the OpenAI surface.
     */
    private record Model(JsonObject json, String prefixedId) {
        boolean allowedBy(KeyPolicy policy) {
            return policy.allows(json.getString("id")) || policy.allows(prefixedId);
        }
    }

    @Override
    public void routing(HttpRules rules) {
        rules.get("/", this::list);
        rules.get("/{+id}", this::retrieve);
    }

    private void list(ServerRequest request, ServerResponse response) {
        KeyPolicy policy = policy(request);
        JsonArrayBuilder data = Jsons.PROVIDER.createArrayBuilder();
        List<String> ids = new ArrayList<>();
        current().models().forEach((id, model) -> {
            if (model.allowedBy(policy)) {
                data.add(model.json());
                ids.add(id);
            }
        });
        var page = Jsons.PROVIDER.createObjectBuilder().add("data", data).add("has_more", false);
        if (ids.isEmpty()) {
            page.addNull("first_id").addNull("last_id");
        } else {
            page.add("first_id", ids.get(0)).add("last_id", ids.get(ids.size() - 1));
        }
        send(response, page.build());
    }

    private void retrieve(ServerRequest request, ServerResponse response) {
        String id = request.path().pathParameters().get("id");
        Model model = current().models().get(id);
        // A model the key may not use is not in its list, so it is not found either.
        if (model == null || !model.allowedBy(policy(request))) {
            String shown = id.length() > 100 ? id.substring(0, 100) + "..." : id;
            throw new ApiException(new ApiError(Status.NOT_FOUND_404, "The model '" + shown + "' does not exist:"
                    + " GET /anthropic/v1/models lists the models this key may use.", "invalid_request_error",
                    "model", "model_not_found"));
        }
        send(response, model.json());
    }

    private Listed current() {
        RoutingTable table = routes.current().table();
        Listed answer = listed;
        if (answer == null || answer.table() != table) {
            answer = new Listed(table, models(table));
            listed = answer;
        }
        return answer;
    }

    private static Map<String, Model> models(RoutingTable table) {
        Map<String, Model> models = new LinkedHashMap<>();
        for (Provider provider : table.byPriority()) {
            if (!provider.serves(UpstreamApi.MESSAGES)) {
                continue;
            }
            String created = Instant.ofEpochSecond(provider.modelsCreated()).toString();
            boolean home = provider.homeFor().contains(UpstreamApi.MESSAGES);
            for (ModelEntry model : provider.catalogue()) {
                String id = home ? model.id() : provider.publicId(model.id());
                if (reaches(table, id, provider, model)) {
                    models.putIfAbsent(id, new Model(Jsons.PROVIDER.createObjectBuilder().add("type", "model")
                            .add("id", id).add("display_name", model.name()).add("created_at", created).build(),
                            provider.publicId(model.id())));
                }
            }
        }
        return models;
    }

    /** Whether a Messages request for {@code id} reaches this provider's {@code model}. */
    private static boolean reaches(RoutingTable table, String id, Provider provider, ModelEntry model) {
        try {
            Destination destination = table.destination(id, UpstreamApi.MESSAGES);
            return destination instanceof Route route && route.provider() == provider
                    && route.upstreamModel().equals(model.id());
        } catch (ApiException e) {
            return false;
        }
    }

    private static KeyPolicy policy(ServerRequest request) {
        return request.context().get(Caller.class).map(Caller::policy).orElse(KeyPolicy.NONE);
    }

    private static void send(ServerResponse response, JsonObject document) {
        response.header(HeaderValues.CONTENT_TYPE_JSON);
        response.send(document.toString().getBytes(StandardCharsets.UTF_8));
    }
}

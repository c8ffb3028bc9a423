package io.aigw.runtime.api;

import io.aigw.runtime.auth.Caller;
import io.aigw.runtime.error.ApiException;
import io.aigw.runtime.error.Jsons;
import io.aigw.runtime.plugin.ModelEntry;
import io.aigw.runtime.plugin.Provider;
import io.aigw.runtime.routing.CurrentRoutes;
import io.aigw.runtime.routing.Route;
import io.aigw.runtime.routing.RoutingTable;
import io.aigw.runtime.store.KeyPolicy;
import io.helidon.http.HeaderValues;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import jakarta.json.bind.annotation.JsonbPropertyOrder;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code GET /api/v1/models}: {@code gateway/auto} first, then every installed provider's catalogue
 * in priority order, each id as a caller writes it; for a key with a {@code models} policy, only
 * those it allows. The catalogue changes only when a plugin reload
 * swaps the routing table, so the answer is rendered once per table.
 */
public final class ModelsService implements HttpService {
    private static final System.Logger LOG = System.getLogger(ModelsService.class.getName());

    private final CurrentRoutes routes;
    private final String gatewayLabel;
    private volatile Rendered rendered;

    public ModelsService(CurrentRoutes routes, String gatewayLabel) {
        this.routes = routes;
        this.gatewayLabel = gatewayLabel;
    }

    /** The answer for one routing table: its models, and the whole list as JSON. */
    private record Rendered(RoutingTable table, List<ListedModel> models, byte[] body) {
    }

    /** The answer: {@code {"data":[...]}}, as OpenAI's model list. */
    public record ModelList(List<ListedModel> data) {
    }

    /** A model as callers see it, {@code id} with the prefix that routes to it. */
    @JsonbPropertyOrder({"id", "name", "contextLength", "ownedBy"})
    public record ListedModel(String id, String name, long contextLength, String ownedBy) {
    }

    @Override
    public void routing(HttpRules rules) {
        rules.get("/", this::list);
    }

    private void list(ServerRequest request, ServerResponse response) {
        RoutingTable table = routes.current().table();
        Rendered answer = rendered;
        if (answer == null || answer.table() != table) {
            List<ListedModel> models = models(table, gatewayLabel);
            answer = new Rendered(table, models, json(models));
            rendered = answer;
        }
        KeyPolicy policy = request.context().get(Caller.class).map(Caller::policy).orElse(KeyPolicy.NONE);
        response.header(HeaderValues.CONTENT_TYPE_JSON);
        // A key with an allow-list sees only the models it may use.
        response.send(policy.models().isEmpty() ? answer.body()
                : json(answer.models().stream().filter(model -> policy.allows(model.id())).toList()));
    }

    private static byte[] json(List<ListedModel> models) {
        return Jsons.BINDING.toJson(new ModelList(models)).getBytes(StandardCharsets.UTF_8);
    }

    private static List<ListedModel> models(RoutingTable routing, String gatewayLabel) {
        List<Provider> providers = routing.byPriority();
        List<ListedModel> data = new ArrayList<>();
        data.add(new ListedModel(RoutingTable.AUTO_MODEL, "Auto: the first available provider's default model",
                autoContextLength(providers), gatewayLabel));
        for (Provider provider : providers) {
            for (ModelEntry model : provider.catalogue()) {
                String id = provider.publicId(model.id());
                if (reaches(routing, id, provider, model)) {
                    data.add(new ListedModel(id, model.name(), model.contextLength(), model.ownedBy()));
                } else {
                    LOG.log(Level.WARNING, "The model '" + id + "' of provider " + provider.name() + " is left out"
                            + " of /api/v1/models: a request for it would not reach " + provider.name() + ".");
                }
            }
        }
        return List.copyOf(data);
    }

    /**
     * Whether asking for {@code id} reaches this provider's {@code model}. A catch-all's catalogue
     * (or one configured under {@code providers.<name>.models}) may hold an id such as
     * {@code anthropic/claude-sonnet-4-5} whose prefix another provider claims: listed, it would
     * name a model that another provider serves, and appear twice when that one lists it too.
     */
    private static boolean reaches(RoutingTable routing, String id, Provider provider, ModelEntry model) {
        try {
            Route route = routing.route(id);
            return route.provider() == provider && route.upstreamModel().equals(model.id());
        } catch (ApiException e) {
            return false;
        }
    }

    /** The smallest context of the models auto may pick: a prompt that fits it fits any of them. */
    private static long autoContextLength(List<Provider> providers) {
        return providers.stream()
                .flatMap(provider -> provider.catalogue().stream()
                        .filter(model -> model.id().equals(provider.defaultModel())))
                .mapToLong(ModelEntry::contextLength)
                .min()
                .orElse(0);
    }
}

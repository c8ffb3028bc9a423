package io.aigw.runtime.api;

import io.aigw.runtime.auth.Caller;
import io.aigw.runtime.catalogue.UpstreamCatalogues;
import io.aigw.runtime.catalogue.UpstreamModels;
import io.aigw.runtime.config.Aliases;
import io.aigw.runtime.config.ModelKind;
import io.aigw.runtime.error.ApiError;
import io.aigw.runtime.error.ApiException;
import io.aigw.runtime.error.Jsons;
import io.aigw.runtime.exchange.ModelAccess;
import io.aigw.runtime.plugin.ModelEntry;
import io.aigw.runtime.plugin.Provider;
import io.aigw.runtime.routing.CurrentRoutes;
import io.aigw.runtime.routing.Route;
import io.aigw.runtime.routing.RoutingTable;
import io.aigw.runtime.store.KeyPolicy;
import io.helidon.http.HeaderValues;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import jakarta.json.bind.annotation.JsonbPropertyOrder;
import java.lang.System.Logger.Level;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code GET /api/v1/models}: {@code gateway/auto} first, then every installed provider's catalogue
 * in priority order, each id as a caller writes it; for a key with a {@code models} policy, only
 * those it allows. {@code GET /api/v1/models/{id}} answers one of them, the id taken whole from the
 * rest of the path (ids hold slashes: {@code openrouter/anthropic/claude-sonnet-4.5}), written
 * as it is or with its slashes encoded ({@code %2F}), as the OpenAI SDKs write it. Both in OpenAI's
 * shape, with the gateway's own members beside OpenAI's. The catalogue changes only when a plugin
 * reload swaps the routing table or an upstream's model list changes ({@link UpstreamCatalogues}:
 * what the upstream no longer lists is left out, what it lists beyond the catalogue is added), so
 * the answer is rendered once per table and lists.
 */
public final class ModelsService implements HttpService {
    private static final System.Logger LOG = System.getLogger(ModelsService.class.getName());
    /** {@code gateway/auto}'s {@code created}: it is the gateway's own model, there since it started. */
    private static final long GATEWAY_STARTED = ManagementFactory.getRuntimeMXBean().getStartTime() / 1000;

    private final CurrentRoutes routes;
    private final UpstreamCatalogues catalogues;
    private final String gatewayLabel;
    private volatile Rendered rendered;

    public ModelsService(CurrentRoutes routes, UpstreamCatalogues catalogues, String gatewayLabel) {
        this.routes = routes;
        this.catalogues = catalogues;
        this.gatewayLabel = gatewayLabel;
    }

    /** The answer for one routing table: its models by id, in order, and the whole list as JSON. */
    private record Rendered(RoutingTable table, long lists, Map<String, ListedModel> models, byte[] body) {
    }

    /** The answer: {@code {"object":"list","data":[...]}}, as OpenAI's model list. */
    @JsonbPropertyOrder({"object", "data"})
    public record ModelList(String object, List<ListedModel> data) {
        ModelList(List<ListedModel> data) {
            this("list", data);
        }
    }

    /**
     * A model as callers see it: OpenAI's members ({@code id} with the prefix that routes to it,
     * {@code object}, {@code created}, {@code owned_by}), then the gateway's, {@code kind} saying
     * whether it chats or embeds ({@code chat}, {@code embedding}).
     */
    @JsonbPropertyOrder({"id", "object", "created", "ownedBy", "name", "contextLength", "kind"})
    public record ListedModel(String id, String object, long created, String ownedBy, String name,
                              long contextLength, String kind) {
        ListedModel(String id, long created, String ownedBy, String name, long contextLength, ModelKind kind) {
            this(id, "model", created, ownedBy, name, contextLength, kind.label());
        }
    }

    @Override
    public void routing(HttpRules rules) {
        rules.get("/", this::list);
        rules.get("/{+id}", this::retrieve);
    }

    private void list(ServerRequest request, ServerResponse response) {
        Rendered answer = current();
        KeyPolicy policy = policy(request);
        response.header(HeaderValues.CONTENT_TYPE_JSON);
        // A key with an allow-list sees only the models it may use.
        response.send(policy.models().isEmpty() ? answer.body()
                : json(new ModelList(answer.models().values().stream()
                .filter(model -> ModelAccess.allows(policy, answer.table(), model.id())).toList())));
    }

    private void retrieve(ServerRequest request, ServerResponse response) {
        String id = request.path().pathParameters().get("id");
        Rendered answer = current();
        ListedModel model = answer.models().get(id);
        // A model the key may not use is not in its list, so it is not found either.
        if (model == null || !ModelAccess.allows(policy(request), answer.table(), id)) {
            throw new ApiException(notListed(id));
        }
        response.header(HeaderValues.CONTENT_TYPE_JSON);
        response.send(json(model));
    }

    private Rendered current() {
        RoutingTable table = routes.current().table();
        // Read before the lists, so that a change while they are read renders again next time.
        long lists = catalogues.version();
        Rendered answer = rendered;
        if (answer == null || answer.table() != table || answer.lists() != lists) {
            Map<String, ListedModel> models = new LinkedHashMap<>();
            models(table, catalogues, gatewayLabel).forEach(model -> models.put(model.id(), model));
            answer = new Rendered(table, lists, Collections.unmodifiableMap(models),
                    json(new ModelList(List.copyOf(models.values()))));
            rendered = answer;
        }
        return answer;
    }

    private static KeyPolicy policy(ServerRequest request) {
        return request.context().get(Caller.class).map(Caller::policy).orElse(KeyPolicy.NONE);
    }

    private static ApiError notListed(String id) {
        String shown = id.length() > 100 ? id.substring(0, 100) + "..." : id;
        return new ApiError(Status.NOT_FOUND_404, "The model '" + shown + "' does not exist: GET /api/v1/models"
                + " lists the models this key may use.", "invalid_request_error", "model", "model_not_found");
    }

    private static byte[] json(Object document) {
        return Jsons.BINDING.toJson(document).getBytes(StandardCharsets.UTF_8);
    }

    private static List<ListedModel> models(RoutingTable routing, UpstreamCatalogues catalogues,
                                            String gatewayLabel) {
        List<Provider> providers = routing.byPriority();
        List<ListedModel> data = new ArrayList<>();
        data.add(new ListedModel(RoutingTable.AUTO_MODEL, GATEWAY_STARTED, gatewayLabel,
                "Auto: the first available provider's default model", autoContextLength(providers), ModelKind.CHAT));
        routing.aliases().targets().forEach((alias, targets) -> data.add(new ListedModel(alias, GATEWAY_STARTED,
                gatewayLabel, "Alias of " + aliasOf(targets),
                aliasContextLength(routing, routing.aliases().models(alias)),
                aliasKind(routing, routing.aliases().models(alias)))));
        for (Provider provider : providers) {
            Optional<UpstreamModels> listed = catalogues.listed(provider);
            for (ModelEntry model : provider.catalogue()) {
                if (catalogues.withdrawn(provider, model.id())) {
                    continue;
                }
                String id = provider.publicId(model.id());
                if (reaches(routing, id, provider, model)) {
                    data.add(new ListedModel(id, provider.modelsCreated(), model.ownedBy(), model.name(),
                            model.contextLength(), model.kind()));
                } else {
                    LOG.log(Level.WARNING, "The model '" + id + "' of provider " + provider.name() + " is left out"
                            + " of /api/v1/models: a request for it would not reach " + provider.name() + ".");
                }
            }
            listed.ifPresent(models -> data.addAll(unpriced(routing, provider, models)));
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

    /**
     * The models the provider's upstream lists beyond its catalogue, by id: listed as they are
     * routed, named by their id, with no context length or price known.
     */
    private static List<ListedModel> unpriced(RoutingTable routing, Provider provider, UpstreamModels listed) {
        Set<String> known = new HashSet<>();
        provider.catalogue().forEach(model -> known.add(model.id()));
        List<ListedModel> added = new ArrayList<>();
        listed.ids().stream().filter(id -> !known.contains(id)).sorted().forEach(id -> {
            ModelEntry entry = new ModelEntry(id, id, 0, provider.name());
            if (reaches(routing, provider.publicId(id), provider, entry)) {
                // The upstream's list says nothing of a model's kind: chat, the catalogue's default.
                added.add(new ListedModel(provider.publicId(id), provider.modelsCreated(), provider.name(), id, 0,
                        ModelKind.CHAT));
            }
        });
        return added;
    }

    /** An alias's models as its listing names them: in order, with their weights when it splits by weight. */
    private static String aliasOf(List<Aliases.Target> targets) {
        boolean split = targets.stream().anyMatch(target -> target.weight() > 0);
        return String.join(split ? ", " : ", then ", targets.stream()
                .map(target -> split ? target.model() + " (weight " + target.weight() + ")" : target.model()).toList());
    }

    /** The smallest context of an alias's models (0 when one is not catalogued): a prompt that fits it fits any. */
    private static long aliasContextLength(RoutingTable routing, List<String> targets) {
        long smallest = Long.MAX_VALUE;
        for (String target : targets) {
            Route route = routing.route(target);
            smallest = Math.min(smallest, route.provider().catalogue().stream()
                    .filter(model -> model.id().equals(route.upstreamModel()))
                    .mapToLong(ModelEntry::contextLength).findFirst().orElse(0));
        }
        return smallest;
    }

    /** An alias's kind: its first model's, as the catalogue says; chat where it says nothing. */
    private static ModelKind aliasKind(RoutingTable routing, List<String> targets) {
        Route route = routing.route(targets.get(0));
        return route.provider().catalogue().stream().filter(model -> model.id().equals(route.upstreamModel()))
                .map(ModelEntry::kind).findFirst().orElse(ModelKind.CHAT);
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

package io.aigw.runtime.api;

import io.aigw.runtime.plugin.ModelEntry;
import io.aigw.runtime.plugin.Provider;
import io.aigw.runtime.routing.RoutingTable;
import io.helidon.http.HeaderValues;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * {@code GET /api/v1/models}: {@code gateway/auto} first, then every installed provider's catalogue
 * in priority order, each id as a caller writes it. The catalogue is fixed at startup, so the
 * answer is rendered once.
 */
public final class ModelsService implements HttpService {
    private final byte[] body;

    public ModelsService(RoutingTable routing, String gatewayLabel) {
        this.body = render(routing.byPriority(), gatewayLabel);
    }

    @Override
    public void routing(HttpRules rules) {
        rules.get("/", this::list);
    }

    private void list(ServerRequest request, ServerResponse response) {
        response.header(HeaderValues.CONTENT_TYPE_JSON);
        response.send(body);
    }

    private static byte[] render(List<Provider> providers, String gatewayLabel) {
        JsonArrayBuilder data = Json.createArrayBuilder();
        data.add(entry(RoutingTable.AUTO_MODEL, "Auto: the first available provider's default model",
                autoContextLength(providers), gatewayLabel));
        for (Provider provider : providers) {
            for (ModelEntry model : provider.catalogue()) {
                data.add(entry(provider.publicId(model.id()), model.name(), model.contextLength(), model.ownedBy()));
            }
        }
        return Json.createObjectBuilder().add("data", data).build().toString().getBytes(StandardCharsets.UTF_8);
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

    private static jakarta.json.JsonObject entry(String id, String name, long contextLength, String ownedBy) {
        return Json.createObjectBuilder()
                .add("id", id)
                .add("name", name)
                .add("context_length", contextLength)
                .add("owned_by", ownedBy)
                .build();
    }
}

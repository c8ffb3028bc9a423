package io.aigw.runtime.admin;

import io.aigw.runtime.error.ApiError;
import io.aigw.runtime.error.ApiException;
import io.aigw.runtime.store.GatewayStore;
import io.aigw.runtime.store.UsageTotals;
import io.helidon.http.HeaderValues;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * {@code GET /admin/v1/usage?from=&to=}: requests and tokens per key and per model. {@code from} and
 * {@code to} are unix seconds or ISO-8601 instants; by default the last 24 hours.
 */
public final class AdminUsageService implements HttpService {
    private static final Instant EARLIEST = Instant.ofEpochMilli(Long.MIN_VALUE);
    private static final Instant LATEST = Instant.ofEpochMilli(Long.MAX_VALUE);
    private final GatewayStore store;

    public AdminUsageService(GatewayStore store) {
        this.store = store;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.get("/", this::totals);
    }

    private void totals(ServerRequest request, ServerResponse response) {
        Instant to = instant(request, "to").orElseGet(Instant::now);
        Instant from = instant(request, "from").orElseGet(() -> latest(EARLIEST, to.minus(Duration.ofDays(1))));
        if (!from.isBefore(to)) {
            throw new ApiException(ApiError.invalidRequest("from", "'from' must be before 'to'."));
        }
        response.header(HeaderValues.CONTENT_TYPE_JSON);
        response.send(Json.createObjectBuilder()
                .add("from", from.getEpochSecond())
                .add("to", to.getEpochSecond())
                .add("by_key", render(store.usageByKey(from, to), "key_id"))
                .add("by_model", render(store.usageByModel(from, to), "model"))
                .build().toString());
    }

    private static JsonArrayBuilder render(List<UsageTotals> totals, String groupName) {
        JsonArrayBuilder array = Json.createArrayBuilder();
        for (UsageTotals total : totals) {
            array.add(Json.createObjectBuilder()
                    .add(groupName, total.group())
                    .add("requests", total.requests())
                    .add("prompt_tokens", total.promptTokens())
                    .add("completion_tokens", total.completionTokens())
                    .add("total_tokens", total.totalTokens()));
        }
        return array;
    }

    /**
     * Unix seconds or an ISO-8601 instant between {@link #EARLIEST} and {@link #LATEST}: the store
     * counts time in milliseconds since 1970 in a {@code long}, which a later instant would overflow.
     */
    private static Optional<Instant> instant(ServerRequest request, String name) {
        return request.query().first(name).asOptional().map(text -> {
            Instant instant;
            try {
                instant = text.chars().allMatch(Character::isDigit) ? Instant.ofEpochSecond(Long.parseLong(text))
                        : Instant.parse(text);
            } catch (DateTimeException | NumberFormatException e) {
                throw new ApiException(ApiError.invalidRequest(name, "'" + name + "' must be unix seconds or an"
                        + " ISO-8601 instant such as 2026-01-31T00:00:00Z."));
            }
            if (instant.isBefore(EARLIEST) || instant.isAfter(LATEST)) {
                throw new ApiException(ApiError.invalidRequest(name, "'" + name + "' must be between " + EARLIEST
                        + " and " + LATEST + "."));
            }
            return instant;
        });
    }

    private static Instant latest(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }
}

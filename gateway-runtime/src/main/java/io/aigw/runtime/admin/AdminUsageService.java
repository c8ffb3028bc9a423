package io.aigw.runtime.admin;

import io.aigw.runtime.error.ApiError;
import io.aigw.runtime.error.ApiException;
import io.aigw.runtime.store.GatewayStore;
import io.aigw.runtime.store.UsageTotals;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import jakarta.json.bind.annotation.JsonbPropertyOrder;
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

    /** The answer: the period in unix seconds, then the sums by key and by requested model, most tokens first. */
    @JsonbPropertyOrder({"from", "to", "byKey", "byModel"})
    public record UsageReport(long from, long to, List<KeyUsage> byKey, List<ModelUsage> byModel) {
    }

    /** One key's sums. */
    @JsonbPropertyOrder({"keyId", "requests", "promptTokens", "completionTokens", "totalTokens"})
    public record KeyUsage(String keyId, long requests, long promptTokens, long completionTokens, long totalTokens) {
        static KeyUsage of(UsageTotals totals) {
            return new KeyUsage(totals.group(), totals.requests(), totals.promptTokens(), totals.completionTokens(),
                    totals.totalTokens());
        }
    }

    /** One requested model's sums. */
    @JsonbPropertyOrder({"model", "requests", "promptTokens", "completionTokens", "totalTokens"})
    public record ModelUsage(String model, long requests, long promptTokens, long completionTokens, long totalTokens) {
        static ModelUsage of(UsageTotals totals) {
            return new ModelUsage(totals.group(), totals.requests(), totals.promptTokens(),
                    totals.completionTokens(), totals.totalTokens());
        }
    }

    private void totals(ServerRequest request, ServerResponse response) {
        Instant to = instant(request, "to").orElseGet(Instant::now);
        Instant from = instant(request, "from").orElseGet(() -> latest(EARLIEST, to.minus(Duration.ofDays(1))));
        if (!from.isBefore(to)) {
            throw new ApiException(ApiError.invalidRequest("from", "'from' must be before 'to'."));
        }
        JsonBodies.send(response, Status.OK_200, new UsageReport(from.getEpochSecond(), to.getEpochSecond(),
                store.usageByKey(from, to).stream().map(KeyUsage::of).toList(),
                store.usageByModel(from, to).stream().map(ModelUsage::of).toList()));
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

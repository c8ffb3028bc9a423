package io.aigw.runtime.admin;

import io.aigw.runtime.auth.Caller;
import io.aigw.runtime.pricing.Usd;
import io.aigw.runtime.store.GatewayStore;
import io.aigw.runtime.store.StoredKey;
import io.aigw.runtime.store.UsageQuery;
import io.aigw.runtime.store.UsageRow;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import jakarta.json.bind.annotation.JsonbPropertyOrder;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code GET /console/api/self}: what the signed-in key may read of itself, any key, admin or not: its policies and
 * spend against its budget as {@code GET /admin/v1/keys/{id}} shows them, and its usage per day over
 * the last 30 days. The caller is the one the console's session gate registered.
 */
public final class OwnKeyService implements HttpService {
    static final int DAYS = 30;

    private final GatewayStore store;
    private final Clock clock;

    public OwnKeyService(GatewayStore store) {
        this.store = store;
        this.clock = Clock.systemUTC();
    }

    /**
     * The answer.
     *
     * @param key   the key as the admin API lists it; null for the master key, which the store does not hold
     * @param usage its usage per day, the last 30 days, today included
     */
    @JsonbPropertyOrder({"key", "usage"})
    public record OwnKey(AdminKeysService.ListedKey key, AdminUsageService.UsageReport usage) {
    }

    @Override
    public void routing(HttpRules rules) {
        rules.get("/", this::show);
    }

    private void show(ServerRequest request, ServerResponse response) {
        Caller caller = request.context().get(Caller.class).orElseThrow();
        Optional<StoredKey> key = store.listKeys().stream().filter(stored -> stored.id().equals(caller.keyId()))
                .findFirst();
        LocalDate today = LocalDate.now(clock);
        UsageQuery query = new UsageQuery(today.minusDays(DAYS - 1), today, Set.of(UsageQuery.Dimension.DAY),
                Optional.of(caller.keyId()));
        List<UsageRow> rows = store.usage(query);
        UsageRow totals = rows.stream().reduce(UsageRow.NONE, UsageRow::plus);
        JsonBodies.send(response, Status.OK_200, new OwnKey(
                key.map(stored -> AdminKeysService.ListedKey.of(stored, this::spent)).orElse(null),
                new AdminUsageService.UsageReport(query.from().toString(), query.to().toString(), List.of("day"),
                        caller.keyId(), AdminUsageService.Row.of(totals),
                        rows.stream().map(AdminUsageService.Row::of).toList())));
    }

    private Usd spent(StoredKey key) {
        return store.spentSince(key.id(), key.policy().period().start(Instant.now()));
    }
}

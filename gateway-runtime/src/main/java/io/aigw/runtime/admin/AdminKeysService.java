package io.aigw.runtime.admin;

import io.aigw.runtime.auth.StoredKeys;
import io.aigw.runtime.error.ApiError;
import io.aigw.runtime.error.ApiException;
import io.aigw.runtime.pricing.Usd;
import io.aigw.runtime.store.GatewayStore;
import io.aigw.runtime.store.KeyPolicy;
import io.aigw.runtime.store.StoredKey;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import jakarta.json.JsonValue;
import jakarta.json.bind.annotation.JsonbPropertyOrder;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.function.Function;

/**
 * {@code /admin/v1/keys}: issue ({@code POST}), list ({@code GET}), show ({@code GET /{id}}), change
 * the policies of ({@code PATCH /{id}}) and revoke ({@code DELETE /{id}}) workspace keys. Only admin
 * keys get here (see the auth filter). A key's text appears once, in the answer that creates it.
 * Bodies are records, read and written as {@link JsonBodies} says; policies as {@link PolicyMembers} says.
 */
public final class AdminKeysService implements HttpService {
    private static final String EXAMPLE = "{\"name\": \"billing-service\"}";
    private static final String PATCH_EXAMPLE = "{\"rpm\": 60, \"models\": [\"openai/*\"], \"budget_usd\": 20,"
            + " \"budget_period\": \"month\"}";
    private static final String NAME_RULE = "'name' must be a non-empty string of at most " + KeyIssuer.MAX_NAME
            + " characters, without control or bidirectional formatting characters.";
    private static final String ADMIN_RULE = "'admin' must be true or false.";

    private final GatewayStore store;
    private final KeyIssuer issuer;
    private final StoredKeys keys;

    public AdminKeysService(GatewayStore store, StoredKeys keys) {
        this.store = store;
        this.issuer = new KeyIssuer(store);
        this.keys = keys;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.post("/", this::create)
                .get("/", this::list)
                .get("/{id}", this::show)
                .patch("/{id}", this::change)
                .delete("/{id}", this::revoke);
    }

    /** The body of {@code POST /admin/v1/keys}: a name, and optionally admin rights and policies. */
    public record NewKey(String name, Boolean admin, JsonValue models, Long expiresAt, Long rpm, Long tpm,
                         JsonValue budgetUsd, String budgetPeriod) {
    }

    /** The body of {@code PATCH /admin/v1/keys/{id}}: the policies to set (a value) or clear ({@code null}). */
    public record PolicyChange(JsonValue models, Long expiresAt, Long rpm, Long tpm, JsonValue budgetUsd,
                               String budgetPeriod) {
    }

    /** The answer to {@code POST /admin/v1/keys}: the only place the key's text ever appears. */
    @JsonbPropertyOrder({"id", "name", "key", "admin", "createdAt", "models", "expiresAt", "rpm", "tpm", "budgetUsd",
            "budgetPeriod"})
    public record CreatedKey(String id, String name, String key, boolean admin, long createdAt, List<String> models,
                             Long expiresAt, Long rpm, Long tpm, BigDecimal budgetUsd, String budgetPeriod) {
    }

    /** The answer to {@code GET /admin/v1/keys}. */
    public record KeyList(List<ListedKey> data) {
    }

    /**
     * A key without its text; times in unix seconds, {@code revokedAt} null while it works, each
     * policy null where the key has none. A key with a budget shows what its usage records say it
     * spent in the current period ({@code spentUsd}, answers in flight not yet counted) and what is
     * left of the budget ({@code remainingUsd}, never below 0); both null without a budget.
     */
    @JsonbPropertyOrder({"id", "name", "admin", "createdAt", "revokedAt", "models", "expiresAt", "rpm", "tpm",
            "budgetUsd", "budgetPeriod", "spentUsd", "remainingUsd"})
    public record ListedKey(String id, String name, boolean admin, long createdAt, Long revokedAt,
                            List<String> models, Long expiresAt, Long rpm, Long tpm, BigDecimal budgetUsd,
                            String budgetPeriod, BigDecimal spentUsd, BigDecimal remainingUsd) {
        /** @param spent what the key spent in its budget's current period; read only for a key with a budget */
        static ListedKey of(StoredKey key, Function<StoredKey, Usd> spent) {
            KeyPolicy policy = key.policy();
            Usd used = policy.budget().isPresent() ? spent.apply(key) : null;
            return new ListedKey(key.id(), key.name(), key.admin(), key.createdAt().getEpochSecond(),
                    key.revokedAt().map(Instant::getEpochSecond).orElse(null),
                    policy.models().isEmpty() ? null : policy.models(),
                    policy.expiresAt().map(Instant::getEpochSecond).orElse(null),
                    policy.rpm().isPresent() ? policy.rpm().getAsLong() : null,
                    policy.tpm().isPresent() ? policy.tpm().getAsLong() : null,
                    policy.budget().map(Usd::shortestDollars).orElse(null),
                    policy.budget().map(usd -> policy.period().label()).orElse(null),
                    used == null ? null : used.shortestDollars(),
                    used == null ? null : policy.budget().get().leftAfter(used).shortestDollars());
        }
    }

    /** What {@code key} spent in its budget's current period, by its usage records. */
    private Usd spent(StoredKey key) {
        return store.spentSince(key.id(), key.policy().period().start(Instant.now()));
    }

    private void create(ServerRequest request, ServerResponse response) {
        JsonBodies.Read<NewKey> body = JsonBodies.readWithMembers(bytes(request), NewKey.class, EXAMPLE,
                AdminKeysService::createRule);
        NewKey asked = body.value();
        String name = asked.name() == null ? "" : asked.name().strip();
        if (!KeyIssuer.isValidName(name)) {
            throw new ApiException(ApiError.invalidRequest("name", NAME_RULE));
        }
        KeyPolicy policy = PolicyMembers.apply(KeyPolicy.NONE, body.members(), asked.models(), asked.expiresAt(),
                asked.rpm(), asked.tpm(), asked.budgetUsd(), asked.budgetPeriod());
        KeyIssuer.IssuedKey issued = issuer.issue(name, Boolean.TRUE.equals(asked.admin()), policy);
        ListedKey shown = ListedKey.of(issued.stored(), key -> Usd.ZERO);
        JsonBodies.send(response, Status.CREATED_201, new CreatedKey(shown.id(), shown.name(), issued.key(),
                shown.admin(), shown.createdAt(), shown.models(), shown.expiresAt(), shown.rpm(), shown.tpm(),
                shown.budgetUsd(), shown.budgetPeriod()));
    }

    private void list(ServerRequest request, ServerResponse response) {
        JsonBodies.send(response, Status.OK_200, new KeyList(store.listKeys().stream()
                .map(key -> ListedKey.of(key, this::spent)).toList()));
    }

    private void show(ServerRequest request, ServerResponse response) {
        String id = request.path().pathParameters().get("id");
        StoredKey key = store.listKeys().stream().filter(stored -> stored.id().equals(id)).findFirst()
                .orElseThrow(() -> notFound(id));
        JsonBodies.send(response, Status.OK_200, ListedKey.of(key, this::spent));
    }

    private void change(ServerRequest request, ServerResponse response) {
        String id = request.path().pathParameters().get("id");
        JsonBodies.Read<PolicyChange> body = JsonBodies.readWithMembers(bytes(request), PolicyChange.class,
                PATCH_EXAMPLE, PolicyMembers::rule);
        StoredKey key = store.listKeys().stream().filter(stored -> stored.id().equals(id)).findFirst()
                .orElseThrow(() -> notFound(id));
        PolicyChange change = body.value();
        KeyPolicy policy = PolicyMembers.apply(key.policy(), body.members(), change.models(), change.expiresAt(),
                change.rpm(), change.tpm(), change.budgetUsd(), change.budgetPeriod());
        StoredKey changed = store.updatePolicy(id, policy).orElseThrow(() -> notFound(id));
        // Other replicas apply it within the key cache time; this one at once.
        keys.forgetCached();
        JsonBodies.send(response, Status.OK_200, ListedKey.of(changed, this::spent));
    }

    private void revoke(ServerRequest request, ServerResponse response) {
        String id = request.path().pathParameters().get("id");
        if (!store.revokeKey(id)) {
            throw notFound(id);
        }
        // Other replicas notice within the key cache time; this one at once.
        keys.forgetCached();
        response.status(Status.NO_CONTENT_204);
        response.send();
    }

    /** A request's body; a POST or PATCH without one has no entity at all, and asking it for bytes throws. */
    private static byte[] bytes(ServerRequest request) {
        return request.content().hasEntity() ? request.content().as(byte[].class) : new byte[0];
    }

    private static String createRule(String member) {
        return switch (member) {
            case "name" -> NAME_RULE;
            case "admin" -> ADMIN_RULE;
            default -> PolicyMembers.rule(member);
        };
    }

    private static ApiException notFound(String id) {
        return new ApiException(new ApiError(Status.NOT_FOUND_404, "No workspace key has the id '" + id + "'.",
                "invalid_request_error", "id", "key_not_found"));
    }
}

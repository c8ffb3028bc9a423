package io.aigw.runtime.cli;

import io.aigw.runtime.admin.KeyIssuer;
import io.aigw.runtime.store.GatewayStore;
import io.aigw.runtime.store.KeyPolicy;
import io.aigw.runtime.store.StoredKey;
import io.aigw.runtime.text.LogText;
import java.io.PrintStream;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code bin/gateway keys create --name <name> [policies] | update <id> <policies> | list | revoke <id>}:
 * manages workspace keys in the configured store without starting the server. The new key goes
 * alone on a line of standard output, so scripts can capture it; everything else goes to standard error.
 */
public final class KeysCommand {
    public static final int OK = 0;
    public static final int NOT_FOUND = 1;
    public static final int USAGE = 2;
    /** The database could not be reached or written. */
    public static final int STORE_FAILED = 3;
    private static final String HELP = """
            usage: gateway keys create --name <name> [--admin] [policies]
                                                      issue a key (printed once, alone on a line);
                                                      --admin: it may also use the admin API
                   gateway keys update <id> <policies> change a key's policies
                   gateway keys list                   list keys (never their text)
                   gateway keys revoke <id>            revoke a key
            policies: --models <id or pattern,...|all>  the models it may use ('openai/*')
                      --expires <time|never>            2026-12-31T18:00:00Z, 2026-12-31 or unix seconds
                      --rpm <n|none>                    requests a minute
                      --tpm <n|none>                    tokens a minute, prompt and completion
                      --budget <usd|none>               US dollars it may spend in each period (20, 0.5)
                      --period <day|month|none>         the budget's period, UTC; none: the key's life""";

    private final GatewayStore store;
    private final PrintStream out;
    private final PrintStream err;

    public KeysCommand(GatewayStore store, PrintStream out, PrintStream err) {
        this.store = store;
        this.out = out;
        this.err = err;
    }

    /** Runs {@code args} (without the leading {@code keys}) and returns the process exit code. */
    public int run(List<String> args) {
        if (args.isEmpty()) {
            return usage("no command given");
        }
        try {
            return switch (args.get(0)) {
                case "create" -> create(args.subList(1, args.size()));
                case "update" -> args.size() >= 3 ? update(args.get(1), args.subList(2, args.size()))
                        : usage("update takes a key id and at least one policy option");
                case "list" -> args.size() == 1 ? list() : usage("list takes no arguments");
                case "revoke" -> args.size() == 2 ? revoke(args.get(1)) : usage("revoke takes one key id");
                default -> usage("unknown command '" + args.get(0) + "'");
            };
        } catch (PolicyOptions.Mistake e) {
            return usage(e.getMessage());
        }
    }

    private int create(List<String> args) throws PolicyOptions.Mistake {
        Optional<String> name = Optional.empty();
        boolean admin = false;
        PolicyOptions policies = new PolicyOptions();
        for (int i = 0; i < args.size(); i++) {
            String option = args.get(i);
            if (option.equals("--admin")) {
                admin = true;
            } else if (i + 1 < args.size() && option.equals("--name")) {
                name = Optional.of(args.get(++i).strip());
            } else if (i + 1 < args.size() && PolicyOptions.isPolicyOption(option)) {
                policies.read(option, args.get(++i));
            } else {
                return usage("create takes --name <name>, --admin and policy options, not '" + option + "'");
            }
        }
        if (name.isEmpty() || !KeyIssuer.isValidName(name.get())) {
            return usage("create takes --name <name> [--admin]: a name not empty, at most " + KeyIssuer.MAX_NAME
                    + " characters, without control or bidirectional formatting characters");
        }
        KeyIssuer.IssuedKey issued = new KeyIssuer(store).issue(name.get(), admin, policies.applyTo(KeyPolicy.NONE));
        err.println("Created key " + issued.stored().id() + " (" + name.get() + "). It is shown only now:");
        out.println(issued.key());
        return OK;
    }

    private int update(String id, List<String> args) throws PolicyOptions.Mistake {
        PolicyOptions policies = new PolicyOptions();
        for (int i = 0; i < args.size(); i += 2) {
            if (i + 1 >= args.size() || !PolicyOptions.isPolicyOption(args.get(i))) {
                return usage("update takes policy options, not '" + args.get(i) + "'");
            }
            policies.read(args.get(i), args.get(i + 1));
        }
        Optional<StoredKey> key = store.listKeys().stream().filter(stored -> stored.id().equals(id)).findFirst();
        if (key.isEmpty() || store.updatePolicy(id, policies.applyTo(key.get().policy())).isEmpty()) {
            return notFound(id);
        }
        err.println("Updated " + id + ". Running gateways apply it within their key cache time"
                + " (gateway.keys.cache-ttl).");
        return OK;
    }

    private int list() {
        String row = "%-22s %-30s %-5s %-22s %-22s %s%n";
        out.printf(row, "id", "name", "admin", "created", "revoked", "policies");
        for (StoredKey key : store.listKeys()) {
            // A name stored before control and bidi characters were refused must not reorder the table.
            out.printf(row, key.id(), LogText.escaped(key.name()), key.admin() ? "yes" : "no", key.createdAt(),
                    key.revokedAt().map(Instant::toString).orElse("-"), policies(key.policy()));
        }
        return OK;
    }

    private static String policies(KeyPolicy policy) {
        StringBuilder text = new StringBuilder();
        if (!policy.models().isEmpty()) {
            text.append("models=").append(String.join(",", policy.models())).append(' ');
        }
        policy.expiresAt().ifPresent(at -> text.append("expires=").append(at).append(' '));
        policy.rpm().ifPresent(rpm -> text.append("rpm=").append(rpm).append(' '));
        policy.tpm().ifPresent(tpm -> text.append("tpm=").append(tpm).append(' '));
        policy.budget().ifPresent(usd -> text.append("budget=").append(usd.shortestDollars().toPlainString())
                .append("/").append(policy.period().name().toLowerCase(Locale.ROOT)).append(' '));
        return text.isEmpty() ? "-" : text.toString().strip();
    }

    private int revoke(String id) {
        if (!store.revokeKey(id)) {
            return notFound(id);
        }
        err.println("Revoked " + id + ". Running gateways refuse it within their key cache time"
                + " (gateway.keys.cache-ttl).");
        return OK;
    }

    private int notFound(String id) {
        err.println("No key has the id '" + id + "'; see: gateway keys list");
        return NOT_FOUND;
    }

    private int usage(String problem) {
        err.println("gateway keys: " + problem);
        err.println(HELP);
        return USAGE;
    }
}

package io.aigw.runtime.cli;

import io.aigw.runtime.admin.KeyIssuer;
import io.aigw.runtime.store.GatewayStore;
import io.aigw.runtime.store.StoredKey;
import java.io.PrintStream;
import java.time.Instant;
import java.util.List;

/**
 * {@code bin/gateway keys create --name <name> | list | revoke <id>}: manages workspace keys in the
 * configured store without starting the server. The new key goes alone on a line of standard
 * output, so scripts can capture it; everything else goes to standard error.
 */
public final class KeysCommand {
    public static final int OK = 0;
    public static final int NOT_FOUND = 1;
    public static final int USAGE = 2;
    /** The database could not be reached or written. */
    public static final int STORE_FAILED = 3;
    private static final String HELP = """
            usage: gateway keys create --name <name> [--admin]
                                                      issue a key (printed once, alone on a line);
                                                      --admin: it may also use the admin API
                   gateway keys list                   list keys (never their text)
                   gateway keys revoke <id>            revoke a key""";

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
        return switch (args.get(0)) {
            case "create" -> (args.size() == 3 || args.size() == 4 && args.get(3).equals("--admin"))
                    && args.get(1).equals("--name") && KeyIssuer.isValidName(args.get(2).strip())
                    ? create(args.get(2).strip(), args.size() == 4)
                    : usage("create takes --name <name> [--admin]: a name not empty, at most " + KeyIssuer.MAX_NAME
                            + " characters, without control characters");
            case "list" -> args.size() == 1 ? list() : usage("list takes no arguments");
            case "revoke" -> args.size() == 2 ? revoke(args.get(1)) : usage("revoke takes one key id");
            default -> usage("unknown command '" + args.get(0) + "'");
        };
    }

    private int create(String name, boolean admin) {
        KeyIssuer.IssuedKey issued = new KeyIssuer(store).issue(name, admin);
        err.println("Created key " + issued.stored().id() + " (" + name + "). It is shown only now:");
        out.println(issued.key());
        return OK;
    }

    private int list() {
        String row = "%-22s %-30s %-22s %s%n";
        out.printf(row, "id", "name", "created", "revoked");
        for (StoredKey key : store.listKeys()) {
            out.printf(row, key.id(), key.name(), key.createdAt(), key.revokedAt().map(Instant::toString).orElse("-"));
        }
        return OK;
    }

    private int revoke(String id) {
        if (!store.revokeKey(id)) {
            err.println("No key has the id '" + id + "'; see: gateway keys list");
            return NOT_FOUND;
        }
        err.println("Revoked " + id + ". Running gateways refuse it within their key cache time"
                + " (gateway.keys.cache-ttl).");
        return OK;
    }

    private int usage(String problem) {
        err.println("gateway keys: " + problem);
        err.println(HELP);
        return USAGE;
    }
}

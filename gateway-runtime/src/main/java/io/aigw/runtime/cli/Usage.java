package io.aigw.runtime.cli;

import io.aigw.runtime.plugin.DiscoveredPlugin;
import io.aigw.spi.ProviderDescriptor;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.List;

/** What {@code bin/gateway help} and {@code bin/gateway version} print. */
public final class Usage {
    private static final String COMMANDS = """
            usage: gateway                 start the server
                   gateway keys create --name <name> [--admin] | list | revoke <id>
                   gateway keys create ... | update <id> [--models a,b] [--rpm n] [--tpm n] [--expires t]
                                           manage workspace keys in the database, without a server
                   gateway plugins list | reload [--url <url>]
                                           ask the running gateway for its plugins, or to reload
                                           its plugins folder now (GATEWAY_URL, GATEWAY_ADMIN_KEY)
                   gateway upstreams [--url <url>]
                                           the running gateway's upstream keys: weight, state
                                           (healthy, cooling, failed, ejected), in flight, last error
                   gateway usage [--from <day>] [--to <day>] [--key <id>]
                                 [--by day|model|upstream_key|endpoint|key]
                                           requests, tokens and spend from the database, as
                                           GET /admin/v1/usage reports them (this month, by key)
                   gateway migrate         bring the database's schema up to date and exit
                   gateway version         print the version and exit
                   gateway help            print this and exit

            Settings come from conf/gateway.yaml, overridden by the environment:
              GATEWAY_CONFIG           another settings file
              GATEWAY_PORT             the port to listen on (8080)
              GATEWAY_MASTER_KEY       an admin key kept in configuration (sk-gw-...); without it, the
                                       first start on an empty database makes one and prints it once
              GATEWAY_DATABASE_URL     where keys and usage live (jdbc:sqlite:data/gateway.db)
              GATEWAY_REDIS_URL        rate-limit counters in Redis, shared by replicas (in memory)
              GATEWAY_PLUGINS_DIR      the folder of plugin jars (plugins/), watched while the gateway runs
              GATEWAY_...              any setting of conf/gateway.yaml: gateway.max-body-size is
                                       GATEWAY_MAX_BODY_SIZE
            """;
    private static final String LAUNCHER = """
            bin/gateway itself reads:
              GATEWAY_JAVA_OPTS        JVM options, replacing its own (a heap of up to 384 MB among them)
              GATEWAY_AOT_CACHE        the AOT cache file to use or make (JDK 25+), or off
              JAVA_HOME                the JDK 21+ to run on; otherwise one is looked for
            """;

    private Usage() {
    }

    /** Prints the commands and the environment variables read, those of the installed providers included. */
    public static void print(PrintStream out, List<DiscoveredPlugin> plugins) {
        out.print(COMMANDS);
        List<ProviderDescriptor> providers = plugins.stream().map(plugin -> plugin.plugin().descriptor())
                .sorted(Comparator.comparingInt(ProviderDescriptor::priority)).toList();
        for (ProviderDescriptor provider : providers) {
            out.printf("  %-24s %s's key; %s for another base URL%n", provider.apiKeyVariable(), provider.prefix(),
                    provider.baseUrlVariable());
        }
        out.println();
        out.print(LAUNCHER);
    }

    /** Prints the gateway's version and the Java it runs on. */
    public static void printVersion(PrintStream out) {
        out.println("aigw " + version() + " (Java " + Runtime.version() + ")");
    }

    /** The gateway's version, as the build that made it wrote it. */
    static String version() {
        try (InputStream in = Usage.class.getResourceAsStream("version.txt")) {
            if (in == null) {
                throw new IllegalStateException("version.txt is missing from the gateway's jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

package io.aigw.runtime.cli;

import io.aigw.runtime.admin.AdminPluginsService.ListedPlugin;
import io.aigw.runtime.admin.AdminPluginsService.PluginList;
import io.aigw.runtime.admin.AdminPluginsService.Reloaded;
import io.aigw.runtime.error.Jsons;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.bind.JsonbException;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Optional;

/**
 * {@code bin/gateway plugins list | reload [--url <url>]}: asks the running gateway, over its admin
 * API, for its plugins or to reload its plugins folder now. The gateway is at {@code --url}, else
 * {@code GATEWAY_URL}, else this machine at the configured port; the admin key is
 * {@code GATEWAY_ADMIN_KEY}, else the configured master key, and never an argument, which other
 * users of the machine could read in its process list.
 */
public final class PluginsCommand {
    public static final int OK = 0;
    /** The gateway refused the reload: a jar in its plugins folder cannot be loaded. */
    public static final int REFUSED = 1;
    public static final int USAGE = 2;
    /** The gateway could not be asked: unreachable, the key refused, an answer not understood. */
    public static final int UNREACHABLE = 3;
    private static final DateTimeFormatter SINCE = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'")
            .withZone(ZoneOffset.UTC);
    private static final String HELP = """
            usage: gateway plugins list [--url <url>]     the providers the running gateway serves
                   gateway plugins reload [--url <url>]   reload its plugins folder now
            The gateway is at --url, else GATEWAY_URL, else http://127.0.0.1:<gateway.port>;
            GATEWAY_ADMIN_KEY (else GATEWAY_MASTER_KEY) is the admin key sent.""";
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final String ROW = "%-34s %-16s %-12s %-9s %-24s %-10s %s%n";

    private final URI defaultUrl;
    private final Optional<String> adminKey;
    private final PrintStream out;
    private final PrintStream err;

    /**
     * @param defaultUrl the gateway's URL when {@code --url} does not give one
     * @param adminKey   the admin key to send, if one is configured
     */
    public PluginsCommand(URI defaultUrl, Optional<String> adminKey, PrintStream out, PrintStream err) {
        this.defaultUrl = defaultUrl;
        this.adminKey = adminKey;
        this.out = out;
        this.err = err;
    }

    /** Runs {@code args} (without the leading {@code plugins}) and returns the process exit code. */
    public int run(List<String> args) {
        if (args.isEmpty() || !(args.size() == 1 || args.size() == 3 && args.get(1).equals("--url"))) {
            return usage(args.isEmpty() ? "no command given" : "list and reload take --url <url> alone");
        }
        String named = args.size() == 3 ? "--url" : "GATEWAY_URL";
        URI url;
        try {
            url = args.size() == 3 ? URI.create(args.get(2)) : defaultUrl;
        } catch (IllegalArgumentException e) {
            return usage(named + " must be a URL such as http://127.0.0.1:8080, not '" + args.get(2) + "'");
        }
        if (!("http".equalsIgnoreCase(url.getScheme()) || "https".equalsIgnoreCase(url.getScheme()))
                || url.getHost() == null) {
            return usage(named + " must be an http or https URL with a host, such as http://127.0.0.1:8080, not '"
                    + url + "'");
        }
        if (adminKey.isEmpty()) {
            err.println("gateway plugins: set GATEWAY_ADMIN_KEY to an admin key of the running gateway.");
            return USAGE;
        }
        return switch (args.get(0)) {
            case "list" -> ask(url, "GET", "/admin/v1/plugins");
            case "reload" -> ask(url, "POST", "/admin/v1/plugins/reload");
            default -> usage("unknown command '" + args.get(0) + "'");
        };
    }

    private int ask(URI url, String method, String path) {
        HttpResponse<String> answer;
        try (HttpClient client = HttpClient.newBuilder().connectTimeout(TIMEOUT).build()) {
            answer = client.send(HttpRequest.newBuilder(url.resolve(path)).timeout(TIMEOUT)
                    .header("Authorization", "Bearer " + adminKey.get())
                    .method(method, HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException | IllegalArgumentException e) {
            err.println("gateway plugins: the gateway at " + url + " cannot be reached: " + Unreachable.why(e, url));
            return UNREACHABLE;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("gateway plugins: interrupted while asking the gateway at " + url + ".");
            return UNREACHABLE;
        }
        try {
            return switch (answer.statusCode()) {
                case 200 -> printed(method.equals("GET") ? Jsons.BINDING.fromJson(answer.body(), PluginList.class)
                        : Jsons.BINDING.fromJson(answer.body(), Reloaded.class));
                case 409 -> {
                    err.println("gateway plugins: reload refused: " + errorMessage(answer.body()));
                    yield REFUSED;
                }
                default -> {
                    err.println("gateway plugins: the gateway at " + url + " answered " + answer.statusCode() + ": "
                            + errorMessage(answer.body()));
                    yield UNREACHABLE;
                }
            };
        } catch (JsonbException | JsonException e) {
            err.println("gateway plugins: the answer of " + url + " is not the gateway's: " + e.getMessage());
            return UNREACHABLE;
        }
    }

    private int printed(Object answer) {
        List<ListedPlugin> plugins = switch (answer) {
            case PluginList list -> {
                out.println("Routing generation " + list.generation() + ":");
                out.println(prices(list.priceVersion(), list.pricesSince()));
                yield list.data();
            }
            case Reloaded reloaded -> {
                out.println("Reloaded: routing generation " + reloaded.generation() + ", " + reloaded.changes() + ".");
                out.println(prices(reloaded.priceVersion(), reloaded.pricesSince()));
                yield reloaded.data();
            }
            default -> throw new IllegalArgumentException(answer.getClass().getName());
        };
        out.printf(ROW, "jar", "version", "prefix", "priority", "default model", "catch-all", "key");
        for (ListedPlugin plugin : plugins) {
            out.printf(ROW, plugin.jar() != null ? plugin.jar() : plugin.source(),
                    plugin.version() != null ? plugin.version() : "-", plugin.prefix(), plugin.priority(),
                    plugin.defaultModel(), plugin.catchAll() ? "yes" : "no", plugin.keySet() ? "set" : "none");
        }
        return OK;
    }

    /** Which prices the gateway charges with, by the version usage records name, and since when. */
    private static String prices(String version, long sinceEpochSecond) {
        return "Prices " + version + " in force since " + SINCE.format(Instant.ofEpochSecond(sinceEpochSecond)) + ".";
    }

    /** The message of an error in the OpenAI shape, or the body as it is. */
    private static String errorMessage(String body) {
        try {
            return Jsons.PROVIDER.createReader(new StringReader(body)).readValue() instanceof JsonObject answer
                    && answer.get("error") instanceof JsonObject error
                    && error.get("message") instanceof JsonString message ? message.getString() : body;
        } catch (JsonException e) {
            return body;
        }
    }

    private int usage(String problem) {
        err.println("gateway plugins: " + problem);
        err.println(HELP);
        return USAGE;
    }
}

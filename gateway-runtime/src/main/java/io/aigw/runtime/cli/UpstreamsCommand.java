package io.aigw.runtime.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * {@code bin/gateway upstreams [--url <url>]}: prints the running gateway's upstream keys as
 * {@code GET /admin/v1/upstreams} answers them, one JSON document
 * ({@code {"data":[{"provider","keys":[{"name","weight","state",...}]}]}}), for a person or for
 * {@code jq}. The gateway and the admin key are found as {@link PluginsCommand} finds them.
 */
public final class UpstreamsCommand {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final String HELP = """
            usage: gateway upstreams [--url <url>]   the running gateway's upstream keys and their state
            The gateway is at --url, else GATEWAY_URL, else http://127.0.0.1:<gateway.port>;
            GATEWAY_ADMIN_KEY (else GATEWAY_MASTER_KEY) is the admin key sent.""";

    private final URI defaultUrl;
    private final Optional<String> adminKey;
    private final PrintStream out;
    private final PrintStream err;

    public UpstreamsCommand(URI defaultUrl, Optional<String> adminKey, PrintStream out, PrintStream err) {
        this.defaultUrl = defaultUrl;
        this.adminKey = adminKey;
        this.out = out;
        this.err = err;
    }

    /** Runs {@code args} (without the leading {@code upstreams}) and returns the process exit code. */
    public int run(List<String> args) {
        if (!(args.isEmpty() || args.size() == 2 && args.get(0).equals("--url"))) {
            return usage("upstreams takes --url <url> alone");
        }
        URI url;
        try {
            url = args.isEmpty() ? defaultUrl : URI.create(args.get(1));
        } catch (IllegalArgumentException e) {
            return usage("--url must be a URL such as http://127.0.0.1:8080, not '" + args.get(1) + "'");
        }
        if (!("http".equalsIgnoreCase(url.getScheme()) || "https".equalsIgnoreCase(url.getScheme()))
                || url.getHost() == null) {
            return usage("the gateway's URL must be http or https with a host, such as http://127.0.0.1:8080, not '"
                    + url + "'");
        }
        if (adminKey.isEmpty()) {
            err.println("gateway upstreams: set GATEWAY_ADMIN_KEY to an admin key of the running gateway.");
            return PluginsCommand.USAGE;
        }
        HttpResponse<String> answer;
        try (HttpClient client = HttpClient.newBuilder().connectTimeout(TIMEOUT).build()) {
            answer = client.send(HttpRequest.newBuilder(url.resolve("/admin/v1/upstreams")).timeout(TIMEOUT)
                    .header("Authorization", "Bearer " + adminKey.get()).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (IOException | IllegalArgumentException e) {
            err.println("gateway upstreams: the gateway at " + url + " cannot be reached: " + Unreachable.why(e, url));
            return PluginsCommand.UNREACHABLE;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("gateway upstreams: interrupted while asking the gateway at " + url + ".");
            return PluginsCommand.UNREACHABLE;
        }
        if (answer.statusCode() != 200) {
            err.println("gateway upstreams: the gateway at " + url + " answered " + answer.statusCode() + ": "
                    + answer.body());
            return PluginsCommand.UNREACHABLE;
        }
        out.println(answer.body());
        return PluginsCommand.OK;
    }

    private int usage(String problem) {
        err.println("gateway upstreams: " + problem);
        err.println(HELP);
        return PluginsCommand.USAGE;
    }
}

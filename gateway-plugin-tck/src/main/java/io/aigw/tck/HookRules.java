package io.aigw.tck;

import io.aigw.spi.ProviderPlugin;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/** What the gateway relies on in the optional hooks: {@code extraHeaders()} and {@code unsupportedFields()}. */
final class HookRules {
    /**
     * Headers the gateway sets on every upstream request; a plugin's value would replace the
     * gateway's (its key, its framing, its content negotiation, its request id).
     */
    private static final Set<String> GATEWAY_HEADERS = Set.of("authorization", "proxy-authorization", "host",
            "content-length", "transfer-encoding", "connection", "upgrade", "te", "trailer", "keep-alive",
            "content-type", "accept", "x-request-id", "x-api-key");
    /** Request fields the gateway itself reads and routes by; without them no request works. */
    private static final Set<String> REQUIRED_FIELDS = Set.of("model", "messages");
    private static final String TOKEN_SYMBOLS = "!#$%&'*+-.^_`|~";

    private HookRules() {
    }

    static List<String> extraHeaders(PluginUnderTest plugin) {
        List<String> problems = new ArrayList<>();
        Map<String, String> headers = stable(plugin, ProviderPlugin::extraHeaders, "extraHeaders()", problems);
        if (headers == null) {
            return problems;
        }
        Map<String, String> seen = new HashMap<>();
        headers.forEach((name, value) -> {
            if (name == null || value == null) {
                problems.add("extraHeaders() holds a null name or value (" + name + ": " + value + ")");
                return;
            }
            if (name.isEmpty() || !name.chars().allMatch(HookRules::isTokenChar)) {
                problems.add("'" + name + "' is not an HTTP header name (letters, digits and " + TOKEN_SYMBOLS + ")");
            } else if (GATEWAY_HEADERS.contains(name.toLowerCase(Locale.ROOT))) {
                problems.add(name + " is a header the gateway sets on every request"
                        + (name.equalsIgnoreCase("authorization")
                        ? " (Authorization: Bearer and the configured key)"
                        : name.equalsIgnoreCase("x-api-key") ? " (the configured key, on Anthropic's Messages API)" : "") + "; a plugin never sends it");
            }
            if (!value.chars().allMatch(c -> c == '\t' || (c >= ' ' && c < 0x7f))) {
                problems.add("the value of " + name + " holds control or non-ASCII characters, which HTTP/1.1 does"
                        + " not carry as they are");
            }
            String other = seen.putIfAbsent(name.toLowerCase(Locale.ROOT), name);
            if (other != null) {
                problems.add(other + " and " + name + " are one header: header names ignore case");
            }
        });
        return problems;
    }

    static List<String> unsupportedFields(PluginUnderTest plugin) {
        List<String> problems = new ArrayList<>();
        Set<String> fields = stable(plugin, ProviderPlugin::unsupportedFields, "unsupportedFields()", problems);
        if (fields == null) {
            return problems;
        }
        for (String field : fields) {
            if (field == null || field.isBlank()) {
                problems.add("unsupportedFields() holds a null or blank field name");
            } else if (REQUIRED_FIELDS.contains(field)) {
                problems.add("'" + field + "' is a field the gateway routes by and every request needs; it cannot"
                        + " be removed");
            }
        }
        return problems;
    }

    /**
     * Calls the hook twice on one instance and once on another; returns its value when all three
     * agree, else null with the problem recorded.
     */
    static <T> T stable(PluginUnderTest plugin, Function<ProviderPlugin, T> hook, String name,
                        List<String> problems) {
        try {
            T first = hook.apply(plugin.instance());
            if (first == null) {
                problems.add(name + " returned null; a plugin with nothing to declare keeps the default (empty)");
                return null;
            }
            T again = hook.apply(plugin.instance());
            T fromAnother = hook.apply(plugin.another());
            if (!first.equals(again) || !first.equals(fromAnother)) {
                problems.add(name + " gives " + first + ", then " + again + ", then on a new instance " + fromAnother
                        + ": a plugin declares constants, since the gateway reads them once at start");
                return null;
            }
            return first;
        } catch (RuntimeException | LinkageError e) {
            problems.add(name + " throws " + e);
            return null;
        }
    }

    private static boolean isTokenChar(int c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || TOKEN_SYMBOLS.indexOf(c) >= 0;
    }
}

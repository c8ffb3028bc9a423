package io.aigw.runtime.config;

import io.helidon.config.Config;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Every member the gateway reads from the sections of configuration it owns, {@code gateway} and
 * {@code providers}, and the check that refuses the start when the file holds one it does not read:
 * a misspelt key would otherwise start the gateway as if it were absent. A key read anywhere under
 * those sections must be listed here.
 *
 * <p>Only the configuration tree is checked, which holds the file alone: the environment overrides
 * keys by name ({@link Settings}) and is never mapped into the tree, so the process's other
 * variables cannot look like unknown keys. What belongs to Helidon ({@code server}, the settings
 * under {@code gateway.protocols.*} and {@code gateway.upstream-tls}) is Helidon's to read, and a
 * {@code pricing} member is checked by the price's own rules. Another top-level key is not read by
 * anyone: it is logged, not refused, as a file may carry settings for other tools.
 */
public final class ConfigurationMembers {
    private static final System.Logger LOG = System.getLogger(ConfigurationMembers.class.getName());
    private static final Set<String> TOP_LEVEL = Set.of("gateway", "providers", "server");

    /** What a member holds, and so which members may be below it. */
    private sealed interface Member {
    }

    /** A value, with nothing below it. */
    private record Value() implements Member {
    }

    /** Named members, each known. */
    private record Section(Map<String, Member> members) implements Member {
        private Section {
            members = new TreeMap<>(members);
        }
    }

    /** Members of any name, each holding the same: a provider by its name, a list's entries. */
    private record Each(Member entry) implements Member {
    }

    /** Whatever another reader checks: Helidon's settings, header names, a price. */
    private record Open() implements Member {
    }

    private static final Member VALUE = new Value();
    private static final Member OPEN = new Open();

    private static final Member GATEWAY = new Section(Map.ofEntries(
            Map.entry("port", VALUE),
            Map.entry("host", VALUE),
            Map.entry("master-key", VALUE),
            Map.entry("name", VALUE),
            Map.entry("max-body-size", VALUE),
            Map.entry("body-memory", VALUE),
            Map.entry("max-concurrent-requests", VALUE),
            Map.entry("fairness", values("in-flight-reserve", "key-body-memory")),
            Map.entry("http2", VALUE),
            Map.entry("protocols", new Section(Map.of("http_1_1", OPEN, "http_2", OPEN))),
            Map.entry("transport", values("restarting-reader", "protocol-selection", "upstream-pool",
                    "caller-watch")),
            Map.entry("timeouts", values("connect", "first-byte", "idle", "total", "caller-headers", "caller-body",
                    "caller-body-grace", "caller-body-min-rate", "caller-send", "caller-keep-alive")),
            Map.entry("auto", values("key-cooldown")),
            // An alias's name is the operator's; its model, or list of models, is checked when routes are built.
            Map.entry("aliases", OPEN),
            Map.entry("catalogue", values("refresh")),
            Map.entry("pools", values("cooldown", "eject-after", "ejection", "max-ejection", "shared-refresh")),
            Map.entry("upstream-tls", OPEN),
            Map.entry("database", values("url", "user", "password", "pool-size", "timeout", "check-interval")),
            Map.entry("keys", values("cache-ttl", "outage-ttl")),
            Map.entry("limits", values("redis-url", "redis-prefix", "redis-timeout", "redis-pool-size",
                    "on-store-failure")),
            Map.entry("usage", values("queue-size")),
            Map.entry("cost-header", VALUE),
            Map.entry("access-log", VALUE),
            Map.entry("console", values("enabled")),
            Map.entry("observe", values("port")),
            Map.entry("shutdown", values("grace-period")),
            Map.entry("plugins", values("dir", "watch", "settle", "call-timeout")),
            Map.entry("tracing", new Section(Map.of(
                    "exporter", values("endpoint", "protocol", "headers", "timeout"),
                    "batch", values("queue-size", "schedule-delay"),
                    "content", values("capture", "max-bytes"),
                    "metrics", values("exporter", "interval"),
                    "sdk-disabled", VALUE, "service-name", VALUE, "sampler", VALUE, "sampler-arg", VALUE,
                    "propagate-upstream", VALUE)))));

    private static final Member PROVIDERS = new Each(new Section(Map.of(
            "enabled", VALUE,
            "prefix", VALUE,
            "api-key", VALUE,
            "keys", new Each(values("name", "api-key", "weight", "base-url", "rpm", "tpm")),
            "base-url", VALUE,
            "default-model", VALUE,
            "priority", VALUE,
            "headers", OPEN,
            "models", new Each(new Section(Map.of(
                    "id", VALUE,
                    "name", VALUE,
                    "context-length", VALUE,
                    "owned-by", VALUE,
                    "kind", VALUE,
                    "pricing", OPEN))))));

    private ConfigurationMembers() {
    }

    /**
     * Refuses configuration that holds a member the gateway does not read under {@code gateway} or
     * {@code providers}, naming every such member by its path with the members known beside it.
     *
     * @throws ConfigurationException listing them all
     */
    public static void requireKnown(Settings settings) {
        Map<String, String> unknown = new TreeMap<>();
        check(settings.node("gateway"), GATEWAY, "gateway", unknown);
        check(settings.node("providers"), PROVIDERS, "providers", unknown);
        if (!unknown.isEmpty()) {
            throw new ConfigurationException(String.join("; ", unknown.values()) + ". A key the gateway does not"
                    + " read would be ignored: correct or remove it (docs/configuration.md lists every key).");
        }
        settings.node("").asNodeList().orElse(List.of()).stream()
                .map(Config::name)
                .filter(name -> !TOP_LEVEL.contains(name))
                .forEach(name -> LOG.log(Level.WARNING, "The configuration's top-level key '" + name + "' is not read"
                        + " by the gateway, which reads gateway, providers and server (Helidon's): it is ignored."));
    }

    /** Adds to {@code unknown}, by path, what is wrong below {@code node}, which holds a {@code member}. */
    private static void check(Config node, Member member, String path, Map<String, String> unknown) {
        if (!node.exists()) {
            return;
        }
        switch (member) {
            case Open open -> {
            }
            case Value value -> members(node).forEach(child -> unknown.put(path + "." + child.name(),
                    "unknown configuration key " + path + "." + child.name() + " (" + path + " takes a value)"));
            case Section section -> {
                requireMembers(node, path, unknown);
                members(node).forEach(child -> {
                    Member known = section.members().get(child.name());
                    if (known == null) {
                        unknown.put(path + "." + child.name(), "unknown configuration key " + path + "."
                                + child.name() + " (known: " + String.join(", ", section.members().keySet()) + ")");
                    } else {
                        check(child, known, path + "." + child.name(), unknown);
                    }
                });
            }
            case Each each -> {
                requireMembers(node, path, unknown);
                members(node).forEach(child -> check(child, each.entry(), path + "." + child.name(), unknown));
            }
        }
    }

    /** Refuses a value, other than none, where members belong: they would be looked for below it. */
    private static void requireMembers(Config node, String path, Map<String, String> unknown) {
        if (node.type() == Config.Type.VALUE && !node.asString().orElse("").isBlank()) {
            unknown.put(path, "configuration key " + path + " holds members, not a value");
        }
    }

    private static List<Config> members(Config node) {
        return node.type() == Config.Type.VALUE ? List.of() : node.asNodeList().orElse(List.of());
    }

    /** A section of values only. */
    private static Member values(String... names) {
        Map<String, Member> members = new TreeMap<>();
        for (String name : names) {
            members.put(name, VALUE);
        }
        return new Section(members);
    }
}

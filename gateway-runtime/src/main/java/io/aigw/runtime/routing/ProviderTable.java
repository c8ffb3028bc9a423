package io.aigw.runtime.routing;

import io.aigw.runtime.plugin.Provider;

/**
 * Renders the providers as the one table the gateway logs at startup and after each reload. Never
 * shows a key, only whether one is set.
 */
public final class ProviderTable {
    private static final String ROW = "%n  %-12s %-6s %-10s %-9s %-22s %-4s %s";

    private ProviderTable() {
    }

    public static String render(RoutingTable routing) {
        StringBuilder table = new StringBuilder("Providers (" + routing.byPriority().size() + "), in gateway/auto order:");
        table.append(String.format(ROW, "prefix", "strip", "catch-all", "priority", "default model", "key", "base URL"));
        for (Provider provider : routing.byPriority()) {
            table.append(String.format(ROW, provider.prefix(), yesNo(provider.stripsPrefix()),
                    yesNo(provider.catchAll()), provider.priority(), provider.defaultModel(),
                    yesNo(provider.hasKey()), provider.baseUrl()));
        }
        if (routing.catchAll().isEmpty()) {
            table.append(String.format("%n  No catch-all provider: a model whose prefix no provider claims gets 404."));
        }
        return table.toString();
    }

    private static String yesNo(boolean value) {
        return value ? "yes" : "no";
    }
}

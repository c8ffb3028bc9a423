package io.aigw.runtime.upstream;

import io.aigw.runtime.config.PoolKey;
import io.aigw.runtime.plugin.Provider;
import io.aigw.runtime.plugin.UpstreamKey;
import io.aigw.runtime.text.LogText;

/**
 * The operator's log line when an upstream refuses the gateway's key. It keeps the upstream's own
 * message, which says why (a revoked key, a wrong project) and which key it saw: providers echo a
 * masked key ({@code sk-proj-****5370}), and that much goes in as sent. An upstream that echoes the
 * whole key would put a secret in the log, so the key is masked wherever it appears in full.
 */
final class RejectedKeyLog {
    /** An upstream message is a sentence or two; an error page is cut here. */
    private static final int MAX_MESSAGE = 300;
    /** Shown of a key in the log: as much as providers show of it themselves. */
    private static final int SHOWN_START = 6;
    private static final int SHOWN_END = 4;

    private RejectedKeyLog() {
    }

    static String line(Provider provider, UpstreamKey key, int status, String upstreamMessage) {
        // Masked before it is cut: a cut could leave part of the key where the whole no longer matches.
        String message = masked(upstreamMessage, key);
        if (message.length() > MAX_MESSAGE) {
            message = message.substring(0, MAX_MESSAGE) + "...";
        }
        String name = key.name().equals(PoolKey.DEFAULT_NAME) ? provider.apiKeyVariable() + " (or providers." + provider.name()
                + ".api-key)" : "the key '" + key.name() + "' of providers." + provider.name() + ".keys";
        return "Upstream " + provider.prefix() + " rejected the gateway's key (" + status + ") named " + key.name()
                + ": \"" + oneLine(message) + "\". The key is skipped until a reload, or until a call after"
                + " gateway.auto.key-cooldown shows it works; callers get 502 upstream_auth_failed when the provider"
                + " has no other key. Check " + name + ".";
    }

    private static String masked(String text, UpstreamKey key) {
        String value = key.value();
        if (value.isEmpty() || !text.contains(value)) {
            return text;
        }
        String mask = value.length() < 3 * (SHOWN_START + SHOWN_END) ? "****"
                : value.substring(0, SHOWN_START) + "****" + value.substring(value.length() - SHOWN_END);
        return text.replace(value, mask);
    }

    /**
     * Control characters become spaces: an upstream's text must not start a log line of its own; a
     * bidirectional control is escaped, so that it reorders nothing around it.
     */
    private static String oneLine(String text) {
        StringBuilder line = new StringBuilder(text.length());
        text.codePoints().forEach(c -> line.appendCodePoint(Character.isISOControl(c) ? ' ' : c));
        return LogText.escaped(line.toString());
    }
}

package io.aigw.runtime.config;

import java.util.Locale;
import java.util.Set;

/**
 * The headers of an upstream request that neither a provider's configuration nor its plugin may
 * set, because the gateway writes them itself: those that frame the message or belong to one
 * connection (RFC 9110, section 7.6.1; RFC 9112, section 6), which its HTTP client writes for each
 * request, and the key's {@code Authorization} (or {@code x-api-key}, on Anthropic's Messages API). A {@code Content-Length} or
 * {@code Transfer-Encoding} beside the client's own makes a request whose end the upstream, or a
 * proxy before it, may find elsewhere than the gateway meant: the opening of request smuggling.
 */
public final class ReservedHeaders {
    /** The rule in words, for the messages that refuse a header. */
    public static final String RULE = "a provider's headers cannot set Host, Content-Length, Transfer-Encoding,"
            + " Connection, Keep-Alive, Upgrade, TE, Trailer, any Proxy-* header, Authorization or x-api-key, which"
            + " the gateway writes itself";
    private static final Set<String> NAMES = Set.of("host", "content-length", "transfer-encoding", "connection",
            "keep-alive", "upgrade", "te", "trailer", "authorization", "x-api-key");

    private ReservedHeaders() {
    }

    /** Whether {@code name}, in any case, is a header the gateway writes itself. */
    public static boolean isReserved(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        return NAMES.contains(lower) || lower.startsWith("proxy-");
    }
}

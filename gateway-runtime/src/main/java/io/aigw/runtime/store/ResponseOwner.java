package io.aigw.runtime.store;

import java.time.Instant;

/**
 * A response the Responses API created through the gateway.
 *
 * @param id        the id its upstream gave it, such as {@code resp_68af...}
 * @param keyId     the workspace key that created it, the only one that may read, delete or cancel it
 * @param provider  the name of the provider that holds it, where those calls go
 * @param upstreamKey the name of the provider's upstream key it was created with, which those calls use
 * @param createdAt when the gateway saw it created
 */
public record ResponseOwner(String id, String keyId, String provider, String upstreamKey, Instant createdAt) {
    /** The longest id kept: OpenAI's are some 50 characters; a longer one is not remembered. */
    public static final int MAX_ID_LENGTH = 300;
}

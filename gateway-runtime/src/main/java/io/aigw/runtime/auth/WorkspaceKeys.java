package io.aigw.runtime.auth;

import io.aigw.runtime.waits.Waits;
import io.helidon.common.context.Context;
import java.util.Optional;

/** Decides whether a presented workspace key is valid. */
public interface WorkspaceKeys {
    /** The prefix every workspace key carries. */
    String PREFIX = "sk-gw-";

    /**
     * Returns who holds the key, or empty when it is unknown or revoked. Implementations take about
     * the same time for every wrong key, so that timing tells a caller nothing.
     *
     * @throws io.aigw.runtime.store.StoreUnavailableException when the key's store cannot tell now
     */
    Optional<Caller> authenticate(String presentedKey);

    /**
     * {@link #authenticate(String)}, telling the {@link Waits} in {@code request}'s context, when it
     * has one, of a wait on the key's store; by default there is no such wait.
     */
    default Optional<Caller> authenticate(String presentedKey, Context request) {
        return authenticate(presentedKey);
    }
}

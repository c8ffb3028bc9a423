package io.aigw.runtime.admin;

import io.aigw.runtime.auth.MasterKey;
import io.aigw.runtime.store.GatewayStore;
import io.aigw.runtime.store.StoredKey;

/**
 * Makes workspace keys: a random key shown once, its hash stored. Shared by the admin API and the
 * command line, so both make keys the same way.
 */
public final class KeyIssuer {
    private final GatewayStore store;

    public KeyIssuer(GatewayStore store) {
        this.store = store;
    }

    /** A key just made: the stored record and the key text, which exists nowhere else. */
    public record IssuedKey(StoredKey stored, String key) {
    }

    public IssuedKey issue(String name, boolean admin) {
        String key = MasterKey.generate();
        return new IssuedKey(store.createKey(name, MasterKey.hashHex(key), admin), key);
    }
}

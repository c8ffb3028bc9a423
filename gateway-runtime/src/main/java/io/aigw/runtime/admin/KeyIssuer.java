package io.aigw.runtime.admin;

import io.aigw.runtime.auth.MasterKey;
import io.aigw.runtime.store.GatewayStore;
import io.aigw.runtime.store.KeyPolicy;
import io.aigw.runtime.store.StoredKey;
import io.aigw.runtime.text.Identifiers;

/**
 * Makes workspace keys: a random key shown once, its hash stored. Shared by the admin API and the
 * command line, so both make keys the same way and accept the same names.
 */
public final class KeyIssuer {
    /** The longest name, in characters (code points), as the {@code VARCHAR(200)} column counts them. */
    public static final int MAX_NAME = 200;

    private final GatewayStore store;

    public KeyIssuer(GatewayStore store) {
        this.store = store;
    }

    /** A key just made: the stored record and the key text, which exists nowhere else. */
    public record IssuedKey(StoredKey stored, String key) {
    }

    /**
     * Whether {@code name} (already stripped) may name a key: not empty, at most {@link #MAX_NAME}
     * characters, none that {@link Identifiers} refuses (a NUL cannot be stored in PostgreSQL at all, a
     * line break would split a row of {@code gateway keys list}, a bidirectional override would
     * reorder a report's row).
     */
    public static boolean isValidName(String name) {
        return !name.isEmpty() && name.codePointCount(0, name.length()) <= MAX_NAME
                && Identifiers.hasOnlyShowableCharacters(name);
    }

    /**
     * @throws IllegalArgumentException when the stripped name is not {@linkplain #isValidName valid}
     */
    public IssuedKey issue(String name, boolean admin, KeyPolicy policy) {
        String stripped = name.strip();
        if (!isValidName(stripped)) {
            throw new IllegalArgumentException("Not a valid key name: '" + name + "'");
        }
        String key = MasterKey.generate();
        return new IssuedKey(store.createKey(stripped, MasterKey.hashHex(key), admin, policy), key);
    }
}

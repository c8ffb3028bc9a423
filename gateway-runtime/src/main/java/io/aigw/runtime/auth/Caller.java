package io.aigw.runtime.auth;

import io.aigw.runtime.store.KeyPolicy;

/**
 * Who sent a request, as far as the gateway needs to know.
 *
 * @param keyId   the key's id, which logs and usage records show instead of the key
 * @param admin   whether the key may manage keys and read usage
 * @param policy  what the key may do (models, expiry, rate limits)
 * @param keyName the name the key was issued with, which traces show beside its id; null when unknown
 */
public record Caller(String keyId, boolean admin, KeyPolicy policy, String keyName) {

    /** A caller whose key's name is not known. */
    public Caller(String keyId, boolean admin, KeyPolicy policy) {
        this(keyId, admin, policy, null);
    }
}

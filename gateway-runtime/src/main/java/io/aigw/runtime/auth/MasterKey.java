package io.aigw.runtime.auth;

import io.aigw.runtime.config.ConfigurationException;
import io.aigw.runtime.store.KeyPolicy;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Optional;

/**
 * The key given by {@code GATEWAY_MASTER_KEY}: an admin key that lives in configuration, not in the
 * store. Only its SHA-256 hash is kept; presented keys are hashed and compared in constant time.
 */
public final class MasterKey implements WorkspaceKeys {
    /** The id logs and usage records show for this key; never the key itself. */
    public static final String ID = "master";
    private static final Caller CALLER = new Caller(ID, true, KeyPolicy.NONE, ID);

    private static final MessageDigest SHA_256 = sha256Digest();

    private final byte[] hash;

    private MasterKey(String key) {
        this.hash = sha256(key);
    }

    /**
     * Accepts a configured key.
     *
     * <p>Surrounding whitespace is dropped: a key read from a secret file often ends in a newline,
     * and the key check strips what a caller presents, so a kept newline would lock everyone out.
     *
     * @throws ConfigurationException when the key lacks the {@code sk-gw-} prefix or is too short
     */
    public static MasterKey of(String configured) {
        String key = configured.strip();
        if (!key.startsWith(PREFIX) || key.length() < PREFIX.length() + 16) {
            throw new ConfigurationException("GATEWAY_MASTER_KEY must start with '" + PREFIX + "' and carry at"
                    + " least 16 more characters; make one with: echo " + PREFIX + "$(openssl rand -hex 24)");
        }
        return new MasterKey(key);
    }

    /** Returns a new random key: {@code sk-gw-} and 32 random bytes, URL-safe base64. */
    public static String generate() {
        byte[] random = new byte[32];
        new SecureRandom().nextBytes(random);
        return PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(random);
    }

    @Override
    public Optional<Caller> authenticate(String presentedKey) {
        return authenticateHashed(sha256(presentedKey));
    }

    /** As {@link #authenticate}, given the presented key's {@link #sha256}: a caller needing it hashes once. */
    Optional<Caller> authenticateHashed(byte[] presentedHash) {
        return MessageDigest.isEqual(hash, presentedHash) ? Optional.of(CALLER) : Optional.empty();
    }

    /** The SHA-256 of a key in hex, as the store keeps it. */
    public static String hashHex(String key) {
        return hex(sha256(key));
    }

    static String hex(byte[] hash) {
        return HexFormat.of().formatHex(hash);
    }

    static byte[] sha256(String text) {
        try {
            // A clone of a ready digest skips the security provider lookup of getInstance.
            return ((MessageDigest) SHA_256.clone()).digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException("the JDK's SHA-256 can be cloned", e);
        }
    }

    private static MessageDigest sha256Digest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}

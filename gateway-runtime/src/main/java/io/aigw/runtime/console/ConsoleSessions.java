package io.aigw.runtime.console;

import io.aigw.runtime.auth.Caller;
import io.aigw.runtime.auth.MasterKey;
import io.aigw.runtime.store.GatewayStore;
import io.aigw.runtime.store.KeyPolicy;
import io.aigw.runtime.store.StoredKey;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The console's sign-ins: a random session id (the cookie) and a random CSRF token per session,
 * kept in memory under the id's hash, never the key that signed in. Each use asks the store for
 * the key again, so a session ends with its key's revocation or expiry, and on its own after
 * {@link #LIFETIME}.
 */
final class ConsoleSessions {
    static final Duration LIFETIME = Duration.ofMinutes(30);
    private static final int MAX_SESSIONS = 10_000;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final GatewayStore store;
    private final Clock clock;
    private final Map<String, Session> sessions = new ConcurrentHashMap<>();

    /**
     * One sign-in.
     *
     * @param keyId the key that signed in ({@link MasterKey#ID} for the master key)
     * @param csrf  what state-changing requests must carry in {@link SessionGate#CSRF_HEADER}
     */
    record Session(String keyId, boolean admin, String csrf, Instant expiresAt) {
    }

    /** A session just begun: the cookie's value and the session. */
    record Started(String id, Session session) {
    }

    ConsoleSessions(GatewayStore store, Clock clock) {
        this.store = store;
        this.clock = clock;
    }

    /** Begins a session for a caller whose key was just checked; empty when too many are open. */
    Optional<Started> begin(Caller caller) {
        if (sessions.size() >= MAX_SESSIONS) {
            Instant now = clock.instant();
            sessions.values().removeIf(session -> !session.expiresAt().isAfter(now));
            if (sessions.size() >= MAX_SESSIONS) {
                return Optional.empty();
            }
        }
        String id = random();
        Session session = new Session(caller.keyId(), caller.admin(), random(), clock.instant().plus(LIFETIME));
        sessions.put(hash(id), session);
        return Optional.of(new Started(id, session));
    }

    /**
     * The session of a cookie's value and the caller it acts for, as its key stands now; empty
     * (and the session ended) when it expired or its key was revoked, expired or lost its rights.
     */
    Optional<SignedIn> find(String id) {
        String hash = hash(id);
        Session session = sessions.get(hash);
        if (session == null) {
            return Optional.empty();
        }
        Instant now = clock.instant();
        Optional<Caller> caller = session.expiresAt().isAfter(now) ? callerOf(session, now) : Optional.empty();
        if (caller.isEmpty()) {
            sessions.remove(hash);
            return Optional.empty();
        }
        return Optional.of(new SignedIn(session, caller.get()));
    }

    /** A live session and its caller. */
    record SignedIn(Session session, Caller caller) {
    }

    void end(String id) {
        sessions.remove(hash(id));
    }

    private Optional<Caller> callerOf(Session session, Instant now) {
        if (session.keyId().equals(MasterKey.ID)) {
            return Optional.of(new Caller(MasterKey.ID, true, KeyPolicy.NONE, MasterKey.ID));
        }
        return store.listKeys().stream()
                .filter(key -> key.id().equals(session.keyId()) && !key.revoked())
                .filter(key -> !key.policy().expiredAt(now) && key.admin() == session.admin())
                .findFirst()
                .map(ConsoleSessions::callerOf);
    }

    private static Caller callerOf(StoredKey key) {
        return new Caller(key.id(), key.admin(), key.policy(), key.name());
    }

    private static String random() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private static String hash(String id) {
        return MasterKey.hashHex(id);
    }

    /** Whether two tokens are equal, in time that does not depend on where they differ. */
    static boolean sameToken(String expected, String presented) {
        return presented != null && MessageDigest.isEqual(expected.getBytes(StandardCharsets.UTF_8),
                presented.getBytes(StandardCharsets.UTF_8));
    }
}

package io.aigw.runtime.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.store.GatewayStore;
import io.aigw.runtime.store.StoreHealth;
import io.aigw.runtime.store.KeyPolicy;
import io.aigw.runtime.store.StoredKey;
import io.aigw.runtime.store.UsageRecord;
import io.aigw.runtime.store.UsageQuery;
import io.aigw.runtime.store.UsageRow;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A revocation made on this gateway applies at once, even to a key whose lookup was already on its
 * way to the database when the revocation happened (with a store that holds that lookup back).
 */
public final class StoredKeysTest {
    private static final String KEY = "sk-gw-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";

    @Test
    void aLookupThatRacesARevocationDoesNotKeepTheKeyValidInTheCache() throws Exception {
        OneKeyStore store = new OneKeyStore();
        StoredKeys keys = new StoredKeys(Optional.empty(), store, Duration.ofHours(1), Duration.ofHours(1));

        // A request starts looking the key up and reads "valid" just before the revocation ...
        CompletableFuture<Optional<Caller>> inFlight = CompletableFuture.supplyAsync(() -> keys.authenticate(KEY));
        assertTrue(store.lookupHasRead.await(10, TimeUnit.SECONDS));
        // ... the admin API revokes it and forgets the cache ...
        store.revokeKey(OneKeyStore.ID);
        keys.forgetCached();
        // ... and only then does the slow lookup finish and put its answer in the cache.
        store.finishLookup.countDown();
        assertEquals(Optional.of(new Caller(OneKeyStore.ID, false, KeyPolicy.NONE, "app")), inFlight.get(10, TimeUnit.SECONDS),
                "the request that began before the revocation may pass");

        assertEquals(Optional.empty(), keys.authenticate(KEY), "every later request is refused");
    }

    @Test
    void anAnswerIsReusedWithinTheCacheTime() {
        OneKeyStore store = new OneKeyStore();
        store.finishLookup.countDown();
        StoredKeys keys = new StoredKeys(Optional.empty(), store, Duration.ofHours(1), Duration.ofHours(1));

        assertEquals(Optional.of(new Caller(OneKeyStore.ID, false, KeyPolicy.NONE, "app")), keys.authenticate(KEY));
        store.revokeKey(OneKeyStore.ID);  // elsewhere: this gateway is not told
        assertEquals(Optional.of(new Caller(OneKeyStore.ID, false, KeyPolicy.NONE, "app")), keys.authenticate(KEY));
        assertEquals(1, store.lookups, "the second check did not reach the database");
    }

    /** A store with one key whose lookup reports when it has read and then waits to be let go. */
    private static final class OneKeyStore implements GatewayStore {
        static final String ID = "key_0123456789abcdef";
        final CountDownLatch lookupHasRead = new CountDownLatch(1);
        final CountDownLatch finishLookup = new CountDownLatch(1);
        volatile Optional<Instant> revokedAt = Optional.empty();
        volatile int lookups;

        @Override
        public Optional<StoredKey> findKey(String keyHash) {
            lookups++;
            Optional<StoredKey> found = keyHash.equals(MasterKey.hashHex(KEY))
                    ? Optional.of(new StoredKey(ID, "app", false, Instant.EPOCH, revokedAt, KeyPolicy.NONE)) : Optional.empty();
            lookupHasRead.countDown();
            try {
                finishLookup.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return found;
        }

        @Override
        public boolean revokeKey(String id) {
            revokedAt = Optional.of(Instant.now());
            return true;
        }

        @Override
        public StoredKey createKey(String name, String keyHash, boolean admin, KeyPolicy policy) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Optional<StoredKey> updatePolicy(String id, KeyPolicy policy) {
            throw new UnsupportedOperationException();
        }

        @Override
        public List<StoredKey> listKeys() {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean hasKeys() {
            return true;
        }

        @Override
        public int recordUsage(List<UsageRecord> records) {
            return 0;
        }

        @Override
        public List<UsageRow> usage(UsageQuery query) {
            return List.of();
        }

        @Override
        public io.aigw.runtime.pricing.Usd spentSince(String keyId, java.time.Instant since) {
            return io.aigw.runtime.pricing.Usd.ZERO;
        }

        @Override
        public Optional<String> priceTable(String version) {
            return Optional.empty();
        }

        @Override
        public void rememberResponses(List<io.aigw.runtime.store.ResponseOwner> responses) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Optional<io.aigw.runtime.store.ResponseOwner> response(String id) {
            throw new UnsupportedOperationException();
        }

        @Override
        public StoreHealth health() {
            return new StoreHealth.Up();
        }

        @Override
        public void close() {
        }
    }
}

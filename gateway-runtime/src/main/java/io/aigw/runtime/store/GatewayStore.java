package io.aigw.runtime.store;

import io.aigw.runtime.pricing.Usd;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Where workspace keys and usage records live. Nothing above this interface knows which database
 * it is: an embedded SQLite file for one gateway, PostgreSQL shared by several replicas.
 *
 * <p>Every method may throw a {@link StoreException}: a {@link StoreUnavailableException} when the
 * database cannot serve now, without waiting longer than the store's timeout for it.
 */
public interface GatewayStore extends AutoCloseable {

    /** Stores a new key by its SHA-256 hash (hex), with its policy, and returns it. */
    StoredKey createKey(String name, String keyHash, boolean admin, KeyPolicy policy);

    /** Replaces a key's policy and returns the key as stored now; empty when no key has that id. */
    Optional<StoredKey> updatePolicy(String id, KeyPolicy policy);

    /** Every key, newest first, revoked ones included. */
    List<StoredKey> listKeys();

    /** Marks a key revoked; returns false when no key has that id. Revoking twice is harmless. */
    boolean revokeKey(String id);

    /** Finds a key by the SHA-256 hash (hex) of its text. */
    Optional<StoredKey> findKey(String keyHash);

    /** Whether any key was ever stored (revoked ones count). */
    boolean hasKeys();

    /**
     * Appends usage records in one transaction, with the daily sums they add to and the text of each
     * price table their costs name. A record the database refuses for its own data (a value it cannot
     * store) is left out and the others are still stored: one caller's bad record must not take
     * other callers' records with it.
     *
     * @return how many of the records were refused for their data and left out
     */
    int recordUsage(List<UsageRecord> records);

    /** Sums usage from the daily rollup, as the query groups it. */
    List<UsageRow> usage(UsageQuery query);

    /**
     * What a key has spent since {@code since} (a UTC day's start), by the costs its usage records
     * kept; an unknown cost counts nothing.
     */
    Usd spentSince(String keyId, Instant since);

    /** The canonical text of the price table of this version, as kept when a record first named it. */
    Optional<String> priceTable(String version);

    /**
     * Remembers responses the Responses API created, in one transaction; an id already remembered
     * keeps its first owner.
     */
    void rememberResponses(List<ResponseOwner> responses);

    /** The response remembered under {@code id}; empty when none is. */
    Optional<ResponseOwner> response(String id);

    /** The database's health as last seen: answered at once, never by waiting on the database. */
    StoreHealth health();

    @Override
    void close();
}

package io.aigw.runtime.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.aigw.runtime.testing.LocalPostgres;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Who created each response is kept by the same SQL on SQLite and PostgreSQL, the first owner of an
 * id standing; it is found the moment it is remembered, before it is written, and while the database
 * is down, when an id not waiting to be written cannot be told and says so.
 */
public final class ResponseOwnersTest {
    private static final Instant NOW = Instant.ofEpochMilli(1_764_800_000_000L);

    @Test
    void aResponseIsFoundAtOnceThenInTheStoreWithItsFirstOwnerOnSqlite() throws Exception {
        Path folder = Files.createTempDirectory("responses-store");
        try (JdbcStore store = JdbcStore.open("jdbc:sqlite:" + folder.resolve("gateway.db"), Optional.empty(),
                Optional.empty(), 2)) {
            rememberedAndKept(store);
        } finally {
            try (var paths = Files.walk(folder)) {
                paths.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }

    @Test
    void aResponseIsFoundAtOnceThenInTheStoreWithItsFirstOwnerOnPostgres() throws Exception {
        try (LocalPostgres database = LocalPostgres.createDatabase();
             JdbcStore store = JdbcStore.open(database.url(), Optional.of(database.user()), Optional.empty(), 2)) {
            rememberedAndKept(store);
        }
    }

    @Test
    void whileTheDatabaseIsDownWhatWaitsToBeWrittenIsFoundAndTheRestCannotBeTold() {
        GatewayStore down = (GatewayStore) Proxy.newProxyInstance(GatewayStore.class.getClassLoader(),
                new Class<?>[] {GatewayStore.class}, (proxy, method, args) -> {
                    if (method.getName().equals("close")) {
                        return null;
                    }
                    throw new StoreUnavailableException("the database is down", null, Duration.ofSeconds(1));
                });
        try (ResponseOwners owners = new ResponseOwners(down, 10, Duration.ofMillis(50))) {
            ResponseOwner waiting = new ResponseOwner("resp_waiting", "key_a", "openai", "default", NOW);
            owners.remember(waiting);

            assertEquals(Optional.of(waiting), owners.find("resp_waiting"));
            assertThrows(StoreUnavailableException.class, () -> owners.find("resp_elsewhere"));
        }
    }

    private static void rememberedAndKept(JdbcStore store) throws InterruptedException {
        ResponseOwner first = new ResponseOwner("resp_1", "key_a", "openai", "default", NOW);
        try (ResponseOwners owners = new ResponseOwners(store, 10, Duration.ofSeconds(1))) {
            owners.remember(first);
            assertEquals(Optional.of(first), owners.find("resp_1"));
        }
        try (ResponseOwners owners = new ResponseOwners(store, 10, Duration.ofSeconds(1))) {
            owners.remember(new ResponseOwner("resp_1", "key_b", "xai", "second", NOW.plusSeconds(1)));
        }
        assertEquals(Optional.of(first), store.response("resp_1"));
        assertEquals(Optional.empty(), store.response("resp_2"));
    }
}

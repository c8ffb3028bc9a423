package io.aigw.runtime.api;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.config.GatewayConfig;
import io.aigw.runtime.error.ApiException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class BodyBudgetTest {
    /** Room for {@code bodyBytes} of body, as a reservation counts it. */
    private static long room(long bodyBytes) {
        return bodyBytes * GatewayConfig.Limits.BODY_COST;
    }

    @Test
    void aKeysShareFreesBodyByBodyAsItsBodiesEnd() {
        BodyBudget budget = new BodyBudget(room(1_000), room(300));
        BodyBudget.Reservation first = budget.open("key-a");
        BodyBudget.Reservation second = budget.open("key-a");
        first.grow(200);
        second.grow(100);

        // The key's share is full: a third body of its waits, then gets a 429.
        BodyBudget.Reservation third = budget.open("key-a");
        assertEquals(429, assertThrows(ApiException.class, () -> third.grow(1)).error().status().code());

        // The first body's end gives back its 200 bytes and no more: the second still holds 100.
        first.close();
        assertDoesNotThrow(() -> third.grow(200));
        assertEquals(429, assertThrows(ApiException.class, () -> third.grow(1)).error().status().code());

        second.close();
        third.close();
        BodyBudget.Reservation whole = budget.open("key-a");
        assertDoesNotThrow(() -> whole.grow(300));
        whole.close();
    }

    @Test
    void anotherKeyHasItsOwnShareWhileOneKeysIsFull() {
        BodyBudget budget = new BodyBudget(room(1_000), room(300));
        BodyBudget.Reservation full = budget.open("key-a");
        full.grow(300);

        BodyBudget.Reservation other = budget.open("key-b");
        assertDoesNotThrow(() -> other.grow(300));
        other.close();
        full.close();
    }

    @Test
    void bodiesTakingAndGivingAtOnceNeverHoldMoreThanTheRoomAndLeaveItWhole() throws InterruptedException {
        long bytes = room(1_000);
        long keyBytes = room(400);
        // Bodies that hold room while they wait for more can keep each other waiting: a short wait.
        BodyBudget budget = new BodyBudget(bytes, keyBytes, TimeUnit.MILLISECONDS.toNanos(1));
        String[] keys = {"key-a", "key-b", "key-c"};
        // What the bodies hold, counted after a grow succeeds and before its room is given back: never
        // more than the budget really holds, so over the limit here is over the limit there.
        AtomicLong heldInAll = new AtomicLong();
        AtomicLong[] heldByKey = {new AtomicLong(), new AtomicLong(), new AtomicLong()};
        AtomicLong mostInAll = new AtomicLong();
        AtomicLong mostByKey = new AtomicLong();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 12; t++) {
            threads.add(Thread.ofVirtual().start(() -> {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                for (int i = 0; i < 2_000; i++) {
                    int key = random.nextInt(keys.length);
                    BodyBudget.Reservation body = budget.open(keys[key]);
                    long taken = 0;
                    int parts = 1 + random.nextInt(3);
                    try {
                        for (int part = 0; part < parts; part++) {
                            long bodyBytes = 1 + random.nextInt(150);
                            body.grow(bodyBytes);
                            taken += room(bodyBytes);
                            mostInAll.accumulateAndGet(heldInAll.addAndGet(room(bodyBytes)), Math::max);
                            mostByKey.accumulateAndGet(heldByKey[key].addAndGet(room(bodyBytes)), Math::max);
                        }
                    } catch (ApiException refused) {
                        // Full for a moment: the body ends with what it holds.
                    } finally {
                        heldInAll.addAndGet(-taken);
                        heldByKey[key].addAndGet(-taken);
                        body.close();
                    }
                }
            }));
        }
        for (Thread thread : threads) {
            thread.join();
        }

        assertTrue(mostInAll.get() <= bytes, mostInAll + " held of " + bytes);
        assertTrue(mostByKey.get() <= keyBytes, mostByKey + " held by a key of " + keyBytes);
        // Every body gave back what it took: each key's whole share is free, and so is the room.
        for (String key : keys) {
            BodyBudget.Reservation whole = budget.open(key);
            assertDoesNotThrow(() -> whole.grow(400));
            whole.close();
        }
        BodyBudget.Reservation a = budget.open("key-a");
        BodyBudget.Reservation b = budget.open("key-b");
        BodyBudget.Reservation c = budget.open("key-c");
        assertDoesNotThrow(() -> a.grow(400));
        assertDoesNotThrow(() -> b.grow(400));
        assertDoesNotThrow(() -> c.grow(200));
        assertEquals(503, assertThrows(ApiException.class, () -> c.grow(1)).error().status().code());
    }
}

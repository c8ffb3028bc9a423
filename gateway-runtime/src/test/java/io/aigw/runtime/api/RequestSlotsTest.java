package io.aigw.runtime.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class RequestSlotsTest {

    @Test
    void theLastFreeSlotsGoOnlyToKeysHoldingFewerThanTheReserve() {
        RequestSlots slots = new RequestSlots(4, 1);
        List<RequestSlots.Admission.Taken> busyKeys = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            busyKeys.add(assertInstanceOf(RequestSlots.Admission.Taken.class, slots.take("key-a")));
        }

        // One slot is free, the reserve: not for key-a, which holds three.
        assertEquals(3, assertInstanceOf(RequestSlots.Admission.KeyBeyondReserve.class, slots.take("key-a")).held());
        RequestSlots.Admission.Taken other = assertInstanceOf(RequestSlots.Admission.Taken.class, slots.take("key-b"));
        assertInstanceOf(RequestSlots.Admission.Full.class, slots.take("key-c"));

        // A slot given back is the reserve again: key-b holds one, as many as the reserve, key-c none.
        busyKeys.remove(0).close();
        assertInstanceOf(RequestSlots.Admission.KeyBeyondReserve.class, slots.take("key-b"));
        assertInstanceOf(RequestSlots.Admission.Taken.class, slots.take("key-c")).close();

        // Closing twice gives back one slot.
        other.close();
        other.close();
        busyKeys.forEach(RequestSlots.Admission.Taken::close);
        for (int i = 0; i < 3; i++) {
            assertInstanceOf(RequestSlots.Admission.Taken.class, slots.take("key-a"));
        }
        assertInstanceOf(RequestSlots.Admission.KeyBeyondReserve.class, slots.take("key-a"));
    }

    @Test
    void requestsTakingAndGivingAtOnceNeverHoldMoreThanTheSlotsAndLeaveThemAll() throws InterruptedException {
        RequestSlots slots = new RequestSlots(8, 2);
        String[] keys = {"key-a", "key-b", "key-c"};
        // Counted after a slot is taken and before it is given back: never more than are really held.
        AtomicInteger inFlight = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 16; t++) {
            threads.add(Thread.ofVirtual().start(() -> {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                for (int i = 0; i < 20_000; i++) {
                    if (slots.take(keys[random.nextInt(keys.length)]) instanceof RequestSlots.Admission.Taken slot) {
                        most.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
                        if (random.nextInt(8) == 0) {
                            Thread.yield();
                        }
                        inFlight.decrementAndGet();
                        slot.close();
                    }
                }
            }));
        }
        for (Thread thread : threads) {
            thread.join();
        }

        assertTrue(most.get() <= 8, most + " requests held 8 slots");
        // Every slot and every key's count came back: one key takes all but the reserve, as at the start.
        for (int i = 0; i < 6; i++) {
            assertInstanceOf(RequestSlots.Admission.Taken.class, slots.take("key-a"));
        }
        assertInstanceOf(RequestSlots.Admission.KeyBeyondReserve.class, slots.take("key-a"));
        assertInstanceOf(RequestSlots.Admission.Taken.class, slots.take("key-b"));
        assertInstanceOf(RequestSlots.Admission.Taken.class, slots.take("key-c"));
        assertInstanceOf(RequestSlots.Admission.Full.class, slots.take("key-b"));
    }
}

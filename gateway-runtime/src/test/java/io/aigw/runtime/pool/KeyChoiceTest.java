package io.aigw.runtime.pool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.plugin.UpstreamKey;
import io.aigw.spi.UpstreamApi;
import java.net.URI;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The choice of a key among a pool's, and a probe's one call at a time. */
public final class KeyChoiceTest {
    private static final List<UpstreamKey> KEYS = List.of(key("a", 1, OptionalLong.empty()),
            key("b", 1, OptionalLong.empty()), key("c", 2, OptionalLong.empty()));

    @Test
    void sessionsSpreadByWeightAndAKeyThatLeavesMovesOnlyItsOwnSessions() {
        KeyState[] states = {new KeyState(), new KeyState(), new KeyState()};
        long now = System.currentTimeMillis();
        Map<String, Integer> before = new HashMap<>();
        int[] counts = new int[3];
        for (int i = 0; i < 4000; i++) {
            int chosen = KeyChoice.choose(KEYS, states, now, "session-" + i, Set.of(), new SplittableRandom(i));
            before.put("session-" + i, chosen);
            counts[chosen]++;
        }
        // 1000, 1000 and 2000 expected; the deviations are 27 to 32.
        assertTrue(Math.abs(counts[0] - 1000) < 150 && Math.abs(counts[1] - 1000) < 150
                && Math.abs(counts[2] - 2000) < 150, counts[0] + " " + counts[1] + " " + counts[2]);

        states[1].coolUntil(now + 60_000, "429", now);
        for (Map.Entry<String, Integer> session : before.entrySet()) {
            int chosen = KeyChoice.choose(KEYS, states, now, session.getKey(), Set.of(), new SplittableRandom(1));
            if (session.getValue() == 1) {
                assertTrue(chosen != 1, session.getKey() + " stayed on the cooling key");
            } else {
                assertEquals(session.getValue(), chosen, session.getKey() + " moved though its key is healthy");
            }
        }
    }

    @Test
    void aKeyAtItsRpmGoesLastAndAKeyTriedAlreadyNotAgain() {
        List<UpstreamKey> keys = List.of(key("full", 100, OptionalLong.of(1)), key("room", 1, OptionalLong.empty()));
        KeyState[] states = {new KeyState(), new KeyState()};
        long now = System.currentTimeMillis();
        states[0].take(now);
        states[0].release(false);

        for (int i = 0; i < 50; i++) {
            assertEquals(1, KeyChoice.choose(keys, states, now, null, Set.of(), new SplittableRandom(i)));
        }
        assertEquals(0, KeyChoice.choose(keys, states, now, null, Set.of("room"), new SplittableRandom(1)));
        assertEquals(-1, KeyChoice.choose(keys, states, now, null, Set.of("room", "full"), new SplittableRandom(1)));
    }

    @Test
    void aKeyOnProbationTakesOneCallAtATime() {
        KeyState state = new KeyState();
        long now = System.currentTimeMillis();
        state.ejectUntil(now - 1);

        assertEquals(KeyHealth.PROBATION, state.health(now));
        assertEquals(KeyState.Taken.PROBING, state.take(now));
        assertEquals(KeyState.Taken.REFUSED, state.take(now));
        state.release(true);
        assertEquals(KeyState.Taken.PROBING, state.take(now));
        assertTrue(state.answered(5, now), "the probe's answer ends the probation");
        assertEquals(KeyHealth.HEALTHY, state.health(now));
    }

    private static UpstreamKey key(String name, int weight, OptionalLong rpm) {
        URI url = URI.create("http://127.0.0.1:9/v1");
        return new UpstreamKey(name, "sk-" + name, weight, url, Map.of(UpstreamApi.CHAT_COMPLETIONS, url), rpm,
                OptionalLong.empty());
    }
}

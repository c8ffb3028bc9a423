package io.aigw.runtime.pool;

import io.aigw.runtime.plugin.UpstreamKey;
import java.util.List;
import java.util.Set;
import java.util.random.RandomGenerator;

/**
 * Which of a provider's keys a call goes to. Among the keys that may be chosen (healthy, or on
 * probation with no probe under way) and were not tried for this request, those under their
 * {@code rpm}/{@code tpm} first:
 * <ul>
 * <li>a request of a session goes to the key of highest weighted rendezvous score for the session
 *     ({@code -weight / ln(hash(session, key))}): the same key for every turn while it may be chosen,
 *     the next one by score while it may not, back when it may again; sessions spread over the keys
 *     by weight, and a key that leaves moves only its own sessions;</li>
 * <li>any other request draws two keys at random by weight and takes the less loaded, calls in
 *     flight per unit of weight, the first drawn on a tie (Envoy's least-request): by weight when
 *     the keys are equally loaded, away from a slow key when they are not.</li>
 * </ul>
 */
final class KeyChoice {

    private KeyChoice() {
    }

    /**
     * Returns the index in {@code keys} of the key chosen, or -1 when none may be.
     *
     * @param states  the keys' states, in the order of {@code keys}
     * @param session the request's session, or null
     * @param tried   the names of the keys this request tried already
     */
    static int choose(List<UpstreamKey> keys, KeyState[] states, long now, String session, Set<String> tried,
                      RandomGenerator random) {
        int n = keys.size();
        int[] candidates = new int[n];
        int count = 0;
        int atLimits = 0;
        // Under their limits to the front, at their limits to the back: the latter only when no other is left.
        int[] limited = new int[n];
        for (int i = 0; i < n; i++) {
            if (!states[i].choosable(now) || !tried.isEmpty() && tried.contains(keys.get(i).name())) {
                continue;
            }
            if (states[i].atItsLimits(keys.get(i), now)) {
                limited[atLimits++] = i;
            } else {
                candidates[count++] = i;
            }
        }
        if (count == 0) {
            candidates = limited;
            count = atLimits;
        }
        if (count == 0) {
            return -1;
        }
        if (count == 1) {
            return candidates[0];
        }
        return session != null ? bySession(keys, candidates, count, session)
                : lessLoadedOfTwo(keys, states, candidates, count, random);
    }

    private static int bySession(List<UpstreamKey> keys, int[] candidates, int count, String session) {
        long sessionHash = mix(session.hashCode() * 0x9E3779B97F4A7C15L);
        int best = -1;
        double bestScore = Double.NEGATIVE_INFINITY;
        for (int c = 0; c < count; c++) {
            UpstreamKey key = keys.get(candidates[c]);
            long hash = mix(sessionHash ^ key.name().hashCode());
            // A uniform draw in (0, 1) from the hash's top 53 bits.
            double uniform = ((hash >>> 11) + 0.5) / (1L << 53);
            double score = -key.weight() / Math.log(uniform);
            if (score > bestScore) {
                bestScore = score;
                best = candidates[c];
            }
        }
        return best;
    }

    private static int lessLoadedOfTwo(List<UpstreamKey> keys, KeyState[] states, int[] candidates, int count,
                                       RandomGenerator random) {
        long total = 0;
        for (int c = 0; c < count; c++) {
            total += keys.get(candidates[c]).weight();
        }
        int first = draw(keys, candidates, count, random.nextLong(total), -1);
        int second = draw(keys, candidates, count, random.nextLong(total - keys.get(first).weight()), first);
        long firstLoad = (long) states[first].inFlight() * keys.get(second).weight();
        long secondLoad = (long) states[second].inFlight() * keys.get(first).weight();
        return secondLoad < firstLoad ? second : first;
    }

    /** The candidate at {@code point} of the weights laid end to end, {@code skipped} left out. */
    private static int draw(List<UpstreamKey> keys, int[] candidates, int count, long point, int skipped) {
        long at = point;
        int last = -1;
        for (int c = 0; c < count; c++) {
            if (candidates[c] == skipped) {
                continue;
            }
            last = candidates[c];
            at -= keys.get(last).weight();
            if (at < 0) {
                return last;
            }
        }
        return last;
    }

    /** Stafford's variant 13 of MurmurHash3's finalizer: every bit of the input moves every bit of the output. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}

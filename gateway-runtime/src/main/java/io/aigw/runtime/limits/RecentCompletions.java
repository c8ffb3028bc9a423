package io.aigw.runtime.limits;

import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What each model's recent answers wrote, for the output part of a request's token estimate when
 * the request sets no {@code max_completion_tokens}: the 95th percentile of the completion tokens
 * of the model's last {@value #WINDOW} whole answers, never more than the model's output cap. A
 * model with fewer than {@value #MIN_ANSWERS} answers counted here is estimated at
 * {@value #DEFAULT_TOKENS} tokens (its cap when that is lower): reserving the whole cap would refuse
 * every plain call of a model that may write 100 000 tokens to any key whose {@code tpm} is below
 * that, though its answers seldom pass a few thousand.
 *
 * <p>Counted per process, keyed by the model id as callers write it. At most {@value #MAX_MODELS}
 * models are followed (a few KB each); a model seen after that keeps the default. Reading an
 * estimate is one map lookup and one volatile read; counting an answer moves a part of one model's window.
 */
public final class RecentCompletions {
    /** The answers per model the percentile is taken over. */
    static final int WINDOW = 128;
    /** Fewer answers than this say too little about a model: the default stands. */
    static final int MIN_ANSWERS = 20;
    /** The estimate of a model with too few answers counted. */
    public static final long DEFAULT_TOKENS = 4096;
    static final int MAX_MODELS = 1024;

    private final Map<String, Model> models = new ConcurrentHashMap<>();

    /**
     * The tokens a request for {@code model} that sets no maximum is expected to write, at most
     * {@code cap}.
     */
    public OutputEstimate estimate(String model, long cap) {
        Model recent = models.get(model);
        long percentile = recent == null ? -1 : recent.percentile;
        if (percentile < 0) {
            return new OutputEstimate(Math.min(DEFAULT_TOKENS, cap), OutputEstimate.Source.DEFAULT);
        }
        return new OutputEstimate(Math.min(percentile, cap), OutputEstimate.Source.RECENT_ANSWERS);
    }

    /** Counts a whole answer of {@code model} that reported writing {@code completionTokens}. */
    public void answered(String model, long completionTokens) {
        if (completionTokens < 0) {
            return;
        }
        Model recent = models.get(model);
        if (recent == null) {
            if (models.size() >= MAX_MODELS) {
                return;
            }
            recent = models.computeIfAbsent(model, id -> new Model());
        }
        recent.add(completionTokens);
    }

    /**
     * One model's last answers, a ring, and the same answers kept in order: counting one moves the
     * answers between the one it replaces and itself by one place, instead of sorting the window.
     */
    private static final class Model {
        private final long[] window = new long[WINDOW];
        private final long[] sorted = new long[WINDOW];
        private int counted;
        /** The 95th percentile of the window; -1 while it holds fewer than {@link #MIN_ANSWERS} answers. */
        private volatile long percentile = -1;

        synchronized void add(long tokens) {
            int slot = counted % WINDOW;
            int size = Math.min(counted, WINDOW);
            if (size == WINDOW) {
                replace(window[slot], tokens);
            } else {
                insert(tokens, size);
                size++;
            }
            window[slot] = tokens;
            counted = counted == Integer.MAX_VALUE ? WINDOW : counted + 1;
            if (size < MIN_ANSWERS) {
                return;
            }
            // The nearest rank: the smallest count that at least 95 in 100 answers stayed within.
            percentile = sorted[(size * 95 + 99) / 100 - 1];
        }

        /** Puts {@code tokens} in order among the first {@code size} sorted answers. */
        private void insert(long tokens, int size) {
            int at = insertionPoint(tokens, 0, size);
            System.arraycopy(sorted, at, sorted, at + 1, size - at);
            sorted[at] = tokens;
        }

        /** Replaces one answer of {@code evicted} tokens in the full window with {@code tokens}. */
        private void replace(long evicted, long tokens) {
            int from = Arrays.binarySearch(sorted, 0, WINDOW, evicted);
            if (tokens > evicted) {
                // The answers after the evicted one up to the new one's place move down by one.
                int to = insertionPoint(tokens, from + 1, WINDOW) - 1;
                System.arraycopy(sorted, from + 1, sorted, from, to - from);
                sorted[to] = tokens;
            } else if (tokens < evicted) {
                int to = insertionPoint(tokens, 0, from);
                System.arraycopy(sorted, to, sorted, to + 1, from - to);
                sorted[to] = tokens;
            }
        }

        /** Where {@code tokens} goes among {@code sorted[from, to)}: after any equal answers. */
        private int insertionPoint(long tokens, int from, int to) {
            int found = Arrays.binarySearch(sorted, from, to, tokens);
            return found < 0 ? -found - 1 : found + 1;
        }
    }
}

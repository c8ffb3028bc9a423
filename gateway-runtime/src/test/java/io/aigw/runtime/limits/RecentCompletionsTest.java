package io.aigw.runtime.limits;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The output estimate of a request without a maximum: from its model's recent answers, within its cap. */
public final class RecentCompletionsTest {

    @Test
    void aModelWithFewerThan20AnswersIsEstimatedAtTheDefaultWithinItsCap() {
        RecentCompletions recent = new RecentCompletions();
        for (int i = 0; i < 19; i++) {
            recent.answered("openai/gpt-5", 50_000);
        }

        assertEquals(new OutputEstimate(4096, OutputEstimate.Source.DEFAULT), recent.estimate("openai/gpt-5", 128_000));
        assertEquals(new OutputEstimate(1000, OutputEstimate.Source.DEFAULT), recent.estimate("openai/gpt-5", 1000));
        assertEquals(new OutputEstimate(4096, OutputEstimate.Source.DEFAULT), recent.estimate("never/seen", 128_000));
    }

    @Test
    void fromThe20thAnswerTheEstimateIsThe95thPercentileOfTheLast128WithinTheCap() {
        RecentCompletions recent = new RecentCompletions();
        for (int i = 1; i <= 20; i++) {
            recent.answered("m", i * 100);
        }
        assertEquals(new OutputEstimate(1900, OutputEstimate.Source.RECENT_ANSWERS), recent.estimate("m", 128_000));
        assertEquals(new OutputEstimate(1500, OutputEstimate.Source.RECENT_ANSWERS), recent.estimate("m", 1500));

        for (int i = 0; i < 128; i++) {
            recent.answered("m", 10);
        }
        assertEquals(10, recent.estimate("m", 128_000).tokens(), "the old answers have left the window");

        for (int i = 0; i < 7; i++) {
            recent.answered("m", 9000);
        }
        assertEquals(9000, recent.estimate("m", 128_000).tokens(), "7 of 128 above: past the 95th percentile");
    }

    @Test
    void answersWithoutReportedTokensAreNotCountedAndModelsPastTheBoundKeepTheDefault() {
        RecentCompletions recent = new RecentCompletions();
        for (int model = 0; model < RecentCompletions.MAX_MODELS + 1; model++) {
            for (int i = 0; i < 20; i++) {
                recent.answered("m" + model, 100);
                recent.answered("m" + model, -1);
            }
        }

        assertEquals(100, recent.estimate("m0", 128_000).tokens());
        assertEquals(100, recent.estimate("m" + (RecentCompletions.MAX_MODELS - 1), 128_000).tokens());
        assertEquals(4096, recent.estimate("m" + RecentCompletions.MAX_MODELS, 128_000).tokens());
    }

    @Test
    void afterEveryAnswerTheEstimateIsTheNearestRankOfTheWindowSorted() {
        RecentCompletions recent = new RecentCompletions();
        Deque<Long> window = new ArrayDeque<>();
        Random random = new Random(50);
        for (int i = 0; i < 3000; i++) {
            // Runs of equal answers, few distinct ones, and a wide spread, in turn.
            long tokens = switch (i / 500 % 3) {
                case 0 -> 300;
                case 1 -> random.nextInt(8) * 100;
                default -> random.nextInt(100_000);
            };
            recent.answered("m", tokens);
            window.addLast(tokens);
            if (window.size() > 128) {
                window.removeFirst();
            }
            if (window.size() >= 20) {
                long[] sorted = window.stream().mapToLong(Long::longValue).sorted().toArray();
                long nearestRank = sorted[(int) Math.ceil(sorted.length * 0.95) - 1];
                assertEquals(nearestRank, recent.estimate("m", Long.MAX_VALUE).tokens(), "after answer " + i);
            }
        }
    }
}

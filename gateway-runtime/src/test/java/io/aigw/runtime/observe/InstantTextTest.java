package io.aigw.runtime.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class InstantTextTest {
    @Test
    void writesWhatToStringWrites() {
        long second = 1_796_508_000L;
        for (Instant time : new Instant[] {
                Instant.ofEpochSecond(second), Instant.ofEpochSecond(second, 1),
                Instant.ofEpochSecond(second, 120_000_000), Instant.ofEpochSecond(second, 7_000_000),
                Instant.ofEpochSecond(second, 123_456_000), Instant.ofEpochSecond(second, 4_000),
                Instant.ofEpochSecond(second, 123_456_789), Instant.ofEpochSecond(second, 999_999_999),
                Instant.ofEpochSecond(second + 1, 500_000_000), Instant.ofEpochSecond(second, 10),
                Instant.ofEpochSecond(-1, 250_000_000), Instant.EPOCH, Instant.ofEpochSecond(253_402_300_800L, 5)}) {
            assertEquals(time.toString(), written(time));
        }
    }

    @Test
    void writesAnyInstantOfTheseYearsAsToStringDoes() {
        SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < 20_000; i++) {
            // Seconds a few apart and far apart, so that the kept second is both reused and replaced.
            long second = i % 2 == 0 ? 1_796_508_000L + random.nextInt(4) : random.nextLong(0, 4_102_444_800L);
            int nanos = switch (i % 3) {
                case 0 -> random.nextInt(1_000) * 1_000_000;
                case 1 -> random.nextInt(1_000_000) * 1_000;
                default -> random.nextInt(1_000_000_000);
            };
            Instant time = Instant.ofEpochSecond(second, nanos);
            assertEquals(time.toString(), written(time));
        }
    }

    private static String written(Instant time) {
        StringBuilder out = new StringBuilder("x");
        InstantText.append(out, time);
        return out.substring(1);
    }
}

package io.aigw.runtime.observe;

import java.time.Instant;

/**
 * Writes an instant as {@link Instant#toString} does ({@code 2026-12-05T21:34:47.123456Z}), its
 * date and time of day reused from the last second written: the access log writes one per line,
 * and {@code toString} formats the whole of it through a {@code DateTimeFormatter} each time, a
 * third of a microsecond of the log writer's CPU a line.
 */
final class InstantText {
    /** The last second written, as {@code toString} writes a whole second, without its {@code Z}. */
    private record Second(long epochSecond, String text) {
        static Second of(long epochSecond) {
            String whole = Instant.ofEpochSecond(epochSecond).toString();
            return new Second(epochSecond, whole.substring(0, whole.length() - 1));
        }
    }

    /** Replaced whole, so that a thread reads a second and its text that belong together. */
    private static volatile Second last = Second.of(0);

    private InstantText() {
    }

    static void append(StringBuilder out, Instant time) {
        Second second = last;
        if (second.epochSecond() != time.getEpochSecond()) {
            second = Second.of(time.getEpochSecond());
            last = second;
        }
        out.append(second.text());
        appendFraction(out, time.getNano());
        out.append('Z');
    }

    /** As {@code DateTimeFormatter.ISO_INSTANT}: none for a whole second, else in groups of three digits. */
    private static void appendFraction(StringBuilder out, int nanos) {
        if (nanos == 0) {
            return;
        }
        int digits = 9;
        int value = nanos;
        // Whole milliseconds or microseconds leave out their trailing zeros; below a second, at most twice.
        while (value % 1_000 == 0) {
            value /= 1_000;
            digits -= 3;
        }
        out.append('.').repeat('0', digits);
        for (int at = out.length() - 1; value > 0; at--, value /= 10) {
            out.setCharAt(at, (char) ('0' + value % 10));
        }
    }
}

package io.aigw.runtime.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** A budget's period as the limiters count it and a refusal words it, around a month's end. */
final class BudgetPeriodTest {
    private static final Instant LAST_MOMENT_OF_JANUARY = Instant.parse("2026-01-31T23:59:59.999Z");
    private static final Instant FIRST_OF_FEBRUARY = Instant.parse("2026-02-01T00:00:00Z");

    @Test
    void aNewDayAndANewMonthStartNewCountsAndALifetimeNever() {
        assertEquals("day:" + Instant.parse("2026-01-31T00:00:00Z").toEpochMilli(),
                BudgetPeriod.DAY.countName(LAST_MOMENT_OF_JANUARY));
        assertEquals("day:" + FIRST_OF_FEBRUARY.toEpochMilli(), BudgetPeriod.DAY.countName(FIRST_OF_FEBRUARY));
        assertEquals("month:" + Instant.parse("2026-01-01T00:00:00Z").toEpochMilli(),
                BudgetPeriod.MONTH.countName(LAST_MOMENT_OF_JANUARY));
        assertEquals("month:" + FIRST_OF_FEBRUARY.toEpochMilli(), BudgetPeriod.MONTH.countName(FIRST_OF_FEBRUARY));
        assertEquals("life", BudgetPeriod.LIFETIME.countName(LAST_MOMENT_OF_JANUARY));
        assertEquals("life", BudgetPeriod.LIFETIME.countName(FIRST_OF_FEBRUARY));
    }

    @Test
    void aRefusalSaysWhatTheBudgetIsSpentOver() {
        assertEquals("a day (UTC)", BudgetPeriod.DAY.phrase());
        assertEquals("a month (UTC)", BudgetPeriod.MONTH.phrase());
        assertEquals("in all", BudgetPeriod.LIFETIME.phrase());
    }
}

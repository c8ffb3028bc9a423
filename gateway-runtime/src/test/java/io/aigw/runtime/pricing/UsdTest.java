package io.aigw.runtime.pricing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

final class UsdTest {

    @Test
    void dollarsAreRoundedOnceToTheNanoDollarHalfToEven() {
        assertEquals(new Usd(13_347_500), Usd.of(new BigDecimal("0.0133475")));
        assertEquals(new Usd(2), Usd.of(new BigDecimal("0.0000000015")));
        assertEquals(new Usd(2), Usd.of(new BigDecimal("0.0000000025")));
        assertEquals(new Usd(3), Usd.of(new BigDecimal("0.00000000250000001")));
        assertEquals(Usd.ZERO, Usd.of(new BigDecimal("4.9E-10")));
    }

    @Test
    void anAmountTooSmallOrTooLargeIsSettledWithoutArithmeticOnItsDigits() {
        assertEquals(Usd.ZERO, Usd.of(new BigDecimal("1e-999999999")));
        assertThrows(ArithmeticException.class, () -> Usd.of(new BigDecimal("1e999999999")));
        assertThrows(ArithmeticException.class, () -> Usd.of(new BigDecimal("9300000000")));
        assertEquals(new Usd(9_000_000_000_000_000_000L), Usd.of(new BigDecimal("9000000000")));
    }

    @Test
    void itIsWrittenAsAPlainDecimalAndAddsExactly() {
        assertEquals("0.003798000", new Usd(3_798_000).toString());
        assertEquals(new BigDecimal("1.522500000"), new Usd(1_522_500_000).dollars());
        assertEquals(new Usd(3), new Usd(1).plus(new Usd(2)));
        assertThrows(ArithmeticException.class, () -> new Usd(Long.MAX_VALUE).plus(new Usd(1)));
    }

    @Test
    void itsTextIsTheExactDecimalsPlainTextForEveryMagnitudeAndSign() {
        long[] amounts = {0, 1, 5, 9, 10, 999_999_999, 1_000_000_000, 1_000_000_001, 3_798_000, 120_000_000_000L,
            Long.MAX_VALUE, -1, -5, -999_999_999, -1_000_000_000, -1_500_000_000, Long.MIN_VALUE};
        for (long nanos : amounts) {
            Usd usd = new Usd(nanos);
            assertEquals(BigDecimal.valueOf(nanos, 9).toPlainString(), usd.toString(), "nanos " + nanos);
            assertEquals("cost=" + usd, usd.appendTo(new StringBuilder("cost=")).toString());
        }
    }

    @Test
    void itsShortestDollarsHaveNoTrailingZerosAndNoExponent() {
        assertEquals("20", new Usd(20_000_000_000L).shortestDollars().toString());
        assertEquals("0.25", new Usd(250_000_000).shortestDollars().toString());
        assertEquals("0", Usd.ZERO.shortestDollars().toString());
        assertEquals("0.000000001", new Usd(1).shortestDollars().toPlainString());
    }

    @Test
    void whatIsLeftAfterSpendingIsNeverBelowZero() {
        assertEquals(new Usd(7), new Usd(10).leftAfter(new Usd(3)));
        assertEquals(Usd.ZERO, new Usd(10).leftAfter(new Usd(10)));
        assertEquals(Usd.ZERO, new Usd(10).leftAfter(new Usd(25)));
    }
}

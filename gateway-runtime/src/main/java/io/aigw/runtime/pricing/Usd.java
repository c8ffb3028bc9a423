package io.aigw.runtime.pricing;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * An amount of US dollars as a whole number of nano-dollars (10<sup>-9</sup> USD).
 *
 * <p>A {@code long}, not a {@code BigDecimal}: a fixed-size integer sums exactly in Java and in
 * both databases (SQLite has no exact decimal type, and its {@code REAL} would bring back the drift
 * of {@code double}), and takes no allocation to add. A nano-dollar is finer than any per-token
 * price in the shipped catalogues (the cheapest, USD 0.005 per million tokens, is 5 nano-dollars a
 * token), so a cost from a rate of up to three decimal places per million tokens is exact; a finer
 * rate or reported cost is rounded once per request, half to even. A {@code long} holds up to about
 * USD 9.2 billion.
 */
public record Usd(long nanos) implements Comparable<Usd> {
    public static final Usd ZERO = new Usd(0);
    private static final int SCALE = 9;
    private static final long NANOS_PER_DOLLAR = 1_000_000_000L;

    /**
     * The amount nearest to {@code dollars}, half to even.
     *
     * @throws ArithmeticException when it is beyond what a {@code long} of nano-dollars holds
     */
    public static Usd of(BigDecimal dollars) {
        if (dollars.signum() == 0) {
            return ZERO;
        }
        // The decimal exponent of the leading digit, read off without arithmetic on the value, so
        // that a number such as 1e-999999999 cannot make setScale build a huge power of ten.
        long exponent = (long) dollars.precision() - dollars.scale() - 1;
        if (exponent < -SCALE - 1) {
            return ZERO;
        }
        if (exponent >= 10) {
            throw new ArithmeticException("USD " + dollars + " is more than a long of nano-dollars holds");
        }
        return new Usd(dollars.setScale(SCALE, RoundingMode.HALF_EVEN).unscaledValue().longValueExact());
    }

    /** The sum; throws {@link ArithmeticException} past what a {@code long} holds. */
    public Usd plus(Usd other) {
        return new Usd(Math.addExact(nanos, other.nanos));
    }

    /** What is left of this amount once {@code spent} is taken from it: never below zero. */
    public Usd leftAfter(Usd spent) {
        return new Usd(Math.max(0, nanos - spent.nanos));
    }

    /** The amount in dollars, exactly: nine decimal places. */
    public BigDecimal dollars() {
        return BigDecimal.valueOf(nanos, SCALE);
    }

    /**
     * The amount in dollars in as few digits as it takes, as people write a budget: {@code 0.25},
     * {@code 20}, never {@code 20.000000000} nor {@code 2E+1}.
     */
    public BigDecimal shortestDollars() {
        BigDecimal dollars = dollars().stripTrailingZeros();
        return dollars.scale() < 0 ? dollars.setScale(0) : dollars;
    }

    @Override
    public int compareTo(Usd other) {
        return Long.compare(nanos, other.nanos);
    }

    /** The amount in dollars, for a metric: a {@code double} is fine for a rate on a dashboard, never for a sum. */
    public double approximateDollars() {
        return nanos / (double) NANOS_PER_DOLLAR;
    }

    /** Appends what {@link #toString()} returns, without making a string or a {@code BigDecimal}. */
    public StringBuilder appendTo(StringBuilder text) {
        long whole = nanos / NANOS_PER_DOLLAR;
        long fraction = Math.abs(nanos % NANOS_PER_DOLLAR);
        if (nanos < 0 && whole == 0) {
            text.append('-');
        }
        text.append(whole).append('.');
        for (long digit = NANOS_PER_DOLLAR / 10; digit > fraction && digit > 1; digit /= 10) {
            text.append('0');
        }
        return text.append(fraction);
    }

    /** Dollars with nine decimal places, {@code 0.003798000}: never in scientific notation. */
    @Override
    public String toString() {
        return appendTo(new StringBuilder(24)).toString();
    }
}

package io.aigw.runtime.pricing;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Objects;

/**
 * What a model charges for a million tokens of each kind, in US dollars, exactly as its price list
 * writes it, without trailing zeros (so that {@code 1.50} and {@code 1.5} are equal rates). Every
 * rate is present: the rates a price list leaves out take the rate that applies to such tokens when
 * the provider does not price them apart ({@link #of}).
 *
 * @param input       a prompt token read neither from nor into a cache
 * @param cachedInput a prompt token read from the provider's cache
 * @param cacheWrite  a prompt token written into the provider's cache
 * @param output      a completion token that is not a reasoning token
 * @param reasoning   a reasoning ("thinking") token
 */
public record Rates(BigDecimal input, BigDecimal cachedInput, BigDecimal cacheWrite, BigDecimal output,
                    BigDecimal reasoning) {

    public Rates {
        input = requireRate("input", input);
        cachedInput = requireRate("cached_input", cachedInput);
        cacheWrite = requireRate("cache_write", cacheWrite);
        output = requireRate("output", output);
        reasoning = requireRate("reasoning", reasoning);
    }

    /**
     * The rates of a price list that may leave some out: a cache read or write left out costs what an
     * input token costs, a reasoning token what an output token costs.
     *
     * @param cachedInput null where not priced apart
     * @param cacheWrite  null where not priced apart
     * @param reasoning   null where not priced apart
     */
    public static Rates of(BigDecimal input, BigDecimal cachedInput, BigDecimal cacheWrite, BigDecimal output,
                           BigDecimal reasoning) {
        return new Rates(input, cachedInput != null ? cachedInput : input, cacheWrite != null ? cacheWrite : input,
                output, reasoning != null ? reasoning : output);
    }

    /**
     * The cost of the tokens, in US dollars, exactly: {@code tokens × rate / 1 000 000} for each kind.
     */
    BigDecimal dollars(long uncached, long cached, long written, long output, long reasoning) {
        BigDecimal perMillion = times(uncached, input).add(times(cached, cachedInput))
                .add(times(written, cacheWrite)).add(times(output, this.output)).add(times(reasoning, this.reasoning));
        return perMillion.movePointLeft(6);
    }

    private static BigDecimal times(long tokens, BigDecimal rate) {
        return tokens == 0 ? BigDecimal.ZERO : BigDecimal.valueOf(tokens).multiply(rate, MathContext.UNLIMITED);
    }

    private static BigDecimal requireRate(String name, BigDecimal rate) {
        Objects.requireNonNull(rate, name);
        if (rate.signum() < 0) {
            throw new IllegalArgumentException("'" + name + "' must not be negative: " + rate.toPlainString());
        }
        return rate.stripTrailingZeros();
    }
}

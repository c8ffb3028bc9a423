package io.aigw.runtime.metering;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;

/**
 * Reads the token counts of a {@code usage} object straight from the answer's bytes, in one pass
 * over its members, skipping every other value; every non-streamed answer goes through here. Besides
 * the three counts it reads what a cost depends on: {@code prompt_tokens_details.cached_tokens} and
 * {@code .cache_write_tokens}, {@code completion_tokens_details.reasoning_tokens}, and a cost the
 * upstream reports ({@code cost}, {@code cost_in_usd_ticks}). By hand, since JSON-B or JSON-P take
 * several times as long for the same object and allocate over a hundred times as much
 * ({@code UsageReaderBenchmark}).
 *
 * <p>Reads only the usual shape: keys without escapes, counts written as plain integers, the two
 * details objects one level down. On anything else it gives up and returns null, and the caller
 * parses the object properly. Values it skips are not validated beyond their brackets, strings and
 * literals.
 */
final class UsageObjectReader extends JsonCursor<UsageObjectReader.Level> {
    private static final byte[] PROMPT_TOKENS = ascii("prompt_tokens");
    private static final byte[] COMPLETION_TOKENS = ascii("completion_tokens");
    private static final byte[] TOTAL_TOKENS = ascii("total_tokens");
    private static final byte[] PROMPT_DETAILS = ascii("prompt_tokens_details");
    private static final byte[] COMPLETION_DETAILS = ascii("completion_tokens_details");
    private static final byte[] CACHED_TOKENS = ascii("cached_tokens");
    private static final byte[] CACHE_WRITE_TOKENS = ascii("cache_write_tokens");
    private static final byte[] REASONING_TOKENS = ascii("reasoning_tokens");
    private static final byte[] COST = ascii("cost");
    private static final byte[] COST_TICKS = ascii("cost_in_usd_ticks");
    /** Up to 18 digits always fit a long. */
    private static final int MAX_DIGITS = 18;
    /** A cost written longer than this is left to the parser, whose own limits apply. */
    private static final int MAX_COST_LENGTH = 100;
    private static final long GIVE_UP = Long.MIN_VALUE;

    /** The object whose members are being read. */
    enum Level { USAGE, PROMPT_DETAILS, COMPLETION_DETAILS }

    private long prompt = -1;
    private long completion = -1;
    private long total = -1;
    private long cached = -1;
    private long cacheWrite = -1;
    private long reasoning = -1;
    private long costTicks = -1;
    private BigDecimal cost;

    private UsageObjectReader(byte[] json, int from, int end) {
        super(json, from, end);
    }

    /**
     * The counts of the object that starts at {@code from} (its opening brace), -1 for a count that
     * is absent or not a number; null where the object is not of the usual shape or is malformed.
     */
    static TokenUsage read(byte[] json, int from, int end) {
        UsageObjectReader reader = new UsageObjectReader(json, from, end);
        if (!reader.members(Level.USAGE)) {
            return null;
        }
        return new TokenUsage(reader.prompt, reader.completion, reader.total, reader.cached, reader.cacheWrite,
                reader.reasoning, ReportedUsage.reportedCost(reader.cost, reader.costTicks));
    }

    /**
     * Reads the value of the member named by {@code json[keyStart, keyEnd)} if it is one wanted, else
     * skips it; false to give up. A member given twice counts as its last value, as a parser keeps it.
     */
    @Override
    boolean value(Level level, int keyStart, int keyEnd) {
        switch (level) {
            case USAGE -> {
                if (is(PROMPT_TOKENS, keyStart, keyEnd)) {
                    return (prompt = count()) != GIVE_UP;
                }
                if (is(COMPLETION_TOKENS, keyStart, keyEnd)) {
                    return (completion = count()) != GIVE_UP;
                }
                if (is(TOTAL_TOKENS, keyStart, keyEnd)) {
                    return (total = count()) != GIVE_UP;
                }
                if (is(PROMPT_DETAILS, keyStart, keyEnd)) {
                    cached = -1;
                    cacheWrite = -1;
                    return details(Level.PROMPT_DETAILS);
                }
                if (is(COMPLETION_DETAILS, keyStart, keyEnd)) {
                    reasoning = -1;
                    return details(Level.COMPLETION_DETAILS);
                }
                if (is(COST, keyStart, keyEnd)) {
                    return cost();
                }
                if (is(COST_TICKS, keyStart, keyEnd)) {
                    return (costTicks = count()) != GIVE_UP;
                }
            }
            case PROMPT_DETAILS -> {
                if (is(CACHED_TOKENS, keyStart, keyEnd)) {
                    return (cached = count()) != GIVE_UP;
                }
                if (is(CACHE_WRITE_TOKENS, keyStart, keyEnd)) {
                    return (cacheWrite = count()) != GIVE_UP;
                }
            }
            case COMPLETION_DETAILS -> {
                if (is(REASONING_TOKENS, keyStart, keyEnd)) {
                    return (reasoning = count()) != GIVE_UP;
                }
            }
        }
        return skipValue();
    }

    /** A details object is read member by member; anything else in its place ({@code null}) is skipped. */
    private boolean details(Level level) {
        return isAt('{') ? members(level) : skipValue();
    }

    /**
     * A cost in dollars: the number here, read exactly; another kind of value is no cost. False to
     * give up on a malformed or unusually long number.
     */
    private boolean cost() {
        cost = null;
        if (at >= end || (json[at] != '-' && !isDigit(json[at]))) {
            return skipValue();
        }
        int numberEnd = numberEnd(at);
        if (numberEnd < 0 || numberEnd - at > MAX_COST_LENGTH) {
            return false;
        }
        cost = new BigDecimal(new String(json, at, numberEnd - at, StandardCharsets.US_ASCII));
        at = numberEnd;
        return true;
    }

    /** A count: the integer here, -1 for another kind of value, GIVE_UP for another number or a malformed value. */
    private long count() {
        if (at >= end || (json[at] != '-' && !isDigit(json[at]))) {
            return skipValue() ? -1 : GIVE_UP;
        }
        boolean negative = json[at] == '-';
        int digits = negative ? at + 1 : at;
        int i = digits;
        long value = 0;
        while (i < end && isDigit(json[i])) {
            value = value * 10 + (json[i] - '0');
            i++;
        }
        int length = i - digits;
        boolean fraction = i < end && (json[i] == '.' || json[i] == 'e' || json[i] == 'E');
        if (length == 0 || length > MAX_DIGITS || fraction || (json[digits] == '0' && length > 1)) {
            return GIVE_UP;
        }
        at = i;
        return negative ? -value : value;
    }
}

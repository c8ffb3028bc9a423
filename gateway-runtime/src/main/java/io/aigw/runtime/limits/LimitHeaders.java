package io.aigw.runtime.limits;

import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerResponse;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * The {@code x-ratelimit-*} headers OpenAI's SDKs read, for the limits a key has: the requests
 * three when it has an {@code rpm}, the tokens three when it has a {@code tpm}. Resets are written
 * as OpenAI writes them, a duration such as {@code 12.5s} or {@code 250ms}. On the Anthropic surface
 * the same three and three as Anthropic's API names them ({@code anthropic-ratelimit-*}), the reset
 * as the time it comes, in RFC 3339.
 */
public final class LimitHeaders {
    public static final HeaderName LIMIT_REQUESTS = HeaderNames.create("x-ratelimit-limit-requests");
    public static final HeaderName REMAINING_REQUESTS = HeaderNames.create("x-ratelimit-remaining-requests");
    public static final HeaderName RESET_REQUESTS = HeaderNames.create("x-ratelimit-reset-requests");
    public static final HeaderName LIMIT_TOKENS = HeaderNames.create("x-ratelimit-limit-tokens");
    public static final HeaderName REMAINING_TOKENS = HeaderNames.create("x-ratelimit-remaining-tokens");
    public static final HeaderName RESET_TOKENS = HeaderNames.create("x-ratelimit-reset-tokens");
    public static final HeaderName ANTHROPIC_LIMIT_REQUESTS = HeaderNames.create("anthropic-ratelimit-requests-limit");
    public static final HeaderName ANTHROPIC_REMAINING_REQUESTS =
            HeaderNames.create("anthropic-ratelimit-requests-remaining");
    public static final HeaderName ANTHROPIC_RESET_REQUESTS = HeaderNames.create("anthropic-ratelimit-requests-reset");
    public static final HeaderName ANTHROPIC_LIMIT_TOKENS = HeaderNames.create("anthropic-ratelimit-tokens-limit");
    public static final HeaderName ANTHROPIC_REMAINING_TOKENS =
            HeaderNames.create("anthropic-ratelimit-tokens-remaining");
    public static final HeaderName ANTHROPIC_RESET_TOKENS = HeaderNames.create("anthropic-ratelimit-tokens-reset");

    private LimitHeaders() {
    }

    /** Puts the headers of {@code quota} on the answer. */
    public static void put(ServerResponse response, Quota quota) {
        String reset = duration(quota.resetMillis());
        if (quota.limits().rpm() > 0) {
            response.header(LIMIT_REQUESTS, Long.toString(quota.limits().rpm()));
            response.header(REMAINING_REQUESTS, Long.toString(quota.remainingRequests()));
            response.header(RESET_REQUESTS, reset);
        }
        if (quota.limits().tpm() > 0) {
            response.header(LIMIT_TOKENS, Long.toString(quota.limits().tpm()));
            response.header(REMAINING_TOKENS, Long.toString(quota.remainingTokens()));
            response.header(RESET_TOKENS, reset);
        }
    }

    /** Puts the headers of {@code quota} on the answer as Anthropic's API names them. */
    public static void putAnthropic(ServerResponse response, Quota quota) {
        String reset = Instant.now().plusMillis(Math.max(0, quota.resetMillis())).truncatedTo(ChronoUnit.SECONDS)
                .toString();
        if (quota.limits().rpm() > 0) {
            response.header(ANTHROPIC_LIMIT_REQUESTS, Long.toString(quota.limits().rpm()));
            response.header(ANTHROPIC_REMAINING_REQUESTS, Long.toString(quota.remainingRequests()));
            response.header(ANTHROPIC_RESET_REQUESTS, reset);
        }
        if (quota.limits().tpm() > 0) {
            response.header(ANTHROPIC_LIMIT_TOKENS, Long.toString(quota.limits().tpm()));
            response.header(ANTHROPIC_REMAINING_TOKENS, Long.toString(quota.remainingTokens()));
            response.header(ANTHROPIC_RESET_TOKENS, reset);
        }
    }

    /** Whole seconds to wait, at least one: what {@code Retry-After} takes. */
    public static String retryAfter(Quota quota) {
        return Long.toString(Math.max(1, (quota.resetMillis() + 999) / 1000));
    }

    static String duration(long millis) {
        if (millis < 1000) {
            return Math.max(0, millis) + "ms";
        }
        String seconds = Long.toString(millis / 1000);
        long rest = millis % 1000;
        if (rest == 0) {
            return seconds + "s";
        }
        String fraction = String.format("%03d", rest).replaceAll("0+$", "");
        return seconds + "." + fraction + "s";
    }
}

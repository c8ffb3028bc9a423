package io.aigw.runtime.exchange;

import io.aigw.runtime.auth.Caller;
import io.aigw.runtime.upstream.UpstreamRequest;
import io.helidon.common.context.Context;

/**
 * One request as the exchange takes it from an endpoint's adapter, whatever the endpoint: read
 * and validated, and never changed after.
 *
 * @param requestId       the request's id, sent upstream as {@code X-Request-Id}
 * @param caller          the key that asked, with its policies
 * @param model           the model the caller asked for, such as {@code openai/gpt-5}
 * @param maxOutputTokens the most the answer may write as the request sets it, or -1 when it sets none
 * @param body            the body exactly as the caller sent it
 * @param request         the body for each route it may be sent along
 * @param startedNanos    {@link System#nanoTime()} when the request came, before its body was read
 * @param context         the HTTP request's context, where a listener may leave what it keeps of the
 *                        exchange for the request's own end
 * @param requestEnd      told how the exchange ended, after the gateway's listeners: the request's own
 *                        end (its access log line) keeps it, without a lookup in the context
 */
public record Exchange(Endpoint endpoint, String requestId, Caller caller, String model, long maxOutputTokens,
                       byte[] body, UpstreamRequest request, long startedNanos, Context context,
                       ExchangeListener requestEnd) {

    /** Whether the caller asked for a stream of server-sent events. */
    public boolean stream() {
        return request.stream();
    }
}

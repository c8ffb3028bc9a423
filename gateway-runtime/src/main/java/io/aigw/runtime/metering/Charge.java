package io.aigw.runtime.metering;

import io.aigw.runtime.pricing.Cost;
import io.aigw.runtime.pricing.PriceBook;
import java.util.function.LongSupplier;

/**
 * What one chat completion is charged: the token counts its cost comes from and the cost, priced
 * by the table the request was routed with.
 *
 * <ul>
 *   <li>usage the upstream reported gives the cost: the cost it reported, else its counts at the
 *       model's price, whether the answer ended whole or not;</li>
 *   <li>a stream that reported no usage (cut by the caller or the upstream before its last chunk,
 *       or an upstream that does not send one), and a plain answer cut short after it began to
 *       reach the caller, are charged for what was relayed, estimated ({@link TextEstimate}): the
 *       prompt's text and the text relayed;</li>
 *   <li>a request no upstream billed costs nothing ({@link Cost.NotBilled}): none was tried (it
 *       used no tokens either), or the last one answered with an error status and no usage;</li>
 *   <li>anything else is unknown: a whole plain answer without usage.</li>
 * </ul>
 */
public record Charge(TokenUsage tokens, Cost cost) {
    /** What a request no provider was tried for used: nothing, counted, not unknown. */
    private static final TokenUsage NO_TOKENS = new TokenUsage(0, 0, 0);

    /** What a request that no provider was tried for, or a free one (a token count), is charged: nothing, for no tokens. */
    public static Charge nothing() {
        return new Charge(NO_TOKENS, new Cost.NotBilled());
    }

    /**
     * What a request is charged for the provider tried last.
     *
     * @param promptTextBytes the bytes of text in the request, read only for an estimate
     */
    public static Charge of(Metered last, PriceBook prices, LongSupplier promptTextBytes) {
        TokenUsage usage = last.usage();
        boolean counted = usage.promptTokens() >= 0 && usage.completionTokens() >= 0;
        if (counted || usage.reportedCost().isPresent()) {
            return new Charge(usage, prices.cost(last.provider(), last.upstreamModel(), usage));
        }
        if (last.chargedByText()) {
            long prompt = TextEstimate.tokens(promptTextBytes.getAsLong());
            long completion = TextEstimate.tokens(last.relayedTextBytes());
            TokenUsage estimate = new TokenUsage(prompt, completion, prompt + completion);
            return new Charge(estimate, prices.estimate(last.provider(), last.upstreamModel(), estimate));
        }
        if (last.refused()) {
            return new Charge(usage, new Cost.NotBilled());
        }
        return new Charge(usage, prices.cost(last.provider(), last.upstreamModel(), usage));
    }

    /** What a failed attempt that its upstream billed is charged: the usage it reported. */
    public static Charge billed(Metered attempt, PriceBook prices) {
        return new Charge(attempt.usage(), prices.cost(attempt.provider(), attempt.upstreamModel(), attempt.usage()));
    }
}

/**
 * Prices and the exact cost of a request.
 *
 * <p>A model's {@link io.aigw.runtime.pricing.ModelPrice} comes from its plugin's catalogue, or from
 * configuration, which wins; the {@link io.aigw.runtime.pricing.PriceBook} holds them all under one
 * version. A request's {@link io.aigw.runtime.pricing.Cost} is what its upstream reported it cost,
 * when the answer says ({@code usage.cost}, {@code usage.cost_in_usd_ticks}), else its reported
 * token counts ({@link io.aigw.runtime.pricing.MeteredUsage}) at its model's price, else unknown:
 * never zero for want of a price. Money is a whole number of nano-dollars
 * ({@link io.aigw.runtime.pricing.Usd}); rates are read and multiplied as exact decimals and the sum
 * is rounded once.
 *
 * <p>What a price here cannot say, and so a cost computed from one leaves out (a cost the upstream
 * reports includes it):
 * <ul>
 *   <li>charges that are not per token of a request: Gemini's context cache storage per hour,
 *       per-request fees, server-side tools such as web search;</li>
 *   <li>cache writes at more than one rate: Anthropic charges 1.25 times the input rate for a
 *       write into its 5-minute cache and twice it for its 1-hour cache; the Chat Completions usage
 *       does not tell them apart, so a catalogue prices every write at the 5-minute rate;</li>
 *   <li>batch, flex or priority processing, and any discount negotiated apart from the list price;</li>
 *   <li>image, audio and video tokens at rates of their own: they are charged as the prompt or
 *       completion tokens they are counted among.</li>
 * </ul>
 */
package io.aigw.runtime.pricing;

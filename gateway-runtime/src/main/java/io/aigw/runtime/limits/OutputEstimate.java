package io.aigw.runtime.limits;

/**
 * The tokens a request's answer is expected to write, reserved against its key's {@code tpm}, and
 * where that figure comes from, which a refusal names.
 */
public record OutputEstimate(long tokens, Source source) {

    /** Where an output estimate comes from. */
    public enum Source {
        /** The request's {@code max_completion_tokens} or {@code max_tokens}. */
        REQUEST("its max_completion_tokens"),
        /** The model's recent answers ({@link RecentCompletions}). */
        RECENT_ANSWERS("what the model's recent answers wrote"),
        /** Too few recent answers: {@link RecentCompletions#DEFAULT_TOKENS}, or the model's cap when lower. */
        DEFAULT("the gateway's default for a model without recent answers");

        private final String phrase;

        Source(String phrase) {
            this.phrase = phrase;
        }

        /** How a message names it: {@code its max_completion_tokens}. */
        public String phrase() {
            return phrase;
        }
    }

    /** The request set its own maximum. */
    public static OutputEstimate requested(long maxOutputTokens) {
        return new OutputEstimate(maxOutputTokens, Source.REQUEST);
    }
}

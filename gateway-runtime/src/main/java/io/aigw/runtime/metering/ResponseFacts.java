package io.aigw.runtime.metering;

import java.util.List;
import java.util.Optional;

/**
 * What an answer says of itself beside its usage, as tracing records it on an attempt's span
 * ({@code gen_ai.response.model}, {@code gen_ai.response.id}, {@code gen_ai.response.finish_reasons}).
 *
 * @param model         the model that answered, as the upstream names it
 * @param id            the answer's id: a completion's, a response's, a message's; none for embeddings
 * @param finishReasons why each generation stopped, in the order of the answer's choices: chat's
 *                      {@code finish_reason}s, Anthropic's {@code stop_reason}, a response's
 *                      {@code incomplete_details.reason} or else its {@code status}
 */
public record ResponseFacts(Optional<String> model, Optional<String> id, List<String> finishReasons) {
    public static final ResponseFacts NONE = new ResponseFacts(Optional.empty(), Optional.empty(), List.of());

    public ResponseFacts {
        finishReasons = List.copyOf(finishReasons);
    }

    /** These facts, with those {@code later} has in place of their own. */
    ResponseFacts then(ResponseFacts later) {
        return new ResponseFacts(later.model.or(() -> model), later.id.or(() -> id),
                later.finishReasons.isEmpty() ? finishReasons : later.finishReasons);
    }
}

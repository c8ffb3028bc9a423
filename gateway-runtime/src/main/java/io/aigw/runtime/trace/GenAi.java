package io.aigw.runtime.trace;

import io.aigw.runtime.exchange.Endpoint;
import io.opentelemetry.api.common.AttributeKey;
import java.util.List;

/**
 * The attributes of the OpenTelemetry GenAI semantic conventions that the spans carry
 * (semantic-conventions-genai v0.1.0, stability "development"), and the gateway's own, under
 * {@code aigw.}.
 */
final class GenAi {
    static final AttributeKey<String> OPERATION = AttributeKey.stringKey("gen_ai.operation.name");
    static final AttributeKey<String> PROVIDER = AttributeKey.stringKey("gen_ai.provider.name");
    static final AttributeKey<String> REQUEST_MODEL = AttributeKey.stringKey("gen_ai.request.model");
    static final AttributeKey<Boolean> REQUEST_STREAM = AttributeKey.booleanKey("gen_ai.request.stream");
    static final AttributeKey<String> RESPONSE_MODEL = AttributeKey.stringKey("gen_ai.response.model");
    static final AttributeKey<String> RESPONSE_ID = AttributeKey.stringKey("gen_ai.response.id");
    static final AttributeKey<List<String>> FINISH_REASONS =
            AttributeKey.stringArrayKey("gen_ai.response.finish_reasons");
    static final AttributeKey<Long> INPUT_TOKENS = AttributeKey.longKey("gen_ai.usage.input_tokens");
    static final AttributeKey<Long> OUTPUT_TOKENS = AttributeKey.longKey("gen_ai.usage.output_tokens");
    static final AttributeKey<Long> CACHE_READ_TOKENS = AttributeKey.longKey("gen_ai.usage.cache_read.input_tokens");
    static final AttributeKey<Long> CACHE_CREATION_TOKENS =
            AttributeKey.longKey("gen_ai.usage.cache_creation.input_tokens");
    static final AttributeKey<Long> REASONING_TOKENS = AttributeKey.longKey("gen_ai.usage.reasoning.output_tokens");
    /** Seconds from the start of the attempt to the first chunk of its answer sent to the caller. */
    static final AttributeKey<Double> TIME_TO_FIRST_CHUNK =
            AttributeKey.doubleKey("gen_ai.response.time_to_first_chunk");
    static final AttributeKey<String> TOKEN_TYPE = AttributeKey.stringKey("gen_ai.token.type");
    static final AttributeKey<String> SERVER_ADDRESS = AttributeKey.stringKey("server.address");
    static final AttributeKey<Long> SERVER_PORT = AttributeKey.longKey("server.port");
    static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");
    static final AttributeKey<Long> HTTP_STATUS = AttributeKey.longKey("http.response.status_code");
    static final AttributeKey<String> HTTP_METHOD = AttributeKey.stringKey("http.request.method");
    static final AttributeKey<String> HTTP_ROUTE = AttributeKey.stringKey("http.route");

    static final AttributeKey<String> KEY_ID = AttributeKey.stringKey("aigw.key.id");
    static final AttributeKey<String> KEY_NAME = AttributeKey.stringKey("aigw.key.name");
    static final AttributeKey<String> REQUEST_ID = AttributeKey.stringKey("aigw.request.id");
    static final AttributeKey<String> ENDPOINT = AttributeKey.stringKey("aigw.endpoint");
    static final AttributeKey<String> PROVIDER_USED = AttributeKey.stringKey("aigw.provider");
    static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("aigw.outcome");
    static final AttributeKey<Long> FALLBACKS = AttributeKey.longKey("aigw.fallbacks");
    static final AttributeKey<String> REFUSED_BY = AttributeKey.stringKey("aigw.refused_by");
    static final AttributeKey<Double> COST_USD = AttributeKey.doubleKey("aigw.cost.usd");
    static final AttributeKey<String> COST_BASIS = AttributeKey.stringKey("aigw.cost.basis");
    static final AttributeKey<String> ATTEMPT_ENDING = AttributeKey.stringKey("aigw.attempt.ending");
    /** The caller's request body, up to the configured size: recorded only when content capture is on. */
    static final AttributeKey<String> REQUEST_BODY = AttributeKey.stringKey("aigw.request.body");
    static final AttributeKey<Boolean> REQUEST_BODY_CUT = AttributeKey.booleanKey("aigw.request.body.truncated");

    private GenAi() {
    }

    /**
     * {@code gen_ai.operation.name} of an endpoint: the convention's {@code embeddings} and
     * {@code chat} (chat completions, Responses, Anthropic's messages), or the endpoint's own label
     * for an operation the convention does not name (counting tokens).
     */
    static String operation(Endpoint endpoint) {
        return switch (endpoint.api()) {
            case EMBEDDINGS -> "embeddings";
            case CHAT_COMPLETIONS, RESPONSES -> "chat";
            case MESSAGES -> endpoint == Endpoint.COUNT_TOKENS ? endpoint.label() : "chat";
        };
    }
}

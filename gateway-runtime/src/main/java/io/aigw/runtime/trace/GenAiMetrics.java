package io.aigw.runtime.trace;

import io.aigw.runtime.upstream.Attempt;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.metrics.LongHistogram;
import io.opentelemetry.api.metrics.Meter;
import java.util.List;

/**
 * The GenAI client metrics of each attempt, exported over OTLP beside the spans when metrics
 * export is on: {@code gen_ai.client.token.usage}, {@code gen_ai.client.operation.duration} and a
 * stream's {@code gen_ai.client.operation.time_to_first_chunk}, with the conventions' buckets.
 */
final class GenAiMetrics {
    private static final List<Long> TOKEN_BUCKETS = List.of(1L, 4L, 16L, 64L, 256L, 1024L, 4096L, 16384L, 65536L,
            262144L, 1048576L, 4194304L, 16777216L, 67108864L);
    private static final List<Double> SECOND_BUCKETS = List.of(0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56,
            5.12, 10.24, 20.48, 40.96, 81.92);

    private final LongHistogram tokens;
    private final DoubleHistogram duration;
    private final DoubleHistogram firstChunk;

    GenAiMetrics(Meter meter) {
        tokens = meter.histogramBuilder("gen_ai.client.token.usage").ofLongs().setUnit("{token}")
                .setDescription("Number of input and output tokens used.")
                .setExplicitBucketBoundariesAdvice(TOKEN_BUCKETS).build();
        duration = meter.histogramBuilder("gen_ai.client.operation.duration").setUnit("s")
                .setDescription("GenAI operation duration.")
                .setExplicitBucketBoundariesAdvice(SECOND_BUCKETS).build();
        firstChunk = meter.histogramBuilder("gen_ai.client.operation.time_to_first_chunk").setUnit("s")
                .setDescription("Time to receive the first chunk of a stream.")
                .setExplicitBucketBoundariesAdvice(SECOND_BUCKETS).build();
    }

    /**
     * Records an attempt that took {@code seconds}, whose first chunk came after
     * {@code firstChunkSeconds} (negative when it was no stream or sent none), failed with
     * {@code errorType} (null when it did not).
     */
    void attemptEnded(String operation, Attempt attempt, double seconds, double firstChunkSeconds,
                      String errorType) {
        AttributesBuilder common = Attributes.builder()
                .put(GenAi.OPERATION, operation)
                .put(GenAi.PROVIDER, attempt.provider())
                .put(GenAi.REQUEST_MODEL, attempt.upstreamModel());
        Attributes attributes = common.build();
        duration.record(seconds, errorType == null ? attributes : common.put(GenAi.ERROR_TYPE, errorType).build());
        if (firstChunkSeconds >= 0) {
            firstChunk.record(firstChunkSeconds, attributes);
        }
        if (attempt.usage().promptTokens() >= 0) {
            tokens.record(attempt.usage().promptTokens(), attributes.toBuilder().put(GenAi.TOKEN_TYPE, "input").build());
        }
        if (attempt.usage().completionTokens() >= 0) {
            tokens.record(attempt.usage().completionTokens(),
                    attributes.toBuilder().put(GenAi.TOKEN_TYPE, "output").build());
        }
    }
}

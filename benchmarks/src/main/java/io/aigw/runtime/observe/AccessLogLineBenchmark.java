package io.aigw.runtime.observe;

import io.aigw.runtime.HotPathBenchmark;
import jakarta.json.bind.Jsonb;
import jakarta.json.bind.JsonbConfig;
import jakarta.json.bind.annotation.JsonbPropertyOrder;
import jakarta.json.bind.config.PropertyNamingStrategy;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.eclipse.yasson.JsonBindingProvider;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Setup;

/**
 * Formatting one access log line, which the log's thread does for every request: the access log's
 * own writer ({@link AccessLog.Entry#appendJson}) against JSON-B writing a record of the same
 * members, absent ones left out, into a reused buffer. The entry is a streamed chat completion's,
 * with every member present.
 */
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class AccessLogLineBenchmark extends HotPathBenchmark {
    private static final Jsonb LINES = new JsonBindingProvider().create().withConfig(new JsonbConfig()
            .withPropertyNamingStrategy(PropertyNamingStrategy.LOWER_CASE_WITH_UNDERSCORES)
            .withNullValues(false)).build();

    private final AccessLog.Entry entry = new AccessLog.Entry(Instant.parse("2026-11-24T15:30:00.123456Z"),
            "3f2a9c1e-7b4d-4e8a-9f10-2c6d8e4b7a15", "POST", "/api/v1/chat/completions", "chat_completions", 200,
            812_345, "key_0123456789abcdef", "openai/gpt-4o-mini", "openai", "gpt-4o-mini", true, 0, 41_020, 1200, 345,
            1545, null);
    private final StringBuilder line = new StringBuilder(512);
    private final StringWriter writer = new StringWriter(512);

    /** The line as JSON-B writes it: the entry's members, absent ones null and so left out. */
    @JsonbPropertyOrder({"time", "requestId", "method", "path", "endpoint", "status", "latencyMs", "keyId", "model",
            "provider", "upstreamModel", "stream", "fallbacks", "firstByteMs", "promptTokens", "completionTokens",
            "totalTokens"})
    public record Line(String time, String requestId, String method, String path, String endpoint, int status,
                       BigDecimal latencyMs, String keyId, String model, String provider, String upstreamModel,
                       Boolean stream, Integer fallbacks, BigDecimal firstByteMs, Long promptTokens,
                       Long completionTokens, Long totalTokens) {

        static Line of(AccessLog.Entry entry) {
            boolean tokens = entry.totalTokens() >= 0;
            return new Line(entry.time().toString(), entry.requestId(), entry.method(), entry.path(), entry.endpoint(),
                    entry.status(), BigDecimal.valueOf(entry.latencyMicros(), 3), entry.keyId(), entry.model(),
                    entry.provider(), entry.upstreamModel(), entry.stream(),
                    entry.stream() != null ? entry.fallbacks() : null,
                    entry.firstByteMicros() >= 0 ? BigDecimal.valueOf(entry.firstByteMicros(), 3) : null,
                    tokens ? entry.promptTokens() : null, tokens ? entry.completionTokens() : null,
                    tokens ? entry.totalTokens() : null);
        }
    }

    @Setup
    public void setUp() {
        StringBuilder own = new StringBuilder();
        entry.appendJson(own);
        writer.getBuffer().setLength(0);
        LINES.toJson(Line.of(entry), writer);
        if (!own.toString().equals(writer.toString())) {
            throw new IllegalStateException("the two writers disagree:\n" + own + "\n" + writer);
        }
    }

    @Benchmark
    public StringBuilder accessLogWriter() {
        line.setLength(0);
        entry.appendJson(line);
        return line;
    }

    @Benchmark
    public StringWriter jsonBinding() {
        writer.getBuffer().setLength(0);
        LINES.toJson(Line.of(entry), writer);
        return writer;
    }
}

package io.aigw.runtime.metering;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.aigw.runtime.error.Jsons;
import jakarta.json.JsonReader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The usage the gateway reads from an upstream's answer, for tests outside this package: read from the
 * bytes of a non-streamed answer, and checked to read the same from a stream chunk that carries it.
 */
public final class AnswerUsage {

    private AnswerUsage() {
    }

    /** The usage of {@code answer}, a chat completion or a stream chunk holding {@code "usage"}. */
    public static TokenUsage of(String answer) {
        byte[] bytes = answer.getBytes(StandardCharsets.UTF_8);
        Optional<TokenUsage> fromBytes = ReportedUsage.inAnswer(bytes, 0, bytes.length);
        try (JsonReader reader = Jsons.PROVIDER.createReader(new StringReader(answer))) {
            assertEquals(fromBytes, ReportedUsage.inChunk(reader.readValue()), "as a stream chunk: " + answer);
        }
        return fromBytes.orElseThrow(() -> new AssertionError("no usage in " + answer));
    }
}

package io.aigw.runtime.error;

import io.aigw.runtime.HotPathBenchmark;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.bind.annotation.JsonbPropertyOrder;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Setup;

/**
 * The two ways {@link ApiError#toJson} can write an OpenAI error body: JSON-P's object builder and
 * JSON-B ({@link Jsons#BINDING}) over records. Both write the same bytes; the body is the 401 every
 * refused key gets, the error a caller without a key meets first.
 */
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ErrorBodyBenchmark extends HotPathBenchmark {
    private static final String MESSAGE = "Invalid or missing workspace key. Send 'Authorization: Bearer sk-gw-...'.";

    /** The body as JSON-B binds it. */
    public record Body(Detail error) {
    }

    /** The error inside the body. */
    @JsonbPropertyOrder({"message", "type", "param", "code"})
    public record Detail(String message, String type, String param, String code) {
    }

    @Setup
    public void setUp() {
        if (!Arrays.equals(jsonProcessing(), jsonBinding()) || !Arrays.equals(jsonProcessing(), jsonBindingToStream())
                || !Arrays.equals(jsonProcessing(), ApiError.invalidApiKey().toJson())) {
            throw new IllegalStateException("the writers disagree on the body");
        }
    }

    @Benchmark
    public byte[] jsonProcessing() {
        JsonObjectBuilder error = Jsons.PROVIDER.createObjectBuilder()
                .add("message", MESSAGE)
                .add("type", "authentication_error")
                .addNull("param")
                .add("code", "invalid_api_key");
        return Jsons.PROVIDER.createObjectBuilder().add("error", error).build().toString()
                .getBytes(StandardCharsets.UTF_8);
    }

    @Benchmark
    public byte[] jsonBinding() {
        return Jsons.BINDING.toJson(new Body(new Detail(MESSAGE, "authentication_error", null, "invalid_api_key")))
                .getBytes(StandardCharsets.UTF_8);
    }

    @Benchmark
    public byte[] jsonBindingToStream() {
        ByteArrayOutputStream out = new ByteArrayOutputStream(128);
        Jsons.BINDING.toJson(new Body(new Detail(MESSAGE, "authentication_error", null, "invalid_api_key")), out);
        return out.toByteArray();
    }
}

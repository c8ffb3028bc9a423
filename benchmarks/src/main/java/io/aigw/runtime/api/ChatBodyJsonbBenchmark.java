package io.aigw.runtime.api;

import io.aigw.runtime.HotPathBenchmark;
import io.aigw.runtime.error.Jsons;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * The {@code model} rewrite done the JSON-B way, to set beside {@link ChatRequestBenchmark}'s
 * {@code parseAndRewrite} on the same bodies: bind the caller's body to a map, change
 * {@code model}, write the map out again. (Its bytes differ from the caller's: escapes, numbers and
 * white space are written anew, which the gateway must not do; this measures only what it costs.)
 */
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ChatBodyJsonbBenchmark extends HotPathBenchmark {
    @Param({"1KB", "100KB", "1MB"})
    public String size;

    private byte[] body;

    @Setup
    public void setUp() {
        body = ChatRequestBenchmark.chatBody(switch (size) {
            case "1KB" -> 1_000;
            case "100KB" -> 100_000;
            case "1MB" -> 1_000_000;
            default -> throw new IllegalArgumentException("size must be 1KB, 100KB or 1MB, not " + size);
        });
    }

    @Benchmark
    public byte[] bindAndRewrite() {
        @SuppressWarnings("unchecked")
        Map<String, Object> fields = Jsons.BINDING.fromJson(new ByteArrayInputStream(body), LinkedHashMap.class);
        fields.put("model", "gpt-5");
        ByteArrayOutputStream out = new ByteArrayOutputStream(body.length + 64);
        Jsons.BINDING.toJson(fields, out);
        return out.toByteArray();
    }
}

package io.aigw.runtime.transport;

import io.aigw.runtime.HotPathBenchmark;
import io.helidon.common.mapper.MapperManager;
import io.helidon.http.Header;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.ServerRequestHeaders;
import io.helidon.http.WritableHeaders;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * Helidon converting header values, as it does for every request: {@code Content-Length} read
 * through {@code Headers.contentLength()}, and a header value converted with {@code get(Class)},
 * which goes through Helidon's global mapper manager. {@code mappers=helidon} leaves that manager
 * to Helidon's service registry; {@code mappers=global} sets one, as the gateway's {@code Main}
 * once did because Helidon 4.4.0's registry made a new manager for each look-up. JMH runs each
 * value in a JVM of its own, so the setting never leaks into the other.
 */
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class HeaderConversionBenchmark extends HotPathBenchmark {
    @Param({"helidon", "global"})
    public String mappers;

    private final Header contentLengthHeader = HeaderValues.create(HeaderNames.CONTENT_LENGTH, "1234");
    private ServerRequestHeaders headers;

    @Setup(Level.Trial)
    @SuppressWarnings("removal") // The deprecated global manager is what is measured.
    public void setUp() {
        if ("global".equals(mappers)) {
            MapperManager.global(MapperManager.create());
        }
        WritableHeaders<?> writable = WritableHeaders.create();
        writable.set(HeaderValues.CONTENT_TYPE_JSON);
        writable.set(contentLengthHeader);
        headers = ServerRequestHeaders.create(writable);
    }

    @Benchmark
    public OptionalLong contentLength() {
        return headers.contentLength();
    }

    @Benchmark
    public long convertedValue() {
        return contentLengthHeader.get(Long.class);
    }
}

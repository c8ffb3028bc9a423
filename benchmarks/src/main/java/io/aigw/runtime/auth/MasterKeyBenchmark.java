package io.aigw.runtime.auth;

import io.aigw.runtime.HotPathBenchmark;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.infra.Blackhole;

/** The master key check every request with that key pays: one SHA-256 and a constant-time compare. */
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class MasterKeyBenchmark extends HotPathBenchmark {
    private MasterKey masterKey;
    private String rightKey;
    private String wrongKey;

    @Setup
    public void setUp() {
        rightKey = "sk-gw-bench-0123456789abcdef0123456789abcdef";
        wrongKey = "sk-gw-bench-0123456789abcdef0123456789abcdeX";
        masterKey = MasterKey.of(rightKey);
    }

    @Benchmark
    public void rightKey(Blackhole blackhole) {
        blackhole.consume(masterKey.authenticate(rightKey));
    }

    @Benchmark
    public void wrongKey(Blackhole blackhole) {
        blackhole.consume(masterKey.authenticate(wrongKey));
    }
}

package io.aigw.runtime.upstream;

import io.aigw.runtime.HotPathBenchmark;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Relaying one streamed answer: 20 {@code chat.completion.chunk} events and {@code data: [DONE]},
 * the same events as the load harness's fake upstream. {@code usageChunk} adds the final usage-only
 * chunk the gateway asks for on every stream and hides from the caller; {@code reads} says whether
 * the relay gets the whole stream in one read or one event per read, as from a real upstream.
 */
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class SseRelayBenchmark extends HotPathBenchmark {
    private static final int CHUNKS = 20;

    @Param({"false", "true"})
    public boolean usageChunk;

    @Param({"whole", "perEvent"})
    public String reads;

    private List<byte[]> events;
    private byte[] stream;

    @Setup
    public void setUp() {
        events = events(usageChunk);
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        events.forEach(all::writeBytes);
        stream = all.toByteArray();
    }

    @Benchmark
    public void relay(Blackhole blackhole) {
        InputStream upstream = reads.equals("whole") ? new ByteArrayInputStream(stream) : new EventByEvent(events);
        Discard caller = new Discard(blackhole);
        SseRelay relay = new SseRelay(upstream, caller, WireFormat.CHAT_COMPLETIONS, usageChunk, false, id -> { }, false);
        relay.run();
        blackhole.consume(relay.usage());
        blackhole.consume(caller.written);
    }

    private static List<byte[]> events(boolean usageChunk) {
        List<String> events = new ArrayList<>();
        events.add(chunk("{\"role\":\"assistant\",\"content\":\"\"}", "null"));
        for (int i = 1; i < CHUNKS - 1; i++) {
            events.add(chunk("{\"content\":\"tok" + i + " \"}", "null"));
        }
        events.add(chunk("{}", "\"stop\""));
        if (usageChunk) {
            events.add("data: {\"id\":\"chatcmpl-bench000000000000000000000000\",\"object\":\"chat.completion.chunk\","
                    + "\"created\":1700000000,\"model\":\"gpt-4o-mini\",\"choices\":[],\"usage\":{\"prompt_tokens\":9,"
                    + "\"completion_tokens\":19,\"total_tokens\":28}}\n\n");
        }
        events.add("data: [DONE]\n\n");
        return events.stream().map(event -> event.getBytes(StandardCharsets.UTF_8)).toList();
    }

    private static String chunk(String delta, String finishReason) {
        return "data: {\"id\":\"chatcmpl-bench000000000000000000000000\",\"object\":\"chat.completion.chunk\","
                + "\"created\":1700000000,\"model\":\"gpt-4o-mini\",\"choices\":[{\"index\":0,\"delta\":" + delta
                + ",\"logprobs\":null,\"finish_reason\":" + finishReason + "}]}\n\n";
    }

    /** Hands out one event per read, as an upstream that sends them apart does. */
    private static final class EventByEvent extends InputStream {
        private final List<byte[]> events;
        private int next;

        EventByEvent(List<byte[]> events) {
            this.events = events;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) {
            if (next == events.size()) {
                return -1;
            }
            byte[] event = events.get(next++);
            System.arraycopy(event, 0, buffer, offset, event.length);
            return event.length;
        }

        @Override
        public int read() {
            throw new UnsupportedOperationException("the relay reads in blocks");
        }
    }

    /** The caller: counts what it is given and lets the blackhole see every write. */
    private static final class Discard extends OutputStream {
        private final Blackhole blackhole;
        private long written;

        Discard(Blackhole blackhole) {
            this.blackhole = blackhole;
        }

        @Override
        public void write(byte[] bytes, int offset, int length) {
            blackhole.consume(bytes);
            written += length;
        }

        @Override
        public void write(int b) {
            written++;
        }

        @Override
        public void flush() {
            blackhole.consume(written);
        }
    }
}

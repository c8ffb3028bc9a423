package io.aigw.runtime.transport;

import io.helidon.common.buffers.DataReader;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.ref.WeakReference;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Run in a JVM of its own with the serial collector ({@link RestartingDataReaderTest}): reads
 * requests on one keep-alive connection, one socket read each, through Helidon's reader
 * ({@code helidon}) or the restarting one ({@code restarting}); a full collection after the first
 * moves that reader's current chunk to the old generation, as one does under load. Then it reads
 * {@link #REQUESTS} more, lets young collections run, and prints how many of those chunks, all
 * consumed, the young collections freed ({@code freed N of M}).
 */
public final class ChunkChainProbe {
    static final int REQUESTS = 100;
    private static final String YOUNG_COLLECTOR = "Copy";
    private static final String FULL_COLLECTOR = "MarkSweepCompact";
    /** Where garbage goes, so that the JIT cannot leave it unallocated. */
    private static volatile Object sink;

    private ChunkChainProbe() {
    }

    public static void main(String[] args) {
        List<WeakReference<byte[]>> chunks = new ArrayList<>();
        Supplier<byte[]> socket = () -> {
            byte[] chunk = ("GET /api/v1/models HTTP/1.1\r\nHost: gateway\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
            chunks.add(new WeakReference<>(chunk));
            return chunk;
        };
        DataReader reader = args[0].equals("restarting") ? new RestartingDataReader(socket) : DataReader.create(socket);
        readRequest(reader);
        System.gc();
        long fullCollections = collections(FULL_COLLECTOR);
        chunks.clear();

        for (int i = 0; i < REQUESTS; i++) {
            readRequest(reader);
        }
        long young = collections(YOUNG_COLLECTOR);
        while (collections(YOUNG_COLLECTOR) < young + 2) {
            allocateGarbage();
        }

        if (collections(FULL_COLLECTOR) != fullCollections) {
            System.out.println("inconclusive: a full collection ran among the young ones");
            return;
        }
        // The last chunk is the reader's current one, reachable either way.
        long freed = chunks.subList(0, chunks.size() - 1).stream().filter(chunk -> chunk.refersTo(null)).count();
        System.out.println("freed " + freed + " of " + (chunks.size() - 1));
    }

    /** What HTTP/1.1 reads of a request without a body: lines up to the empty one. */
    private static void readRequest(DataReader reader) {
        while (!reader.readLine().isEmpty()) {
            // the request line and the headers
        }
    }

    private static long collections(String collector) {
        return ManagementFactory.getGarbageCollectorMXBeans().stream()
                .filter(bean -> bean.getName().equals(collector))
                .mapToLong(GarbageCollectorMXBean::getCollectionCount)
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("not the serial collector: no " + collector));
    }

    private static void allocateGarbage() {
        for (int i = 0; i < 1024; i++) {
            sink = new byte[1024];
        }
    }
}

package io.aigw.runtime;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryNotificationInfo;
import java.lang.management.MemoryPoolMXBean;
import java.util.Optional;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;

/**
 * Collects the whole heap when the serial collector's old generation has grown to half as much again
 * as it held after its last full collection, so that the heap, and the memory the process keeps, follow what the
 * gateway holds rather than the heap's bound.
 *
 * <p>The serial collector collects its old generation only when that cannot grow any more: until then
 * a young collection that finds no room for what it promotes grows it. Dead connections' state and
 * finished streams promoted there would make it grow, slowly, all the way to {@code -Xmx}, and the
 * resident memory with it, though the gateway holds a fraction of that. A full collection at one and
 * a half times the last one's live size (and at {@link #FLOOR} at least) keeps it near what is live
 * (20 MB live after the gateway's start: 40-50 ms a collection on these machines, one every
 * 10 MB promoted); with
 * {@code -XX:-ShrinkHeapInSteps} (bin/gateway) the collector then gives back what it no longer needs.
 * Other collectors, which collect their old generation as it fills, are left alone, as is a serial
 * collector run with {@code -XX:+DisableExplicitGC}.
 */
final class OldGenerationWatch {
    /** The serial collector's old generation, by the name the JDK gives its memory pool. */
    static final String SERIAL_OLD_POOL = "Tenured Gen";
    /** Below this the old generation grows untouched: a full collection would cost more than it frees. */
    static final long FLOOR = 24L * 1024 * 1024;

    private OldGenerationWatch() {
    }

    /**
     * The old generation's size at which to collect, given what it held after its last collection and
     * its bound: half as much again as the first, at least {@link #FLOOR}, at most an eighth short of the bound (where
     * the collector is about to collect of its own accord).
     */
    static long threshold(long liveAfterCollection, long max) {
        long wanted = Math.max(FLOOR, liveAfterCollection + liveAfterCollection / 2);
        return max > 0 ? Math.min(wanted, max - max / 8) : wanted;
    }

    /** Starts watching when the JVM runs the serial collector; otherwise does nothing. */
    static void start() {
        serialOldPool().ifPresent(pool -> {
            pool.setUsageThreshold(threshold(pool.getUsage().getUsed(), pool.getUsage().getMax()));
            NotificationEmitter memory = (NotificationEmitter) ManagementFactory.getMemoryMXBean();
            memory.addNotificationListener((notification, handback) -> {
                if (MemoryNotificationInfo.MEMORY_THRESHOLD_EXCEEDED.equals(notification.getType())
                        && SERIAL_OLD_POOL.equals(MemoryNotificationInfo.from(
                                (CompositeData) notification.getUserData()).getPoolName())) {
                    // On the JDK's notification thread, which waits out the collection as every thread does.
                    System.gc();
                    pool.setUsageThreshold(threshold(pool.getCollectionUsage().getUsed(), pool.getUsage().getMax()));
                }
            }, null, null);
        });
    }

    private static Optional<MemoryPoolMXBean> serialOldPool() {
        return ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(pool -> pool.getName().equals(SERIAL_OLD_POOL) && pool.isUsageThresholdSupported())
                .findFirst();
    }
}

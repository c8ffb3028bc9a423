package io.aigw.runtime.observe;

import io.aigw.runtime.batch.BatchWriter;

/**
 * Counts the usage records that never reach the store, in {@code gateway_usage_records_dropped_total}
 * by {@code reason}: those the writer's queue or a failed batch dropped, and those the database
 * refused for their own data while the rest of their batch was written.
 */
public final class UsageDrops implements BatchWriter.Drops {
    private final GatewayMetrics metrics;

    public UsageDrops(GatewayMetrics metrics) {
        this.metrics = metrics;
    }

    @Override
    public void dropped(BatchWriter.DropReason reason, long count) {
        metrics.usageRecordsDropped(switch (reason) {
            case QUEUE_FULL -> "queue_full";
            case SINK_UNAVAILABLE -> "store_down";
            case SINK_FAILED -> "write_failed";
        }, count);
    }

    /** Counts {@code count} records the database refused for their data; none is nothing to count. */
    public void refused(int count) {
        if (count > 0) {
            metrics.usageRecordsDropped("bad_record", count);
        }
    }
}

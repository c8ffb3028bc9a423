package io.aigw.runtime.limits;

import io.aigw.runtime.batch.BatchWriter;
import io.aigw.runtime.pricing.Usd;
import io.aigw.runtime.store.UsageRecord;

/**
 * A key's spend in the usage records written to the database and in those still queued for its
 * writer (written in batches, a second or so after their request ends): a count rebuilt meanwhile,
 * after Redis lost it, misses none of this gateway's requests. Other replicas' queued records are
 * theirs alone: a count rebuilt here misses those until they are written.
 */
public final class QueuedSpend implements SpendLedger {
    private final SpendLedger written;
    private final BatchWriter<UsageRecord> queue;

    /**
     * @param written the spend in the records written
     * @param queue   where the records wait to be written
     */
    public QueuedSpend(SpendLedger written, BatchWriter<UsageRecord> queue) {
        this.written = written;
        this.queue = queue;
    }

    @Override
    public long spentNanos(String keyId, long sinceMillis) {
        // The queue first, the database after: a record written in between is counted twice, the side
        // of caution, where the other order would miss it.
        long[] queued = {0};
        queue.forEachUnwritten(record -> {
            if (record.keyId().equals(keyId) && record.time().toEpochMilli() >= sinceMillis) {
                queued[0] += record.cost().amount().map(Usd::nanos).orElse(0L);
            }
        });
        return queued[0] + written.spentNanos(keyId, sinceMillis);
    }
}

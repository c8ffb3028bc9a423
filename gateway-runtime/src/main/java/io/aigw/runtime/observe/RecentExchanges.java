package io.aigw.runtime.observe;

import io.aigw.runtime.exchange.ExchangeListener;
import io.aigw.runtime.exchange.ExchangeRecord;
import io.aigw.runtime.pricing.Usd;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The last exchanges that ended, in a ring of fixed size that the console's Live page reads. An
 * exchange costs the request's thread one slot write: no lock, no notification; readers poll by
 * sequence number and skip what the ring has already overwritten.
 */
public final class RecentExchanges implements ExchangeListener {
    private final AtomicReferenceArray<Entry> slots;
    private final AtomicLong next = new AtomicLong();
    private volatile boolean closed;

    /**
     * One ended exchange as the console shows it: never a key, only its id and name.
     *
     * @param sequence      its place in the ring's history, from 0
     * @param keyName       the key's name, or null when unknown (the master key has none)
     * @param status        as {@link ExchangeRecord#status()}
     * @param cost          what it cost, or null when unknown
     */
    public record Entry(long sequence, long endedAtMillis, String keyId, String keyName, String model, int status,
                        long latencyMillis, long totalTokens, Usd cost) {
    }

    /** @param size how many exchanges the ring keeps */
    public RecentExchanges(int size) {
        this.slots = new AtomicReferenceArray<>(size);
    }

    @Override
    public void exchangeEnded(ExchangeRecord record) {
        long sequence = next.getAndIncrement();
        var exchange = record.exchange();
        slots.set((int) (sequence % slots.length()), new Entry(sequence, System.currentTimeMillis(),
                exchange.caller().keyId(), exchange.caller().keyName(), exchange.model(), record.status(),
                (System.nanoTime() - exchange.startedNanos()) / 1_000_000, record.charge().tokens().totalTokens(),
                record.charge().cost().amount().orElse(null)));
    }

    /** The sequence number the next exchange to end will get. */
    public long next() {
        return next.get();
    }

    /**
     * The entries from {@code from} on, oldest first, as far as they are written: those the ring
     * overwrote are skipped, and an entry whose slot is not yet written ends the list.
     */
    public List<Entry> since(long from) {
        long end = next.get();
        List<Entry> entries = new ArrayList<>();
        for (long sequence = Math.max(from, end - slots.length()); sequence < end; sequence++) {
            Entry entry = slots.get((int) (sequence % slots.length()));
            if (entry == null || entry.sequence() < sequence) {
                break;
            }
            if (entry.sequence() == sequence) {
                entries.add(entry);
            }
        }
        return entries;
    }

    /** Tells readers streaming from the ring to stop: the gateway is stopping. */
    public void close() {
        closed = true;
    }

    public boolean closed() {
        return closed;
    }
}

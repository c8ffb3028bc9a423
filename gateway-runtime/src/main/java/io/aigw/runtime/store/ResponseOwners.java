package io.aigw.runtime.store;

import io.aigw.runtime.batch.BatchWriter;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Which key created each response, and on which provider: remembered off the request's thread by a
 * bounded writer, as usage records are, so that no answer waits on the database. While the
 * database is down, what is remembered waits in the writer's queue (and is found there); past the
 * queue's bound it is dropped, with a warning, and its later calls are answered as for an unknown id.
 */
public final class ResponseOwners implements AutoCloseable {
    private final GatewayStore store;
    private final BatchWriter<ResponseOwner> writer;

    /**
     * @param capacity   how many responses may wait to be written
     * @param retryPause how long a batch waits before it is written again while the database is down
     */
    public ResponseOwners(GatewayStore store, int capacity, Duration retryPause) {
        this.store = store;
        this.writer = new BatchWriter<>("responses", capacity, Duration.ofMillis(20), store::rememberResponses,
                new BatchWriter.Retry(retryPause, StoreUnavailableException.class::isInstance), (reason, count) -> { });
    }

    /** Remembers a response; never blocks. An id longer than {@link ResponseOwner#MAX_ID_LENGTH} is not kept. */
    public void remember(ResponseOwner response) {
        if (response.id().length() <= ResponseOwner.MAX_ID_LENGTH) {
            writer.offer(response);
        }
    }

    /**
     * The response remembered under {@code id}: among those still waiting to be written first, so that
     * a response is found as soon as it was created, then in the store.
     *
     * @throws StoreUnavailableException when the database cannot tell
     */
    public Optional<ResponseOwner> find(String id) {
        AtomicReference<ResponseOwner> queued = new AtomicReference<>();
        writer.forEachUnwritten(response -> {
            if (queued.get() == null && response.id().equals(id)) {
                queued.set(response);
            }
        });
        if (queued.get() != null) {
            return Optional.of(queued.get());
        }
        return id.length() > ResponseOwner.MAX_ID_LENGTH ? Optional.empty() : store.response(id);
    }

    /** Writes what is still queued. */
    @Override
    public void close() {
        writer.close();
    }
}

package io.aigw.runtime.api;

import io.aigw.runtime.auth.Caller;
import io.aigw.runtime.error.ApiException;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

/**
 * Reads a request's body within {@code gateway.max-body-size}, the heap set aside for bodies
 * in flight and its key's share of that heap, taking room as the body arrives; the room is held
 * until the request ends, as the body is forwarded. A body that finds no room in time is refused
 * with {@code Retry-After}: 503 when the gateway's room is taken, 429 when its key's share is.
 */
final class BodyAdmission {
    private final long maxBodyBytes;
    private final BodyBudget budget;
    private final LimitLog limitLog = new LimitLog();

    /**
     * @param maxBodyBytes  the largest body accepted ({@code gateway.max-body-size})
     * @param bodyMemory    the heap bodies in flight may hold together ({@code gateway.body-memory})
     * @param keyBodyMemory the most of it one key's bodies may hold ({@code gateway.fairness.key-body-memory})
     */
    BodyAdmission(long maxBodyBytes, long bodyMemory, long keyBodyMemory) {
        this.maxBodyBytes = maxBodyBytes;
        this.budget = new BodyBudget(bodyMemory, keyBodyMemory);
    }

    /** Reads the body of {@code request}, whose room is held until the {@link Body} is closed. */
    Body read(ServerRequest request, ServerResponse response) {
        // The key gate registers the caller of every /api/ request.
        String keyId = request.context().get(Caller.class).map(Caller::keyId).orElse("unknown");
        BodyBudget.Reservation reservation = budget.open(keyId);
        try {
            RequestBody.requireJson(request);
            return new Body(RequestBody.read(request, response, maxBodyBytes, reservation), reservation);
        } catch (ApiException e) {
            reservation.close();
            Status status = e.error().status();
            if (status == Status.SERVICE_UNAVAILABLE_503) {
                limitLog.reached("bodies", "gateway.body-memory is " + budget.bytes() + " bytes");
            }
            if (status == Status.SERVICE_UNAVAILABLE_503 || status == Status.TOO_MANY_REQUESTS_429) {
                response.header(HeaderNames.RETRY_AFTER, "1");
            }
            RequestBody.abandonUnsent(request, response);
            throw e;
        } catch (RuntimeException e) {
            reservation.close();
            throw e;
        }
    }

    /** A body read whole, and the room it holds. */
    record Body(byte[] bytes, BodyBudget.Reservation reservation) implements AutoCloseable {
        @Override
        public void close() {
            reservation.close();
        }
    }
}

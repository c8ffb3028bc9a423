package io.aigw.runtime.api;

import io.aigw.runtime.auth.Caller;
import io.aigw.runtime.error.ApiError;
import io.aigw.runtime.error.ApiException;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

/**
 * Admits a request into one of the gateway's {@link RequestSlots} as soon as its key is known (the
 * key gate has run), before its body is read; the slot is held until the request's handling
 * ends, a stream's included. Refused: 503 when every slot is taken, 429 when the free ones are the
 * reserve and its key holds too many; both with {@code Retry-After: 1}, as either clears when some
 * request ends.
 */
final class InFlightAdmission {
    private final RequestSlots slots;
    private final LimitLog limitLog = new LimitLog();

    /**
     * @param maxConcurrent requests in flight at once ({@code gateway.max-concurrent-requests})
     * @param reserve       the last free slots, kept for keys holding fewer requests than this
     *                      ({@code gateway.fairness.in-flight-reserve})
     */
    InFlightAdmission(int maxConcurrent, int reserve) {
        this.slots = new RequestSlots(maxConcurrent, reserve);
    }

    /**
     * Takes a slot for {@code request}, to be closed when its handling ends.
     *
     * @throws ApiException 503 or 429, with {@code Retry-After}, when no slot is free to its key
     */
    RequestSlots.Admission.Taken admit(ServerRequest request, ServerResponse response) {
        // The key gate registers the caller of every /api/ request.
        String keyId = request.context().get(Caller.class).map(Caller::keyId).orElse("unknown");
        ApiError refusal;
        switch (slots.take(keyId)) {
            case RequestSlots.Admission.Taken slot -> {
                return slot;
            }
            case RequestSlots.Admission.Full full -> {
                limitLog.reached("requests", "gateway.max-concurrent-requests is " + slots.capacity());
                refusal = ApiError.overloaded(slots.capacity());
            }
            case RequestSlots.Admission.KeyBeyondReserve beyond -> refusal = ApiError.rateLimited("requests",
                    "This key has " + beyond.held() + " requests in flight, and the gateway keeps its last "
                    + slots.reserve() + " free slots for keys with fewer (gateway.fairness.in-flight-reserve);"
                    + " retry when some of them end.");
        }
        response.header(HeaderNames.RETRY_AFTER, "1");
        RequestBody.abandonUnsent(request, response);
        throw new ApiException(refusal);
    }
}

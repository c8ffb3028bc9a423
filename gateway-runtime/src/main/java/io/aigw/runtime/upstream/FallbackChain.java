package io.aigw.runtime.upstream;

import io.aigw.runtime.error.ApiError;
import io.aigw.runtime.error.ApiException;
import io.aigw.runtime.routing.Route;
import io.aigw.runtime.upstream.CallOutcome.FailedBeforeFirstByte;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * {@code gateway/auto}'s policy, and an alias's of several models: try the routes in order, moving
 * on only while nothing has reached the caller and the failure is one another provider may not
 * share (unreachable, timed out, key rejected, 408, 409, 429, 5xx; see {@link Failure#movesOn()}). Any other answer, error or not, is
 * the caller's. When every route fails, the caller gets the last failure, its message listing what
 * was tried.
 */
public final class FallbackChain {

    private FallbackChain() {
    }

    /**
     * Tries {@code routes} in order with {@code attempt} until one ends the request.
     *
     * @param chain      what the caller asked for, {@code gateway/auto} or an alias, for the messages
     * @param passedOver hears of each attempt the chain moved past
     *
     * @return the outcome of the last attempt, whose failure (if it failed before the first byte) is
     *         still to be sent
     * @throws ApiException 502 when there is no route at all: no provider has a usable key
     */
    public static CallOutcome tryInOrder(String chain, List<Route> routes, Function<Route, CallOutcome> attempt,
                                         Consumer<Attempt> passedOver) {
        if (routes.isEmpty()) {
            throw new ApiException(ApiError.upstream(chain + " has no usable provider: no upstream key is"
                    + " configured, or every configured key was recently rejected."));
        }
        List<String> tried = new ArrayList<>();
        Attempt lastAttempt = null;
        Failure last = null;
        for (Route route : routes) {
            CallOutcome outcome = attempt.apply(route);
            if (!(outcome instanceof FailedBeforeFirstByte(Attempt failed, Failure failure)) || !failure.movesOn()) {
                return outcome;
            }
            passedOver.accept(failed);
            tried.add(route.provider().prefix() + " (" + failure.summary() + ")");
            lastAttempt = failed;
            last = failure;
        }
        return new FailedBeforeFirstByte(lastAttempt, last.withMessage(
                chain + " tried every usable provider and all failed: " + String.join("; ", tried) + "."));
    }
}

package io.aigw.runtime.upstream;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * A chat completion's link to its caller's connection: once a call to an upstream has lasted one
 * tick of {@link Deadlines}, the caller is watched, and a caller that leaves ends the wait on the
 * upstream at once (its connection closes, so the upstream stops generating); no other provider
 * is tried, and the call is recorded as 499. A call quicker than a tick is never watched.
 */
public final class Hangup {
    private final Consumer<Runnable> watchCaller;
    private final AtomicBoolean watching = new AtomicBoolean();
    private volatile boolean left;
    private volatile Deadlines.Deadline current;

    /**
     * @param watchCaller starts watching the caller, given what to run when it leaves; called at
     *                    most once, from the deadlines' thread
     */
    public Hangup(Consumer<Runnable> watchCaller) {
        this.watchCaller = watchCaller;
    }

    /** The caller is gone; from any thread. */
    public void callerLeft() {
        left = true;
        Deadlines.Deadline deadline = current;
        if (deadline != null) {
            deadline.callerLeft();
        }
    }

    boolean callerLeftAlready() {
        return left;
    }

    /**
     * Ends {@code deadline}'s wait when the caller leaves, or at once if it has left already. Each
     * side writes its own field before it reads the other's, so a leaving that races with a new
     * attempt reaches that attempt either way.
     */
    void watch(Deadlines.Deadline deadline) {
        deadline.onSlowCall(this::callIsSlow);
        current = deadline;
        if (left) {
            deadline.callerLeft();
        }
    }

    private void callIsSlow() {
        if (watching.compareAndSet(false, true)) {
            watchCaller.accept(this::callerLeft);
        }
    }
}

package io.aigw.runtime.plugin;

import io.aigw.runtime.config.ConfigurationException;
import java.time.Duration;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs each call into a plugin's code (making the plugin, asking it what it declares) on a thread
 * of its own and waits for it a bounded time, so that no plugin can break, hang or spin the thread
 * that loads plugins: the start, a reload, the folder watcher. Whatever the call throws, an
 * {@link Error} or a checked exception thrown where Java does not declare one included, becomes a
 * refusal that names the throwable's class and message in one line, without its stack; a call that
 * has not returned in time is given up.
 *
 * <p>Java cannot stop a thread: a call given up is interrupted and left to end by itself. One that
 * ignores the interrupt keeps its thread, and a core if it spins, until the gateway restarts. The
 * threads are platform threads: a virtual thread that never blocks would hold one of the few
 * carrier threads that every request runs on. Each call gets a new thread, so that nothing a plugin
 * leaves in a thread local outlives the call and keeps the plugin's class loader alive.
 */
public final class PluginCalls {
    /** Enough of a message to say what failed; a plugin's message may be anything. */
    private static final int MESSAGE_LIMIT = 300;
    /** Causes past this many say nothing the first ones did not. */
    private static final int CAUSES_LIMIT = 4;

    private final Duration timeout;
    private final AtomicLong givenUp = new AtomicLong();

    /** @param timeout how long a call may take ({@code gateway.plugins.call-timeout}) */
    public PluginCalls(Duration timeout) {
        this.timeout = timeout;
    }

    /** How a call into a plugin ended. */
    sealed interface Answer<T> {

        /** It returned {@code value}. */
        record Returned<T>(T value) implements Answer<T> {
        }

        /**
         * It threw, or did not return in time.
         *
         * @param why {@code failed: <throwable>} or {@code did not return within <timeout> ...}
         */
        record Failed<T>(String why) implements Answer<T> {
        }
    }

    /**
     * Calls {@code code}; its thread is named after {@code name}, so that a thread dump shows whose
     * call is still running after being given up.
     */
    <T> Answer<T> call(String name, Callable<T> code) {
        AtomicReference<Answer<T>> answer = new AtomicReference<>();
        Thread thread = Thread.ofPlatform().daemon().inheritInheritableThreadLocals(false)
                .name("aigw-plugin-call " + name).unstarted(() -> answer.set(run(code)));
        thread.start();
        try {
            if (!thread.join(timeout)) {
                thread.interrupt();
                givenUp.incrementAndGet();
                return new Answer.Failed<>("did not return within " + text(timeout)
                        + " (gateway.plugins.call-timeout); its thread was interrupted and is left to end by itself");
            }
        } catch (InterruptedException e) {
            thread.interrupt();
            Thread.currentThread().interrupt();
            return new Answer.Failed<>("was given up: the thread waiting for it was interrupted");
        }
        Answer<T> ended = answer.get();
        // Null only when the thread could not even record its answer (out of memory).
        return ended != null ? ended : new Answer.Failed<>("ended without an answer");
    }

    /**
     * Calls {@code code}, a call named {@code call} of the plugin {@code source}, and returns what it returned.
     *
     * @throws ConfigurationException naming the plugin and the call, when it threw or did not return in time
     */
    <T> T ask(String source, String call, Callable<T> code) {
        return switch (call(source + " " + call, code)) {
            case Answer.Returned<T> returned -> returned.value();
            case Answer.Failed<T> failed -> throw new ConfigurationException("The plugin " + source + " is refused: its "
                    + call + " " + failed.why() + ".");
        };
    }

    /** How many calls were given up for not returning in time, since this was made. */
    long givenUp() {
        return givenUp.get();
    }

    private static <T> Answer<T> run(Callable<T> code) {
        try {
            return new Answer.Returned<>(code.call());
        } catch (Throwable e) {
            // Whatever plugin code throws refuses the plugin; nothing of it may reach the gateway's threads.
            return new Answer.Failed<>("failed: " + describe(e));
        }
    }

    /**
     * The throwable and its causes, each as its class and message on one line. Run on the plugin's
     * thread: a plugin's exception may override {@code getMessage()} and {@code getCause()} too.
     */
    static String describe(Throwable failure) {
        StringBuilder text = new StringBuilder();
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        Throwable current = failure;
        while (current != null && seen.add(current) && seen.size() <= CAUSES_LIMIT) {
            if (!text.isEmpty()) {
                text.append("; caused by ");
            }
            text.append(current.getClass().getName());
            String message = messageOf(current);
            if (message != null) {
                text.append(": ").append(oneLine(message));
            }
            current = causeOf(current);
        }
        return text.toString();
    }

    private static String messageOf(Throwable failure) {
        try {
            return failure.getMessage();
        } catch (Throwable e) {
            return "(its getMessage() threw " + e.getClass().getName() + ")";
        }
    }

    private static Throwable causeOf(Throwable failure) {
        try {
            return failure.getCause();
        } catch (Throwable e) {
            return null;
        }
    }

    /**
     * The message, cut to a readable length, with every control, C1 and bidirectional-formatting
     * character made a space: a log line stays one line and reads as it is written.
     */
    private static String oneLine(String message) {
        String cut = message.length() > MESSAGE_LIMIT ? message.substring(0, MESSAGE_LIMIT) + "..." : message;
        StringBuilder line = new StringBuilder(cut.length());
        cut.codePoints().forEach(c -> line.appendCodePoint(Character.isISOControl(c)
                || Character.getType(c) == Character.FORMAT ? ' ' : c));
        return line.toString();
    }

    /** A duration as people write it: {@code 5 s}, {@code 500 ms}. */
    private static String text(Duration duration) {
        return duration.toMillis() % 1000 == 0 ? duration.toSeconds() + " s" : duration.toMillis() + " ms";
    }
}

package io.aigw.runtime.limits;

/**
 * What one admitted request holds of its key's window until it ends: one request, its estimated
 * tokens and its estimated cost. Exactly one of {@link #settle} or {@link #release} is called, once.
 */
public interface Reservation {
    /** A reservation that holds nothing: the request was let through unchecked. */
    Reservation NONE = new Reservation() {
        @Override
        public void settle(long tokens, long costNanos) {
        }

        @Override
        public void release() {
        }
    };

    /**
     * The request was answered (a stream: it ended or was cut): the request stays counted, and its
     * estimates are replaced by the {@code tokens} it used and what it cost. Tokens change nothing
     * once their window has ended, nor a cost once its budget's period has.
     *
     * @param costNanos what the request cost; -1 when that is unknown, and its estimate stands
     */
    void settle(long tokens, long costNanos);

    /** The request failed before an answer began: it, its tokens and its cost are given back. */
    void release();
}

package io.aigw.runtime.limits;

/**
 * What one admitted request holds of its key's window until it ends: one request and its estimated
 * tokens. Exactly one of {@link #settle} or {@link #release} is called, once.
 */
public interface Reservation {
    /** A reservation that holds nothing: the request was let through unchecked. */
    Reservation NONE = new Reservation() {
        @Override
        public void settle(long tokens) {
        }

        @Override
        public void release() {
        }
    };

    /**
     * The request was answered (a stream: it ended or was cut): the request stays counted, and its
     * estimate is replaced by the {@code tokens} it used. Nothing changes once its window has ended.
     */
    void settle(long tokens);

    /** The request failed before an answer began: it and its tokens are given back. */
    void release();
}

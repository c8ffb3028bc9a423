package io.aigw.runtime.exchange;

/** The API an exchange was asked through. */
public enum Endpoint {
    /** {@code POST /api/v1/chat/completions}. */
    CHAT_COMPLETIONS
}

package io.aigw.runtime.config;

/** The configuration cannot be used; the message says which setting and what to change. */
public final class ConfigurationException extends RuntimeException {
    public ConfigurationException(String message) {
        super(message);
    }
}

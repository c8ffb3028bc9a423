package io.aigw.runtime.config;

/**
 * A configured secret (a key, a password). Its {@code toString} never shows the value, so a
 * configuration record printed by mistake shows {@code ****} in its place.
 */
public record Secret(String value) {

    @Override
    public String toString() {
        return "****";
    }
}

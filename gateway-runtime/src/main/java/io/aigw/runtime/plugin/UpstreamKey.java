package io.aigw.runtime.plugin;

/**
 * A provider's API key. Its {@code toString} never shows the value, so a key that ends up in a log
 * line or an exception message by mistake shows as {@code ****}.
 */
public record UpstreamKey(String value) {

    /** Returns the {@code Authorization} header value for the upstream. */
    public String bearer() {
        return "Bearer " + value;
    }

    @Override
    public String toString() {
        return "****";
    }
}

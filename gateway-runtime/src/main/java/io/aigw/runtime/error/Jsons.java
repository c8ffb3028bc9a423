package io.aigw.runtime.error;

import jakarta.json.spi.JsonProvider;

/**
 * The JSON provider, looked up once. {@code jakarta.json.Json}'s static methods look it up with
 * {@link java.util.ServiceLoader} on every call, which the request path cannot afford.
 */
public final class Jsons {
    public static final JsonProvider PROVIDER = JsonProvider.provider();

    private Jsons() {
    }
}

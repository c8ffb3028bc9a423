package io.aigw.runtime.upstream;

import io.aigw.spi.UpstreamApi;
import io.helidon.http.Method;

/**
 * A call about something an upstream created and keeps (a stored response: retrieve, delete, its
 * input items, cancel), sent as the caller made it: its method, its path under the API's URL and
 * its query, with none of the caller's headers and no body.
 *
 * @param path  under the API's URL, such as {@code /resp_123/input_items}
 * @param query the caller's query as it came, without its {@code ?}; empty for none
 */
public record StoredCall(Method method, UpstreamApi api, String path, String query) {
}

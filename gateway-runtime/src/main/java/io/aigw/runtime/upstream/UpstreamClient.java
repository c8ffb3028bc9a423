package io.aigw.runtime.upstream;

import io.aigw.runtime.plugin.Provider;
import io.helidon.common.tls.Tls;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Method;
import io.helidon.webclient.api.ClientUri;
import io.helidon.webclient.api.HttpClientResponse;
import io.helidon.webclient.api.Proxy;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webclient.http1.Http1ClientRequest;
import java.net.ProxySelector;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * One provider's pooled HTTP client: keep-alive connections to its base URL, the provider's key and
 * headers on every request, nothing of the caller's but the body.
 */
final class UpstreamClient {
    private static final String USER_AGENT = "aigw/0.1";
    private static final HeaderName REQUEST_ID = HeaderNames.create("X-Request-Id");

    private final Provider provider;
    private final Http1Client client;
    private final ClientUri uri;
    private final Duration readTimeout;

    UpstreamClient(Provider provider, UpstreamTimeouts timeouts, Optional<Tls> tls) {
        this.provider = provider;
        URI url = provider.chatCompletionsUrl();
        // Parsed once: given a string, the client would parse it again on every request.
        this.uri = ClientUri.create(url);
        // A backstop only: Deadlines enforces the first-byte and idle limits precisely.
        this.readTimeout = (timeouts.firstByte().compareTo(timeouts.idle()) > 0 ? timeouts.firstByte()
                : timeouts.idle()).plusSeconds(5);
        // HTTP/1.1 directly: the generic WebClient would work out the protocol on every request.
        var builder = Http1Client.builder()
                .connectTimeout(timeouts.connect())
                .readTimeout(readTimeout)
                .followRedirects(false)
                .keepAlive(true)
                .shareConnectionCache(false)
                .proxy(systemProxyFor(url) ? Proxy.create() : Proxy.noProxy());
        tls.ifPresent(builder::tls);
        this.client = builder.build();
    }

    /** Sends a chat completion request and returns once the response headers are in. */
    HttpClientResponse post(byte[] body, boolean stream, String requestId) {
        Http1ClientRequest request = client.method(Method.POST)
                .uri(uri)
                .readTimeout(readTimeout)
                .header(HeaderValues.CONTENT_TYPE_JSON)
                .header(HeaderNames.ACCEPT, stream ? "text/event-stream" : "application/json")
                .header(HeaderNames.USER_AGENT, USER_AGENT)
                .header(REQUEST_ID, requestId);
        for (Map.Entry<String, String> header : provider.headers().entrySet()) {
            request.header(HeaderNames.create(header.getKey()), header.getValue());
        }
        provider.apiKey().ifPresent(key -> request.header(HeaderNames.AUTHORIZATION, key.bearer()));
        return request.submit(body);
    }

    /**
     * Whether the JVM's proxy settings route this URL through a proxy. Asked once: with the system
     * proxy set, the client would ask again, parsing the URL, on every request.
     */
    private static boolean systemProxyFor(URI url) {
        ProxySelector selector = ProxySelector.getDefault();
        return selector != null && selector.select(url).stream()
                .anyMatch(proxy -> proxy.type() != java.net.Proxy.Type.DIRECT);
    }

    void close() {
        client.closeResource();
    }
}

package io.aigw.runtime.upstream;

import io.aigw.runtime.config.UpstreamTimeouts;
import io.aigw.runtime.plugin.Provider;
import io.aigw.runtime.plugin.UpstreamKey;
import io.aigw.runtime.transport.TransportOptions.Choice;
import io.aigw.runtime.transport.UpstreamConnections;
import io.aigw.spi.UpstreamApi;
import io.helidon.common.socket.SocketOptions;
import io.helidon.common.tls.Tls;
import io.helidon.http.Header;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Method;
import io.helidon.webclient.api.ClientUri;
import io.helidon.webclient.api.HttpClientResponse;
import io.helidon.webclient.api.Proxy;
import io.helidon.webclient.api.WebClient;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webclient.http1.Http1ClientProtocolConfig;
import io.helidon.webclient.http1.Http1ClientRequest;
import java.net.ProxySelector;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The HTTP client of one upstream key of a provider: keep-alive connections to the key's base URL,
 * the key and the provider's headers on every request, nothing of the caller's but the body. Helidon's client writes requests
 * and parses answers, over TLS where the URL says https; the connections come from
 * {@link UpstreamConnections}.
 */
final class UpstreamClient {
    /*
     * Headers made once: Helidon copies a header given as a name and a value (or as any header it
     * could change) into each request, but takes a cached one as it is.
     */
    private static final Header USER_AGENT = HeaderValues.createCached(HeaderNames.USER_AGENT, "aigw/0.1");
    private static final Header ACCEPT_JSON = HeaderValues.createCached(HeaderNames.ACCEPT, "application/json");
    private static final Header ACCEPT_EVENT_STREAM = HeaderValues.createCached(HeaderNames.ACCEPT,
            "text/event-stream");
    private static final HeaderName REQUEST_ID = HeaderNames.create("X-Request-Id");
    private static final HeaderName X_API_KEY = HeaderNames.create("x-api-key");
    private static final HeaderName TRACEPARENT = HeaderNames.create("traceparent");
    private static final HeaderName TRACESTATE = HeaderNames.create("tracestate");

    /** The provider's own headers, as every request sends them. */
    private final List<Header> providerHeaders;
    /** The provider's key as the OpenAI APIs take it, {@code Authorization: Bearer}, and as Anthropic's does. */
    private final Optional<Header> bearerKey;
    private final Optional<Header> xApiKey;
    private final Http1Client client;
    /** Each API's URL, parsed once: given a string, the client would parse it again on every request. */
    private final Map<UpstreamApi, ClientUri> uris;
    /** The URLs under an API's, such as the Messages API's {@code /count_tokens}, parsed once each. */
    private final Map<String, ClientUri> belowUris = new ConcurrentHashMap<>();
    /** {@link Deadlines} ends every wait on an upstream; this is what the connections need besides. */
    private final Duration readTimeout;
    private final UpstreamConnections connections;

    UpstreamClient(Provider provider, UpstreamKey key, UpstreamTimeouts timeouts, Optional<Tls> tls, Choice pool) {
        this.providerHeaders = providerHeaders(provider);
        // Marked sensitive, as a secret is: HTTP/2's header compression, should this client ever
        // speak it, never indexes such a header.
        this.bearerKey = Optional.of(HeaderValues.createCached(HeaderNames.AUTHORIZATION, false, true, key.bearer()));
        // x-api-key is Anthropic's own API's; compatible upstreams (OpenRouter's) take the Bearer form.
        this.xApiKey = provider.homeFor().contains(UpstreamApi.MESSAGES)
                ? Optional.of(HeaderValues.createCached(X_API_KEY, false, true, key.value()))
                : bearerKey;
        Map<UpstreamApi, ClientUri> uris = new EnumMap<>(UpstreamApi.class);
        key.apis().forEach((api, url) -> uris.put(api, ClientUri.create(url)));
        this.uris = uris;
        // Every API's URL is the key's base URL and a path: one origin, one pool of connections.
        URI url = key.baseUrl();
        this.readTimeout = UpstreamConnections.socketReadTimeout(pool,
                timeouts.firstByte().compareTo(timeouts.idle()) > 0 ? timeouts.firstByte() : timeouts.idle());
        var builder = WebClient.builder()
                .protocolPreference(List.of(Http1Client.PROTOCOL_ID))
                // Nagle's algorithm would hold a request's body back until the upstream acknowledges its
                // headers, which a delayed acknowledgement can make 40 ms.
                .socketOptions(SocketOptions.builder().tcpNoDelay(true).build())
                // The client assembles each request, headers and body, in a buffer of its own and
                // writes it in one call; a write buffer on top only copied it once more, through a
                // scratch array of the buffer's size (4 KB) that Helidon allocates on every write.
                .writeBufferSize(0)
                .connectTimeout(timeouts.connect())
                .readTimeout(readTimeout)
                .followRedirects(false)
                .dnsResolver(UpstreamConnections.hostAsWritten())
                // This client's own cache, which close() empties, when Helidon's cache is the pool.
                .shareConnectionCache(false)
                .proxy(systemProxyFor(url) ? Proxy.create() : Proxy.noProxy());
        tls.ifPresent(builder::tls);
        WebClient webClient = builder.build();
        // HTTP/1.1 directly: the generic WebClient would work out the protocol on every request. The
        // answers' headers unchecked: the few the caller gets are checked when relayed (HeaderSyntax).
        // The requests' headers unchecked too: the provider's were checked when it was made, the
        // rest are the gateway's own.
        this.client = webClient.client(Http1Client.PROTOCOL, Http1ClientProtocolConfig.builder()
                .validateResponseHeaders(false).validateRequestHeaders(false).build());
        this.connections = UpstreamConnections.create(pool, webClient, client,
                uris.get(UpstreamApi.CHAT_COMPLETIONS));
    }

    /**
     * Sends a request on {@code api}, which the provider serves, and returns once the response
     * headers are in.
     *
     * @param below   a path under the API's URL ({@link UpstreamRequest#pathBelowApi()}), or empty
     * @param headers the caller's headers that go with it ({@link UpstreamRequest#headers()})
     */
    HttpClientResponse post(UpstreamApi api, String below, List<Header> headers, byte[] body, boolean stream,
                            String requestId, Optional<UpstreamTrace> trace) {
        ClientUri uri = below.isEmpty() ? uris.get(api)
                : belowUris.computeIfAbsent(api.name() + below,
                        name -> ClientUri.create(URI.create(uris.get(api).toUri() + below)));
        Optional<Header> key = api == UpstreamApi.MESSAGES ? xApiKey : bearerKey;
        return connections.submit(() -> {
            Http1ClientRequest request = request(uri, key, stream, requestId, trace);
            headers.forEach(request::header);
            return request;
        }, body);
    }

    /**
     * Sends {@code call} to a path under its API's URL, which the provider serves, without a body;
     * returns once the response headers are in.
     */
    HttpClientResponse send(StoredCall call, String requestId, Optional<UpstreamTrace> trace) {
        ClientUri uri = ClientUri.create(URI.create(uris.get(call.api()).toUri() + call.path()
                + (call.query().isEmpty() ? "" : "?" + call.query())));
        Optional<Header> key = call.api() == UpstreamApi.MESSAGES ? xApiKey : bearerKey;
        return connections.submit(() -> request(call.method(), uri, key, false, requestId, trace), new byte[0]);
    }

    private Http1ClientRequest request(ClientUri uri, Optional<Header> key, boolean stream, String requestId,
                                       Optional<UpstreamTrace> trace) {
        return request(Method.POST, uri, key, stream, requestId, trace);
    }

    private Http1ClientRequest request(Method method, ClientUri uri, Optional<Header> key, boolean stream,
                                       String requestId, Optional<UpstreamTrace> trace) {
        Http1ClientRequest request = client.method(method)
                .uri(uri)
                .readTimeout(readTimeout)
                .header(HeaderValues.CONTENT_TYPE_JSON)
                .header(stream ? ACCEPT_EVENT_STREAM : ACCEPT_JSON)
                .header(USER_AGENT)
                .header(REQUEST_ID, requestId);
        for (Header header : providerHeaders) {
            request.header(header);
        }
        key.ifPresent(request::header);
        trace.flatMap(UpstreamTrace::traceparent).ifPresent(traceparent -> {
            request.header(TRACEPARENT, traceparent);
            trace.get().tracestate().ifPresent(state -> request.header(TRACESTATE, state));
        });
        return request;
    }

    private static List<Header> providerHeaders(Provider provider) {
        List<Header> headers = new ArrayList<>();
        for (Map.Entry<String, String> header : provider.headers().entrySet()) {
            headers.add(HeaderValues.createCached(HeaderNames.create(header.getKey()), header.getValue()));
        }
        return List.copyOf(headers);
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

    /** Closes the idle connections; those in use close when their answers end. */
    void close() {
        connections.close();
    }
}

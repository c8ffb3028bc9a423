package io.aigw.runtime.upstream;

import io.aigw.runtime.config.UpstreamTimeouts;
import io.aigw.runtime.plugin.Provider;
import io.helidon.common.buffers.DataReader.InsufficientDataAvailableException;
import io.helidon.common.socket.SocketOptions;
import io.helidon.common.tls.Tls;
import io.helidon.http.Header;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Method;
import io.helidon.webclient.api.ClientUri;
import io.helidon.webclient.api.ConnectionKey;
import io.helidon.webclient.api.HttpClientResponse;
import io.helidon.webclient.api.Proxy;
import io.helidon.webclient.api.WebClient;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webclient.http1.Http1ClientConfig;
import io.helidon.webclient.http1.Http1ClientProtocolConfig;
import io.helidon.webclient.http1.Http1ClientRequest;
import java.io.UncheckedIOException;
import java.net.ProxySelector;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One provider's HTTP client: keep-alive connections to its base URL, the provider's key and
 * headers on every request, nothing of the caller's but the body.
 *
 * <p>Connections come from our own {@link ConnectionPool}, not Helidon's cache: on every return
 * that cache starts a thread that watches the idle socket, and the next request waits for it.
 * Helidon's client still writes requests and parses answers, over TLS where the URL says https.
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
    private static final Tls NO_TLS = Tls.builder().enabled(false).build();
    /** Helidon's own default cache size. */
    private static final int MAX_IDLE_CONNECTIONS = 256;
    /**
     * Below the 60 s idle timeout of common cloud load balancers and nginx's 75 s, so that the large
     * providers practically never close a connection just as it is reused; long enough that light
     * traffic rarely pays a new TLS handshake. Servers that close sooner (uvicorn, Node and Apache
     * close after 5 s) cost one retry on a new connection, see {@link #post}.
     */
    static final Duration MAX_IDLE_TIME = Duration.ofSeconds(20);
    /**
     * No socket read timeout: {@link Deadlines} ends every wait on an upstream, first byte and idle
     * alike. With one, each read that had to wait became a timed park of its virtual thread, which
     * arms a timer in the JDK's scheduler and wakes the scheduler's timer thread to do it: 3.2
     * context switches and 4.8 futex calls a request at 32 connections, against 0.04 and 0.05
     * without (BENCHMARKS.md, "Eleventh round").
     */
    private static final Duration NO_READ_TIMEOUT = Duration.ZERO;

    /** The provider's own headers, then its key, as every request sends them. */
    private final List<Header> providerHeaders;
    private final WebClient webClient;
    private final Http1Client client;
    private final ClientUri uri;
    private final ConnectionKey connectionKey;
    private final ConnectionPool pool = new ConnectionPool(MAX_IDLE_CONNECTIONS, MAX_IDLE_TIME);

    UpstreamClient(Provider provider, UpstreamTimeouts timeouts, Optional<Tls> tls) {
        this.providerHeaders = providerHeaders(provider);
        URI url = provider.chatCompletionsUrl();
        // Parsed once: given a string, the client would parse it again on every request.
        this.uri = ClientUri.create(url);
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
                .readTimeout(NO_READ_TIMEOUT)
                .followRedirects(false)
                .proxy(systemProxyFor(url) ? Proxy.create() : Proxy.noProxy());
        tls.ifPresent(builder::tls);
        this.webClient = builder.build();
        // HTTP/1.1 directly: the generic WebClient would work out the protocol on every request. The
        // answers' headers unchecked: the few the caller gets are checked when relayed (HeaderSyntax).
        this.client = webClient.client(Http1Client.PROTOCOL,
                Http1ClientProtocolConfig.builder().validateResponseHeaders(false).build());
        this.connectionKey = connectionKey(uri, client.prototype());
    }

    /** Where and how to connect, as Helidon's own connection cache would key it. */
    private static ConnectionKey connectionKey(ClientUri uri, Http1ClientConfig config) {
        return ConnectionKey.create(uri.scheme(), uri.host(), uri.port(),
                "https".equals(uri.scheme()) ? config.tls() : NO_TLS,
                config.dnsResolver(), config.dnsAddressLookup(), config.proxy());
    }

    /**
     * Sends a chat completion request and returns once the response headers are in.
     *
     * <p>An idle connection the upstream has closed in the meantime fails at once, before any byte
     * of an answer: the request is then sent once more on a new connection, as OkHttp does. Never
     * after an answer began, never for a new connection, never after a timeout (Deadlines interrupts
     * this thread, which closes the socket and must end the wait).
     */
    HttpClientResponse post(byte[] body, boolean stream, String requestId) {
        PooledConnection reused = pool.take();
        if (reused != null) {
            try {
                return send(reused, body, stream, requestId);
            } catch (UncheckedIOException | InsufficientDataAvailableException e) {
                reused.closeResource();
                if (reused.answered() || Thread.currentThread().isInterrupted()) {
                    throw e;
                }
            } catch (RuntimeException e) {
                reused.closeResource();
                throw e;
            }
        }
        PooledConnection fresh = PooledConnection.open(webClient, connectionKey, pool);
        try {
            return send(fresh, body, stream, requestId);
        } catch (RuntimeException e) {
            fresh.closeResource();
            throw e;
        }
    }

    private HttpClientResponse send(PooledConnection connection, byte[] body, boolean stream, String requestId) {
        Http1ClientRequest request = client.method(Method.POST)
                .connection(connection)
                .uri(uri)
                .readTimeout(NO_READ_TIMEOUT)
                .header(HeaderValues.CONTENT_TYPE_JSON)
                .header(stream ? ACCEPT_EVENT_STREAM : ACCEPT_JSON)
                .header(USER_AGENT)
                .header(REQUEST_ID, requestId);
        for (Header header : providerHeaders) {
            request.header(header);
        }
        return request.submit(body);
    }

    private static List<Header> providerHeaders(Provider provider) {
        List<Header> headers = new ArrayList<>();
        for (Map.Entry<String, String> header : provider.headers().entrySet()) {
            headers.add(HeaderValues.createCached(HeaderNames.create(header.getKey()), header.getValue()));
        }
        // Marked sensitive, as a secret is: HTTP/2's header compression, should this client ever
        // speak it, never indexes such a header.
        provider.apiKey().ifPresent(key ->
                headers.add(HeaderValues.createCached(HeaderNames.AUTHORIZATION, false, true, key.bearer())));
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
        pool.close();
    }
}

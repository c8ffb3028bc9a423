package io.aigw.runtime.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import io.helidon.common.tls.Tls;
import io.helidon.webclient.api.DnsAddressLookup;
import io.helidon.webclient.api.WebClient;
import io.helidon.webclient.api.WebClientConfig;
import io.helidon.webclient.spi.DnsResolver;
import java.io.IOException;
import java.net.InetAddress;
import java.util.List;
import java.util.function.Consumer;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import okhttp3.tls.HandshakeCertificates;
import okhttp3.tls.HeldCertificate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An HTTPS upstream at an IP address, whose certificate names that address only: Helidon's client
 * checks the certificate against the name reverse DNS gives the address, the gateway's resolver
 * against the address as the URL writes it (package doc, 4).
 */
final class HostAsWrittenResolverTest {
    private final HeldCertificate authority = new HeldCertificate.Builder().certificateAuthority(0)
            .commonName("test authority").build();
    private MockWebServer upstream;

    @BeforeEach
    void start() throws IOException {
        HeldCertificate forTheAddressOnly = new HeldCertificate.Builder().signedBy(authority)
                .addSubjectAlternativeName("127.0.0.1").build();
        upstream = new MockWebServer();
        upstream.useHttps(new HandshakeCertificates.Builder()
                .heldCertificate(forTheAddressOnly, authority.certificate()).build().sslSocketFactory());
        upstream.start(InetAddress.getLoopbackAddress(), 0);
    }

    @AfterEach
    void stop() {
        upstream.close();
    }

    @Test
    void helidonsResolverMakesTheHandshakeCheckTheReverseDnsNameOfAnAddress() throws IOException {
        String reverseName = InetAddress.getByAddress(new byte[] {127, 0, 0, 1}).getHostName();
        assumeFalse(reverseName.equals("127.0.0.1"), "this machine has no reverse DNS name for 127.0.0.1");
        upstream.enqueue(new MockResponse.Builder().body("{}").build());

        RuntimeException refused = assertThrows(RuntimeException.class, () -> get(builder -> { }));

        assertTrue(rootMessage(refused).contains("No name matching " + reverseName),
                "Helidon's client no longer checks the reverse DNS name of an IP upstream: HostAsWrittenResolver may"
                        + " go (see the package doc). It failed with: " + rootMessage(refused));
        assertEquals(0, upstream.getRequestCount());
    }

    @Test
    void theGatewaysResolverMakesTheHandshakeCheckTheAddressAsWritten() {
        upstream.enqueue(new MockResponse.Builder().body("{}").build());

        assertEquals("{}", get(builder -> builder.dnsResolver(UpstreamConnections.hostAsWritten())));
    }

    @Test
    void aNameIsStillResolvedAndAnAddressIsNeverLookedUp() {
        DnsResolver resolver = UpstreamConnections.hostAsWritten();

        assertEquals("127.0.0.1", resolver.resolveAddress("127.0.0.1", null).getHostName());
        assertEquals("::1", resolver.resolveAddress("[::1]", null).getHostName());
        assertTrue(resolver.resolveAddress("localhost", DnsAddressLookup.defaultLookup()).isLoopbackAddress());
    }

    private String get(Consumer<WebClientConfig.Builder> resolver) {
        WebClientConfig.Builder builder = WebClient.builder()
                .tls(Tls.builder().trust(List.of(authority.certificate())).build());
        resolver.accept(builder);
        WebClient client = builder.build();
        try {
            return client.get("https://127.0.0.1:" + upstream.getPort() + "/").requestEntity(String.class);
        } finally {
            client.closeResource();
        }
    }

    private static String rootMessage(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        return String.valueOf(root.getMessage());
    }
}

package io.aigw.runtime.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.plugin.PluginDiscovery;
import io.aigw.runtime.testing.TestGateway;
import io.helidon.common.tls.Tls;
import java.io.IOException;
import java.net.InetAddress;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import okhttp3.tls.HandshakeCertificates;
import okhttp3.tls.HeldCertificate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every real upstream is HTTPS: the TLS path is exercised against a fake upstream with its own CA. */
public final class TlsUpstreamTest {
    private static final String CHAT = "{\"model\":\"openai/gpt-5\",\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}";
    private static final String ANSWER = "{\"object\":\"chat.completion\",\"model\":\"gpt-5\"}";
    /** What a caller learns of a failed handshake: no address, no certificate detail (those are logged). */
    private static final String TLS_FAILED = "{\"error\":{\"message\":\"Upstream openai is unreachable: the TLS"
            + " handshake failed.\",\"type\":\"upstream_error\",\"param\":null,\"code\":null}}";

    private final HeldCertificate authority = new HeldCertificate.Builder().certificateAuthority(0)
            .commonName("test authority").build();
    private MockWebServer upstream;

    @BeforeEach
    void start() throws IOException {
        HeldCertificate serverCertificate = new HeldCertificate.Builder()
                .signedBy(authority)
                .addSubjectAlternativeName("127.0.0.1")
                .addSubjectAlternativeName("localhost")
                .build();
        upstream = httpsUpstream(serverCertificate);
    }

    private MockWebServer httpsUpstream(HeldCertificate certificate) throws IOException {
        HandshakeCertificates server = new HandshakeCertificates.Builder()
                .heldCertificate(certificate, authority.certificate())
                .build();
        MockWebServer https = new MockWebServer();
        https.useHttps(server.sslSocketFactory());
        https.start(InetAddress.getLoopbackAddress(), 0);
        return https;
    }

    @AfterEach
    void stop() {
        upstream.close();
    }

    @Test
    void anHttpsUpstreamSignedByATrustedAuthorityIsReached() throws Exception {
        upstream.enqueue(new MockResponse.Builder().body(ANSWER).build());

        try (TestGateway gateway = gatewayTrustingTheAuthority()) {
            HttpResponse<String> response = gateway.chat(CHAT);

            assertEquals(200, response.statusCode(), response.body());
            assertEquals(ANSWER, response.body());
        }
        RecordedRequest received = upstream.takeRequest(5, TimeUnit.SECONDS);
        assertTrue(received.getHandshake() != null, "the upstream call must have gone over TLS");
        assertEquals("Bearer sk-upstream-openai", received.getHeaders().get("Authorization"));
    }

    @Test
    void anUpstreamAtAnIpAddressIsVerifiedAgainstThatAddressAsWrittenInTheUrl() throws Exception {
        upstream.close();
        upstream = httpsUpstream(new HeldCertificate.Builder().signedBy(authority)
                .addSubjectAlternativeName("127.0.0.1").build());
        upstream.enqueue(new MockResponse.Builder().body(ANSWER).build());

        try (TestGateway gateway = gatewayTrustingTheAuthority()) {
            HttpResponse<String> response = gateway.chat(CHAT);

            assertEquals(200, response.statusCode(), response.body());
            assertEquals(ANSWER, response.body());
        }
        assertEquals(1, upstream.getRequestCount());
    }

    @Test
    void sequentialHttpsRequestsShareOneTlsConnection() throws Exception {
        upstream.enqueue(new MockResponse.Builder().body(ANSWER).build());
        upstream.enqueue(new MockResponse.Builder().body(ANSWER).build());

        try (TestGateway gateway = gatewayTrustingTheAuthority()) {
            assertEquals(200, gateway.chat(CHAT).statusCode());
            HttpResponse<String> second = gateway.chat(CHAT);

            assertEquals(200, second.statusCode(), second.body());
            assertEquals(ANSWER, second.body());
        }
        RecordedRequest first = upstream.takeRequest(5, TimeUnit.SECONDS);
        RecordedRequest reused = upstream.takeRequest(5, TimeUnit.SECONDS);
        assertTrue(reused.getHandshake() != null, "the upstream call must have gone over TLS");
        assertEquals(first.getConnectionIndex(), reused.getConnectionIndex(), "the second request needed a new handshake");
        assertEquals(1, reused.getExchangeIndex());
    }

    @Test
    void theTrustedAuthorityCanComeFromTheConfigurationFile(@TempDir Path folder) throws Exception {
        Path pem = Files.writeString(folder.resolve("upstream-ca.pem"), authority.certificatePem());
        upstream.enqueue(new MockResponse.Builder().body(ANSWER).build());

        try (TestGateway gateway = TestGateway.start(Map.of(
                        "providers.openai.base-url", upstreamUrl(),
                        "gateway.upstream-tls.trust.pem.certificates.resource.path", pem.toString()),
                Map.of("OPENAI_API_KEY", "sk-upstream-openai"))) {
            HttpResponse<String> response = gateway.chat(CHAT);

            assertEquals(200, response.statusCode(), response.body());
            assertEquals(ANSWER, response.body());
        }
    }

    @Test
    void anUpstreamCertificateNobodyTrustsIsRefusedWith502() {
        try (TestGateway gateway = TestGateway.start(Map.of("providers.openai.base-url", upstreamUrl()),
                Map.of("OPENAI_API_KEY", "sk-upstream-openai"))) {
            HttpResponse<String> response = gateway.chat(CHAT);

            assertEquals(502, response.statusCode());
            assertEquals(TLS_FAILED, response.body());
        }
        assertEquals(0, upstream.getRequestCount());
    }

    @Test
    void aCertificateThatNamesTheHostButNotTheAddressInTheUrlIsRefused() throws Exception {
        upstream.close();
        upstream = httpsUpstream(new HeldCertificate.Builder().signedBy(authority)
                .addSubjectAlternativeName("localhost").build());

        try (TestGateway gateway = gatewayTrustingTheAuthority()) {
            HttpResponse<String> response = gateway.chat(CHAT);

            assertEquals(502, response.statusCode());
            assertEquals(TLS_FAILED, response.body());
        }
        assertEquals(0, upstream.getRequestCount());
    }

    /** A gateway whose openai provider is the fake upstream, trusting the test's authority. */
    private TestGateway gatewayTrustingTheAuthority() {
        return TestGateway.start(Map.of("providers.openai.base-url", upstreamUrl()),
                Map.of("OPENAI_API_KEY", "sk-upstream-openai"), PluginDiscovery.discover(),
                Optional.of(Tls.builder().trust(List.of(authority.certificate())).build()));
    }

    private String upstreamUrl() {
        return "https://127.0.0.1:" + upstream.getPort() + "/v1";
    }
}

package io.aigw.runtime.upstream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.aigw.runtime.error.ApiException;
import io.aigw.runtime.observe.GatewayMetrics;
import io.aigw.runtime.plugin.Provider;
import io.aigw.runtime.plugin.UpstreamKey;
import io.aigw.runtime.routing.Route;
import io.aigw.runtime.upstream.CallOutcome.Answered;
import io.aigw.runtime.upstream.CallOutcome.FailedAfterFirstByte;
import io.aigw.runtime.upstream.CallOutcome.FailedBeforeFirstByte;
import io.helidon.metrics.api.Counter;
import io.helidon.metrics.api.Metrics;
import io.helidon.metrics.api.Tag;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.ByteArrayInputStream;
import java.net.ConnectException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code gateway/auto}'s policy on its own: which failures send it on to the next provider, and
 * what the caller gets when it stops.
 */
public final class FallbackChainTest {
    private static final List<Route> CHAIN = routes("openai", "gemini", "anthropic");

    private final FallbackChain fallback = new FallbackChain(new GatewayMetrics(Metrics::globalRegistry, Set.of()));
    private final List<String> attempted = new ArrayList<>();
    /** The fallbacks counted per provider before the test: the registry is the process's own. */
    private final Map<String, Double> fallbacksBefore = Map.of("openai", fallbacksSoFar("openai"),
            "gemini", fallbacksSoFar("gemini"), "anthropic", fallbacksSoFar("anthropic"));

    @ParameterizedTest(name = "after a {0} the next provider is tried")
    @ValueSource(ints = {401, 403, 408, 409, 429, 500, 502, 503, 504})
    void aFailureAnotherProviderMayNotShareMovesOnAndIsCounted(int status) {
        CallOutcome outcome = fallback.tryInOrder(CHAIN, route -> attempt(route,
                route.provider().name().equals("openai") ? failed(status, "busy") : new Answered(200)));

        assertEquals(new Answered(200), outcome);
        assertEquals(List.of("openai", "gemini"), attempted);
        assertEquals(1, fallbacks("openai"));
        assertEquals(0, fallbacks("gemini"));
    }

    @ParameterizedTest(name = "a {0} goes back to the caller as the upstream sent it")
    @ValueSource(ints = {400, 404, 413, 422})
    void aFailureOfTheRequestItselfGoesStraightBack(int status) {
        CallOutcome outcome = fallback.tryInOrder(CHAIN, route -> attempt(route, failed(status, "bad request")));

        Failure failure = assertInstanceOf(FailedBeforeFirstByte.class, outcome).failure();
        assertEquals(status, failure.status().code());
        assertArrayEquals(errorBody("bad request"), failure.body());
        assertEquals(List.of("openai"), attempted);
        assertEquals(0, fallbacks("openai"));
    }

    @Test
    void anUnreachableOrSilentUpstreamMovesOn() {
        CallOutcome outcome = fallback.tryInOrder(CHAIN, route -> attempt(route, switch (route.provider().name()) {
            case "openai" -> new FailedBeforeFirstByte(
                    Failure.unreachable(route.provider(), new ConnectException("Connection refused")));
            case "gemini" -> new FailedBeforeFirstByte(
                    Failure.noHeadersWithin(route.provider(), Duration.ofSeconds(2)));
            default -> new Answered(200);
        }));

        assertEquals(new Answered(200), outcome);
        assertEquals(List.of("openai", "gemini", "anthropic"), attempted);
    }

    @Test
    void aStreamThatBrokeAfterItsFirstByteEndsTheChain() {
        CallOutcome broke = new FailedAfterFirstByte(502, "The connection to upstream openai broke mid-stream.", true);

        CallOutcome outcome = fallback.tryInOrder(CHAIN, route -> attempt(route, broke));

        assertEquals(broke, outcome);
        assertEquals(List.of("openai"), attempted);
    }

    @Test
    void whenEveryProviderFailsTheCallerGetsTheLastFailureListingWhatWasTried() {
        CallOutcome outcome = fallback.tryInOrder(CHAIN, route -> attempt(route, switch (route.provider().name()) {
            case "openai" -> failed(503, "overloaded");
            case "gemini" -> new FailedBeforeFirstByte(
                    Failure.unreachable(route.provider(), new ConnectException("Connection refused")));
            default -> failed(429, "slow down");
        }));

        Failure failure = assertInstanceOf(FailedBeforeFirstByte.class, outcome).failure();
        JsonObject error = json(failure.body()).getJsonObject("error");
        assertEquals(429, failure.status().code());
        assertEquals("gateway/auto tried every usable provider and all failed: openai (503 overloaded);"
                + " gemini (unreachable: the connection was refused); anthropic (429 slow down).", error.getString("message"));
        assertEquals("rate_limit_error", error.getString("type"));
        assertEquals(List.of("openai", "gemini", "anthropic"), attempted);
        assertEquals(1, fallbacks("anthropic"));
    }

    @Test
    void noUsableProviderAtAllIs502WithoutAnAttempt() {
        ApiException e = assertThrows(ApiException.class,
                () -> fallback.tryInOrder(List.of(), route -> attempt(route, new Answered(200))));

        assertEquals(502, e.error().status().code());
        assertEquals(List.of(), attempted);
    }

    private CallOutcome attempt(Route route, CallOutcome outcome) {
        attempted.add(route.provider().name());
        return outcome;
    }

    private static CallOutcome failed(int status, String message) {
        return new FailedBeforeFirstByte(Failure.answered(status, errorBody(message), List.of()));
    }

    private static byte[] errorBody(String message) {
        return ("{\"error\":{\"message\":\"" + message + "\",\"type\":\"rate_limit_error\",\"param\":null,"
                + "\"code\":null}}").getBytes(StandardCharsets.UTF_8);
    }

    /** Fallbacks counted for {@code provider} during the test. */
    private double fallbacks(String provider) {
        return fallbacksSoFar(provider) - fallbacksBefore.get(provider);
    }

    private static double fallbacksSoFar(String provider) {
        return Metrics.globalRegistry().counter("gateway.fallbacks", List.of(Tag.create("provider", provider)))
                .map(Counter::count).orElse(0L);
    }

    private static List<Route> routes(String... names) {
        return Arrays.stream(names).map(name -> new Route(new Provider(name, name, true, false, name + "-default", 1,
                URI.create("http://127.0.0.1:9/v1"), Optional.of(new UpstreamKey("sk-" + name)), "KEY", Map.of(),
                Set.of(), List.of(), 0, "test"), name + "-default")).toList();
    }

    private static JsonObject json(byte[] body) {
        try (var reader = Json.createReader(new ByteArrayInputStream(body))) {
            return reader.readObject();
        }
    }
}

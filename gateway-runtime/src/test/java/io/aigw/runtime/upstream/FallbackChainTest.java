package io.aigw.runtime.upstream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.aigw.runtime.error.ApiException;
import io.aigw.runtime.metering.ResponseFacts;
import io.aigw.runtime.metering.TokenUsage;
import io.aigw.runtime.plugin.PriceOrigin;
import io.aigw.runtime.plugin.Provider;
import io.aigw.runtime.routing.Route;
import io.aigw.runtime.upstream.CallOutcome.Answered;
import io.aigw.runtime.upstream.CallOutcome.FailedAfterFirstByte;
import io.aigw.runtime.upstream.CallOutcome.FailedBeforeFirstByte;
import io.aigw.spi.UpstreamApi;
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
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code gateway/auto}'s policy on its own: which failures send it on to the next provider, and
 * what the caller gets when it stops.
 */
public final class FallbackChainTest {
    private static final List<Route> CHAIN = routes("openai", "gemini", "anthropic");

    private final List<String> attempted = new ArrayList<>();
    /** The providers the chain said it moved past. */
    private final List<String> passedOver = new ArrayList<>();

    @ParameterizedTest(name = "after a {0} the next provider is tried")
    @ValueSource(ints = {401, 403, 408, 409, 429, 500, 502, 503, 504})
    void aFailureAnotherProviderMayNotShareMovesOnAndIsCounted(int status) {
        CallOutcome outcome = tryInOrder(CHAIN, route -> attempt(route,
                route.provider().name().equals("openai") ? failed(route, status, "busy") : answered(route)));

        assertEquals("gemini", assertInstanceOf(Answered.class, outcome).attempt().provider());
        assertEquals(List.of("openai", "gemini"), attempted);
        assertEquals(List.of("openai"), passedOver);
    }

    @ParameterizedTest(name = "a {0} goes back to the caller as the upstream sent it")
    @ValueSource(ints = {400, 404, 413, 422})
    void aFailureOfTheRequestItselfGoesStraightBack(int status) {
        CallOutcome outcome = tryInOrder(CHAIN, route -> attempt(route, failed(route, status, "bad request")));

        Failure failure = assertInstanceOf(FailedBeforeFirstByte.class, outcome).failure();
        assertEquals(status, failure.status().code());
        assertArrayEquals(errorBody("bad request"), failure.body());
        assertEquals(List.of("openai"), attempted);
        assertEquals(List.of(), passedOver);
    }

    @Test
    void anUnreachableOrSilentUpstreamMovesOn() {
        CallOutcome outcome = tryInOrder(CHAIN, route -> attempt(route, switch (route.provider().name()) {
            case "openai" -> failedWith(route, Failure.unreachable(route.provider(),
                    new ConnectException("Connection refused")));
            case "gemini" -> failedWith(route, Failure.noHeadersWithin(route.provider(), Duration.ofSeconds(2)));
            default -> answered(route);
        }));

        assertEquals("anthropic", assertInstanceOf(Answered.class, outcome).attempt().provider());
        assertEquals(List.of("openai", "gemini", "anthropic"), attempted);
    }

    @Test
    void aStreamThatBrokeAfterItsFirstByteEndsTheChain() {
        CallOutcome outcome = tryInOrder(CHAIN, route -> attempt(route, new FailedAfterFirstByte(
                new AnswerStart(route, true, 0, 0).cut(502, TokenUsage.NONE, ResponseFacts.NONE, 0),
                "The connection to upstream openai broke mid-stream.", true)));

        assertInstanceOf(FailedAfterFirstByte.class, outcome);
        assertEquals(List.of("openai"), attempted);
        assertEquals(List.of(), passedOver);
    }

    @Test
    void whenEveryProviderFailsTheCallerGetsTheLastFailureListingWhatWasTried() {
        CallOutcome outcome = tryInOrder(CHAIN, route -> attempt(route, switch (route.provider().name()) {
            case "openai" -> failed(route, 503, "overloaded");
            case "gemini" -> failedWith(route, Failure.unreachable(route.provider(),
                    new ConnectException("Connection refused")));
            default -> failed(route, 429, "slow down");
        }));

        Failure failure = assertInstanceOf(FailedBeforeFirstByte.class, outcome).failure();
        JsonObject error = json(failure.body()).getJsonObject("error");
        assertEquals(429, failure.status().code());
        assertEquals("gateway/auto tried every usable provider and all failed: openai (503 overloaded);"
                + " gemini (unreachable: the connection was refused); anthropic (429 slow down).", error.getString("message"));
        assertEquals("rate_limit_error", error.getString("type"));
        assertEquals(List.of("openai", "gemini", "anthropic"), attempted);
        assertEquals(List.of("openai", "gemini", "anthropic"), passedOver);
    }

    @Test
    void noUsableProviderAtAllIs502WithoutAnAttempt() {
        ApiException e = assertThrows(ApiException.class,
                () -> tryInOrder(List.of(), route -> attempt(route, answered(route))));

        assertEquals(502, e.error().status().code());
        assertEquals(List.of(), attempted);
    }

    private CallOutcome tryInOrder(List<Route> routes, Function<Route, CallOutcome> attempt) {
        return FallbackChain.tryInOrder("gateway/auto", routes, attempt, failed -> passedOver.add(failed.provider()));
    }

    private CallOutcome attempt(Route route, CallOutcome outcome) {
        attempted.add(route.provider().name());
        return outcome;
    }

    private static CallOutcome answered(Route route) {
        return new Answered(new AnswerStart(route, false, 0, 0).whole(200, TokenUsage.NONE, ResponseFacts.NONE, 0));
    }

    private static CallOutcome failed(Route route, int status, String message) {
        return new FailedBeforeFirstByte(
                Attempt.unanswered(route, Attempt.Ending.REFUSED, status, TokenUsage.NONE, 0),
                Failure.answered(status, errorBody(message), List.of()));
    }

    private static CallOutcome failedWith(Route route, Failure failure) {
        return new FailedBeforeFirstByte(
                Attempt.unanswered(route, Attempt.Ending.FAILED, failure.status().code(), TokenUsage.NONE, 0), failure);
    }

    private static byte[] errorBody(String message) {
        return ("{\"error\":{\"message\":\"" + message + "\",\"type\":\"rate_limit_error\",\"param\":null,"
                + "\"code\":null}}").getBytes(StandardCharsets.UTF_8);
    }

    private static List<Route> routes(String... names) {
        return Arrays.stream(names).map(name -> new Route(new Provider(name, name, true, false, name + "-default", 1,
                URI.create("http://127.0.0.1:9/v1"), List.of(), "KEY", Map.of(),
                Set.of(), List.of(), PriceOrigin.UNSTATED, 0, "test", Map.of(UpstreamApi.CHAT_COMPLETIONS, URI.create("http://127.0.0.1:9/v1"
                + UpstreamApi.CHAT_COMPLETIONS.defaultPath())), Set.of()), name + "-default")).toList();
    }

    private static JsonObject json(byte[] body) {
        try (var reader = Json.createReader(new ByteArrayInputStream(body))) {
            return reader.readObject();
        }
    }
}

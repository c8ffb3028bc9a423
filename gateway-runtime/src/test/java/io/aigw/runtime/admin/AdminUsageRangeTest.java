package io.aigw.runtime.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.aigw.runtime.testing.KeysApi;
import io.aigw.runtime.testing.TestGateway;
import jakarta.json.JsonObject;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code GET /admin/v1/usage} with a {@code from} or {@code to} the store cannot count in (past the
 * instants Java knows, or past a {@code long} of milliseconds) is the caller's mistake: 400 naming
 * the parameter, never a 500.
 */
public final class AdminUsageRangeTest {
    private static TestGateway gateway;

    @BeforeAll
    static void start() {
        gateway = TestGateway.start(Map.of("gateway.access-log", "off"), Map.of());
    }

    @AfterAll
    static void stop() {
        gateway.close();
    }

    @ParameterizedTest
    @CsvSource({
            "from=99999999999999999, from",              // past Instant.MAX
            "to=31556889864403199, to",                  // Instant.MAX, past a long of milliseconds
            "from=0&to=9223372036854776, to",          // a second past a long of milliseconds
            "to=+1000000000-01-01T00:00:00Z, to",
            "from=-1000000000-01-01T00:00:00Z, from",
            "to=-292275055-05-16T16:47:04.192Z, from",  // the earliest 'to': the default 'from' a day before it
    })
    void anInstantOutOfRangeIs400NamingTheParameter(String query, String param) {
        HttpResponse<String> response = usage("?" + query.replace("+", "%2B"));

        assertEquals(400, response.statusCode(), response.body());
        JsonObject error = KeysApi.json(response.body()).getJsonObject("error");
        assertEquals("invalid_request_error", error.getString("type"));
        assertEquals(param, error.getString("param"), response.body());
    }

    @Test
    void theWidestRangeTheStoreCountsInIsServed() {
        HttpResponse<String> response = usage("?from=-292275055-05-16T16:47:04.192Z&to=9223372036854775");

        assertEquals(200, response.statusCode(), response.body());
        assertEquals(9223372036854775L, KeysApi.json(response.body()).getJsonNumber("to").longValueExact());
    }

    private static HttpResponse<String> usage(String query) {
        return gateway.send(gateway.request("/admin/v1/usage" + query).GET().build());
    }
}

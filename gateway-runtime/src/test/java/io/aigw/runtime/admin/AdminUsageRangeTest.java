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
 * {@code GET /admin/v1/usage} with a parameter it cannot use (a day the store does not count in, a
 * range backwards, an unknown grouping or format) is the caller's mistake: 400 naming the
 * parameter, never a 500.
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
            "to=+1000000000-01-01T00:00:00Z, to",
            "from=1969-12-31, from",                    // before the days the store counts in
            "to=10000-01-01T00:00:00Z, to",
            "from=2026-02-30, from",
            "from=%D9%A1%D9%A7%D9%A0%D9%A0%D9%A0%D9%A0%D9%A0%D9%A0%D9%A0%D9%A0, from",  // Arabic-Indic 1700000000
            "to=%EF%BC%91%EF%BC%97%EF%BC%90%EF%BC%90%EF%BC%90%EF%BC%90%EF%BC%90%EF%BC%90%EF%BC%90%EF%BC%90, to",  // fullwidth
            "from=%D9%A2%D9%A0%D9%A2%D9%A6-11-01, from",  // an Arabic-Indic year
            "from=2026-11-02&to=2026-11-01, from",
            "group_by=team, group_by",
            "format=xml, format",
    })
    void aParameterThatCannotBeUsedIs400NamingIt(String query, String param) {
        HttpResponse<String> response = usage("?" + query.replace("+", "%2B"));

        assertEquals(400, response.statusCode(), response.body());
        JsonObject error = KeysApi.json(response.body()).getJsonObject("error");
        assertEquals("invalid_request_error", error.getString("type"));
        assertEquals(param, error.getString("param"), response.body());
    }

    @Test
    void theWidestRangeTheStoreCountsInIsServed() {
        HttpResponse<String> response = usage("?from=1970-01-01&to=9999-12-31&group_by=key,model,day");

        assertEquals(200, response.statusCode(), response.body());
        assertEquals("9999-12-31", KeysApi.json(response.body()).getString("to"));
    }

    private static HttpResponse<String> usage(String query) {
        return gateway.send(gateway.request("/admin/v1/usage" + query).GET().build());
    }
}

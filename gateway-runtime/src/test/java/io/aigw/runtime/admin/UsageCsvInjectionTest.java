package io.aigw.runtime.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.testing.CallRecords;
import io.aigw.runtime.testing.CannedUpstream;
import io.aigw.runtime.testing.KeysApi;
import io.aigw.runtime.testing.TestGateway;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.Test;

/**
 * The usage CSV carries no formula for a spreadsheet, whichever separator it splits at: every text
 * field is quoted, and each formula character that starts a text, or follows a separator or line
 * break inside it, gets a {@code '} before it. Read here as a spreadsheet in a {@code ;} locale
 * (German, French) reads it: a quote counts only at the start of a field.
 */
public final class UsageCsvInjectionTest {
    private static final String ANSWER = "{\"object\":\"chat.completion\",\"model\":\"gpt-5\",\"choices\":[],"
            + "\"usage\":{\"prompt_tokens\":2,\"completion_tokens\":3,\"total_tokens\":5}}";
    private static final List<String> HOSTILE_NAMES = List.of("x;=cmd|' /C calc'!A0;", "=SUM(A1:A9)", "@x",
            "-1+2", "+1", "a,b\"c;@d", "a;+b");

    @Test
    void keyNamesHoldingFormulasAreExportedQuotedAndNeutralisedForEverySeparator() throws Exception {
        try (MockWebServer upstream = CannedUpstream.start(200, ANSWER);
             TestGateway gateway = TestGateway.start(Map.of("gateway.access-log", "off",
                     "providers.openai.base-url", upstream.url("/v1").toString()), Map.of("OPENAI_API_KEY", "sk-up"))) {
            KeysApi api = KeysApi.of(gateway);
            for (String name : HOSTILE_NAMES) {
                String key = api.createKey(name).getString("key");
                HttpResponse<String> answer = gateway.send(HttpRequest.newBuilder(gateway.uri("/api/v1/chat/completions"))
                        .header("Authorization", "Bearer " + key).header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"openai/gpt-5\",\"messages\":[]}"))
                        .build());
                assertEquals(200, answer.statusCode(), answer.body());
            }
            CallRecords.usageRecords(gateway, HOSTILE_NAMES.size());

            HttpResponse<String> csv = api.send(api.request("/admin/v1/usage?format=csv&group_by=key,model,day",
                    TestGateway.KEY).GET());

            assertEquals(200, csv.statusCode(), csv.body());
            List<List<String>> bySemicolon = spreadsheet(csv.body(), ';');
            for (List<String> line : bySemicolon) {
                for (String field : line) {
                    assertTrue(field.isEmpty() || "=+-@\t\r".indexOf(field.charAt(0)) < 0,
                            "a field a ';' spreadsheet reads as a formula: " + field + " in " + line);
                }
            }
            List<List<String>> byComma = spreadsheet(csv.body(), ',');
            assertEquals(List.of("key_id", "key_name", "provider", "model", "day", "requests", "prompt_tokens",
                    "completion_tokens", "total_tokens", "cost_usd", "unknown_cost", "estimated_cost"), byComma.get(0));
            assertEquals(List.of("x;'=cmd|' /C calc'!A0;", "'=SUM(A1:A9)", "'@x", "'-1+2", "'+1", "a,b\"c;'@d",
                    "a;'+b"), byComma.subList(1, byComma.size()).stream().map(line -> line.get(1)).sorted(
                    (a, b) -> Integer.compare(order(a), order(b))).toList(), "each name, neutralised and whole");
            for (String line : csv.body().split("\r\n")) {
                assertTrue(line.startsWith("\""), "the first text of every line is quoted: " + line);
            }
        }
    }

    private static int order(String neutralised) {
        for (int i = 0; i < HOSTILE_NAMES.size(); i++) {
            if (neutralised.replace("'", "").equals(HOSTILE_NAMES.get(i).replace("'", ""))) {
                return i;
            }
        }
        throw new AssertionError("not one of the names: " + neutralised);
    }

    /**
     * Splits CSV at {@code separator} as spreadsheets and Python's {@code csv} module do: a quote
     * opens a quoted part only at the start of a field, a doubled quote inside it is one quote, and
     * whatever follows its closing quote up to the next separator belongs to the same field.
     */
    private static List<List<String>> spreadsheet(String csv, char separator) {
        List<List<String>> lines = new ArrayList<>();
        List<String> fields = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        boolean fieldStart = true;
        for (int i = 0; i < csv.length(); i++) {
            char c = csv.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < csv.length() && csv.charAt(i + 1) == '"') {
                    field.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    field.append(c);
                }
            } else if (c == '"' && fieldStart) {
                quoted = true;
                fieldStart = false;
            } else if (c == separator) {
                fields.add(field.toString());
                field.setLength(0);
                fieldStart = true;
            } else if (c == '\r' && i + 1 < csv.length() && csv.charAt(i + 1) == '\n') {
                fields.add(field.toString());
                lines.add(fields);
                fields = new ArrayList<>();
                field.setLength(0);
                fieldStart = true;
                i++;
            } else {
                field.append(c);
                fieldStart = false;
            }
        }
        return lines;
    }
}

package io.aigw.runtime.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.pricing.Cost;
import io.aigw.runtime.pricing.Usd;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The lines the access log writes, byte for byte, as a log shipper reads them. */
final class AccessLogTest {
    private static final Instant TIME = Instant.parse("2026-11-24T15:30:00.123456Z");

    @Test
    void eachEntryIsOneJsonLineWithAbsentValuesLeftOutAndMillisecondsToThreeDecimals() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (AccessLog log = new AccessLog(out)) {
            log.log(new AccessLog.Entry(TIME, "req-1", "POST", "/api/v1/chat/completions", "chat_completions", 200,
                    12_005, "key-7", "openai/gpt-5", "openai", "gpt-5", true, 1, 1_040, 11, 22, 33,
                    new Cost.Priced(new Usd(1_234_500), "a15116982ecb")));
            log.log(new AccessLog.Entry(TIME, "req-2", "GET", "/api/v1/models", null, 401, 7,
                    null, null, null, null, null, 0, -1, -1, -1, -1, null));
            log.log(new AccessLog.Entry(TIME, "req-\"3\"\\\n", "POST", "/x", null, 404, 3_000_400,
                    null, "caf\u00e9", null, null, false, 0, -1, -1, -1, -1, null));
            log.log(new AccessLog.Entry(TIME, "\u0001req-4", "POST", "\"", null, 400, 1,
                    null, null, null, null, null, 0, -1, -1, -1, -1, null));
        }

        assertEquals("""
                {"time":"2026-11-24T15:30:00.123456Z","request_id":"req-1","method":"POST",\
                "path":"/api/v1/chat/completions","endpoint":"chat_completions","status":200,"latency_ms":12.005,\
                "key_id":"key-7",\
                "model":"openai/gpt-5","provider":"openai","upstream_model":"gpt-5","stream":true,\
                "fallbacks":1,"first_byte_ms":1.040,"prompt_tokens":11,"completion_tokens":22,"total_tokens":33,\
                "cost_usd":0.001234500,"cost_basis":"priced"}
                {"time":"2026-11-24T15:30:00.123456Z","request_id":"req-2","method":"GET",\
                "path":"/api/v1/models","status":401,"latency_ms":0.007}
                {"time":"2026-11-24T15:30:00.123456Z","request_id":"req-\\"3\\"\\\\\\u000a","method":"POST",\
                "path":"/x","status":404,"latency_ms":3000.400,"model":"café","stream":false,"fallbacks":0}
                {"time":"2026-11-24T15:30:00.123456Z","request_id":"\\u0001req-4","method":"POST",\
                "path":"\\"","status":400,"latency_ms":0.001}
                """, out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void textOutsideAsciiIsUtf8AndALoneSurrogateIsEscaped() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (AccessLog log = new AccessLog(out)) {
            log.log(entry("req-1", "\uD83D\uDE00 \u4E2D\u6587 caf\u00e9"));
            log.log(entry("req-2", "lone \uD83D high, lone \uDE00 low"));
        }

        assertEquals("""
                {"time":"2026-11-24T15:30:00.123456Z","request_id":"req-1","method":"POST","path":"/x",\
                "status":200,"latency_ms":0.001,"model":"\uD83D\uDE00 \u4E2D\u6587 caf\u00e9"}
                {"time":"2026-11-24T15:30:00.123456Z","request_id":"req-2","method":"POST","path":"/x",\
                "status":200,"latency_ms":0.001,"model":"lone \\ud83d high, lone \\ude00 low"}
                """, out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aLongTextIsCutSoThatALineStaysShortAndWhole() {
        String longModel = "m\u00e9".repeat(40_000);
        String escapes = "\u0001".repeat(40_000);
        // The cut would fall between the two halves of an emoji: it goes before the emoji instead.
        String pairAtTheCut = "x".repeat(AccessLog.MAX_TEXT - 1) + "\uD83D\uDE00 and more";
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (AccessLog log = new AccessLog(out)) {
            log.log(entry("req-1", "short"));
            log.log(entry("req-2", longModel));
            log.log(entry("req-3", escapes));
            log.log(entry("req-4", pairAtTheCut));
        }

        List<String> lines = out.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals(List.of("short", longModel.substring(0, AccessLog.MAX_TEXT) + "...",
                        "\\u0001".repeat(AccessLog.MAX_TEXT) + "...", "x".repeat(AccessLog.MAX_TEXT - 1) + "..."),
                lines.stream().map(line -> line.substring(line.indexOf("\"model\":\"") + 9, line.length() - 2)).toList());
        assertTrue(lines.stream().allMatch(line -> line.length() < 2_000), String.join("\n", lines));
    }

    @Test
    void aBatchOfManyLinesKeepsEveryLineOnceInOrder() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (AccessLog log = new AccessLog(out)) {
            for (int i = 0; i < 100; i++) {
                log.log(new AccessLog.Entry(TIME, "req-" + i, "GET", "/api/v1/models", null, 200, i,
                        null, null, null, null, null, 0, -1, -1, -1, -1, null));
            }
        }

        List<String> ids = out.toString(StandardCharsets.UTF_8).lines()
                .map(line -> line.substring(line.indexOf("req-"), line.indexOf("\",\"method\""))).toList();
        assertEquals(IntStream.range(0, 100).mapToObj(i -> "req-" + i).toList(), ids);
    }

    private static AccessLog.Entry entry(String requestId, String model) {
        return new AccessLog.Entry(TIME, requestId, "POST", "/x", null, 200, 1,
                null, model, null, null, null, 0, -1, -1, -1, -1, null);
    }
}

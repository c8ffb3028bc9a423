package io.aigw.runtime.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.testing.RawCaller;
import io.aigw.runtime.testing.TestGateway;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Text a caller chooses reaches the access log escaped: a DEL, a C1 control or a bidirectional
 * override in a request's path is written as its JSON escape, so that a terminal or log viewer
 * shows neither a reordered line nor a control sequence, while a JSON reader still gets the path
 * the caller sent.
 */
public final class CallerTextInLogsTest {
    @TempDir
    Path folder;

    @Test
    void delC1AndBidiControlsInAPathAreEscapedInTheAccessLog() throws Exception {
        Path accessLog = folder.resolve("access.log");
        try (TestGateway gateway = TestGateway.start(Map.of("gateway.access-log", accessLog.toString()), Map.of());
             Socket caller = new Socket("127.0.0.1", gateway.gateway().port())) {
            // U+202E (right-to-left override), U+0085 (next line, C1), U+007F (DEL), U+2066 (isolate).
            RawCaller.sendGet(caller, "/api/v1/x%E2%80%AEgnp%C2%85y%7Fz%E2%81%A6w");

            assertEquals(404, RawCaller.readAnswer(caller.getInputStream()).status());

            String line = firstLine(accessLog);
            assertTrue(line.contains("\"path\":\"/api/v1/x\\u202egnp\\u0085y\\u007fz\\u2066w\""), line);
            assertTrue(line.codePoints().noneMatch(c -> c == 0x202e || c == 0x85 || c == 0x7f || c == 0x2066), line);
            JsonObject read = Json.createReader(new StringReader(line)).readObject();
            assertEquals("/api/v1/x\u202egnp\u0085y\u007fz\u2066w", read.getString("path"), "JSON reads the path as sent");
        }
    }

    private static String firstLine(Path file) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (System.nanoTime() < deadline) {
            if (Files.exists(file)) {
                List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
                if (!lines.isEmpty()) {
                    return lines.getFirst();
                }
            }
            Thread.sleep(20);
        }
        throw new AssertionError("no access log line within 5 s");
    }
}

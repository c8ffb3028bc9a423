package io.aigw.runtime.usage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.pricing.Cost;
import io.aigw.runtime.testing.GatewayInFront;
import io.aigw.runtime.testing.RawCaller;
import io.aigw.runtime.testing.ScriptedUpstream;
import io.aigw.runtime.testing.ScriptedUpstream.Exchange;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A plain answer that began to reach the caller and did not end whole (over 64 KB, relayed as it
 * arrives) is not free: without the usage its end would have carried, it is charged for the
 * prompt's text and the answer's text relayed, at four bytes a token, and recorded as estimated.
 * gpt-5 is priced here at USD 2 a million input tokens and 8 a million output tokens.
 */
public final class CutAnswersChargedTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    /** 18 bytes of prompt text: 5 tokens. */
    private static final String PROMPT = "{\"model\":\"openai/gpt-5\",\"messages\":[{\"role\":\"user\","
            + "\"content\":\"Write a long story\"}]}";
    private static final String HEAD = "{\"id\":\"c1\",\"object\":\"chat.completion\",\"choices\":[{\"index\":0,"
            + "\"message\":{\"role\":\"assistant\",\"content\":\"";
    /** 80 000 bytes of text, 20 000 tokens: more than the 64 KB read whole before relaying. */
    private static final String TEXT = "abcd".repeat(20_000);

    @RegisterExtension
    final GatewayInFront<ScriptedUpstream> front = GatewayInFront.scripted()
            .config("gateway.access-log", "off")
            .config("providers.openai.models.0.id", "gpt-5")
            .config("providers.openai.models.0.pricing.input", "2")
            .config("providers.openai.models.0.pricing.output", "8");

    @Test
    void anAnswerWhoseUpstreamStoppedShortIsChargedForTheTextRelayed() throws Exception {
        try (Socket caller = new Socket("127.0.0.1", front.gateway().gateway().port())) {
            caller.setSoTimeout((int) WAIT.toMillis());
            RawCaller.sendChat(caller, PROMPT);
            Exchange exchange = front.upstream().take(WAIT);
            exchange.startAnswer(200, "application/json", 1_000_000);
            exchange.write(HEAD + TEXT);
            exchange.close();

            String received = new String(caller.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(received.startsWith("HTTP/1.1 200 "), received.substring(0, 100));
            assertTrue(received.endsWith(HEAD + TEXT), "the caller gets what came, then the connection ends");
        }

        // 5 prompt tokens at 2 000 nano-dollars and 20 000 completion tokens at 8 000.
        assertEquals("502 5 20000 estimated 160010000", recordWhenWritten());
    }

    @Test
    void anAnswerWhoseCallerLeftIsChargedForTheTextThatReachedIt() throws Exception {
        Exchange exchange;
        try (Socket caller = new Socket("127.0.0.1", front.gateway().gateway().port())) {
            caller.setSoTimeout((int) WAIT.toMillis());
            RawCaller.sendChat(caller, PROMPT);
            exchange = front.upstream().take(WAIT);
            exchange.startAnswer(200, "application/json", 100_000_000);
            exchange.write(HEAD + TEXT);
            RawCaller.readUntil(caller.getInputStream(), "abcd");
        }
        assertTrue(exchange.keepWritingUntilClosed("abcd".repeat(1_000), WAIT), "the gateway must end the call");

        String[] record = recordWhenWritten().split(" ");
        long completion = Long.parseLong(record[2]);
        // At least the first 64 KB went out before the caller could read a byte of text.
        long relayedFirst = (64 * 1024 + 1 - HEAD.length()) / 4;
        assertTrue(completion >= relayedFirst, completion + " completion tokens");
        assertEquals("499 5 " + completion + " estimated " + (5 * 2_000 + completion * 8_000), String.join(" ", record));
    }

    /** The one usage record, once written: status, prompt and completion tokens, cost basis and nano-dollars. */
    private String recordWhenWritten() throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            try (Connection connection = DriverManager.getConnection(front.gateway().databaseUrl());
                 ResultSet rows = connection.createStatement().executeQuery("SELECT status, prompt_tokens,"
                         + " completion_tokens, cost_basis, cost_nanos FROM usage_records")) {
                if (rows.next()) {
                    return rows.getInt(1) + " " + rows.getLong(2) + " " + rows.getLong(3) + " "
                            + Cost.Basis.ofCode(rows.getInt(4)).label() + " " + rows.getLong(5);
                }
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no usage record within 10 s");
            }
            Thread.sleep(50);
        }
    }
}

package io.aigw.runtime.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.aigw.runtime.testing.TestGateway;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code gateway upstreams} against a running gateway: its keys by name and state, never a key itself. */
public final class UpstreamsCommandTest {

    @Test
    void printsEachProvidersKeysWithTheirStateAndNoSecret() {
        try (TestGateway gateway = TestGateway.start(Map.of("gateway.access-log", "off",
                "providers.openai.keys.0.name", "team-a", "providers.openai.keys.0.api-key", "sk-secret-a",
                "providers.openai.keys.0.weight", "3",
                "providers.openai.keys.1.name", "team-b", "providers.openai.keys.1.api-key", "sk-secret-b"),
                Map.of("GEMINI_API_KEY", "sk-secret-gemini"))) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int code = new UpstreamsCommand(gateway.uri("/"), Optional.of(TestGateway.KEY),
                    new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8))
                    .run(List.of());

            String printed = out.toString(StandardCharsets.UTF_8);
            assertEquals(PluginsCommand.OK, code, err.toString(StandardCharsets.UTF_8));
            assertEquals("{\"data\":[{\"provider\":\"openai\",\"keys\":["
                    + "{\"name\":\"team-a\",\"weight\":3,\"state\":\"healthy\",\"until\":null,\"in_flight\":0,"
                    + "\"last_error\":null,\"last_error_at\":null},"
                    + "{\"name\":\"team-b\",\"weight\":1,\"state\":\"healthy\",\"until\":null,\"in_flight\":0,"
                    + "\"last_error\":null,\"last_error_at\":null}]},"
                    + "{\"provider\":\"gemini\",\"keys\":["
                    + "{\"name\":\"default\",\"weight\":1,\"state\":\"healthy\",\"until\":null,\"in_flight\":0,"
                    + "\"last_error\":null,\"last_error_at\":null}]}]}\n", printed);
            assertFalse(printed.contains("sk-secret"), printed);
        }
    }

    @Test
    void withoutAnAdminKeyItSaysWhatToSet() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = new UpstreamsCommand(java.net.URI.create("http://127.0.0.1:9"), Optional.empty(),
                System.out, new PrintStream(err, true, StandardCharsets.UTF_8)).run(List.of());

        assertEquals(PluginsCommand.USAGE, code);
        assertEquals("gateway upstreams: set GATEWAY_ADMIN_KEY to an admin key of the running gateway.\n",
                err.toString(StandardCharsets.UTF_8));
    }
}

package io.aigw.distribution;

import static io.aigw.distribution.GatewayProcess.env;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The shipped conf/gateway.yaml with a misspelt key: bin/gateway refuses to start, naming it. */
public final class StrictConfigurationIT {
    @TempDir
    Path work;
    private Path home;

    @BeforeEach
    void copyDistribution() throws IOException {
        home = GatewayProcess.copyDistribution(work);
    }

    @Test
    void aMisspeltKeyInTheShippedFileIsOneLineOnStderrAndExitCodeTwo() throws Exception {
        Path settings = home.resolve("conf/gateway.yaml");
        String shipped = Files.readString(settings);
        assertTrue(shipped.contains("\nproviders:\n  openai:\n"), shipped);
        Files.writeString(settings, shipped.replace("\nproviders:\n  openai:\n",
                "\nproviders:\n  openai:\n    kyes:\n      - name: first\n"));

        try (GatewayProcess gateway = GatewayProcess.run(home, env("GATEWAY_PORT", "0"))) {
            assertEquals(2, gateway.awaitExit(), gateway.output());
            assertEquals("The gateway cannot start: unknown configuration key providers.openai.kyes (known: api-key,"
                    + " base-url, default-model, enabled, headers, keys, models, prefix, priority). A key the gateway does"
                    + " not read would be ignored: correct or remove it (docs/configuration.md lists every key).",
                    gateway.errors());
            assertEquals("", gateway.standardOutput());
        }
    }
}

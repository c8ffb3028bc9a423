package io.aigw.runtime.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.aigw.plugin.openai.OpenAiPlugin;
import io.aigw.runtime.config.ConfigurationException;
import io.aigw.runtime.config.Settings;
import io.aigw.runtime.testing.TestGateway;
import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A provider's key and headers go out on every request as they are: one that a header cannot carry,
 * or a header the gateway writes itself, is refused when the provider is made, never sent, and the
 * key never shown.
 */
final class ProviderHeadersTest {

    @Test
    void aKeyReadWithItsNewlineIsRefusedWithoutShowingIt() {
        ConfigurationException refused = assertThrows(ConfigurationException.class,
                () -> openai(Map.of("providers.openai.api-key", "sk-secret-123\n")));

        assertEquals("The key of provider openai holds a line break or another control character, which a header"
                + " cannot carry: was it read from a file with its newline?", refused.getMessage());
        assertFalse(refused.getMessage().contains("sk-secret"), refused.getMessage());
    }

    @Test
    void aConfiguredHeaderThatWouldSplitTheRequestIsRefusedByName() {
        ConfigurationException refused = assertThrows(ConfigurationException.class, () -> openai(Map.of(
                "providers.openai.api-key", "sk-ok",
                "providers.openai.headers.X-Team", "billing\r\nX-Injected: yes")));

        assertEquals("The header 'X-Team' of provider openai cannot be sent: a header's name is letters, digits and"
                + " !#$%&'*+-.^_`|~ only, and its value holds no line break or other control character.",
                refused.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"Host", "content-length", "Transfer-Encoding", "Connection", "Keep-Alive", "Upgrade", "TE",
            "Trailer", "Proxy-Authorization", "Authorization"})
    void aConfiguredHeaderTheGatewayWritesItselfStopsTheStartNamingProviderAndHeader(String header) {
        ConfigurationException refused = assertThrows(ConfigurationException.class, () -> TestGateway.start(Map.of(
                "providers.openai.headers." + header, "1", "gateway.access-log", "off"), Map.of()).close());

        assertEquals("providers.openai.headers sets '" + header + "' for provider openai, which cannot be: a"
                + " provider's headers cannot set Host, Content-Length, Transfer-Encoding, Connection, Keep-Alive,"
                + " Upgrade, TE, Trailer, any Proxy-* header, Authorization or x-api-key, which the gateway writes"
                + " itself."
                + " Remove it from providers.openai.headers.", refused.getMessage());
    }

    @Test
    void aWellFormedKeyAndHeaderAreKeptAsWritten() {
        Provider openai = openai(Map.of(
                "providers.openai.api-key", "sk-ok",
                "providers.openai.headers.X-Team", "billing\tteam"));

        assertEquals("billing\tteam", openai.headers().get("X-Team"));
        assertEquals("sk-ok", openai.keys().getFirst().value());
    }

    private static Provider openai(Map<String, String> config) {
        List<Provider> providers = new ProviderFactory(new Settings(Config.just(ConfigSources.create(config)),
                Map.of())).create(List.of(DiscoveredPlugin.of(new OpenAiPlugin())));
        return providers.getFirst();
    }
}

package io.aigw.runtime.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.aigw.runtime.config.ConfigurationException;
import io.aigw.spi.ProviderDescriptor;
import io.aigw.spi.ProviderPlugin;
import io.aigw.spi.UpstreamApi;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What SPI 1.2's declarations, {@code apis()} and {@code homeFor()}, must be for the gateway to take a plugin. */
final class PluginChecksTest {
    private static final String SOURCE = "widget.jar (com.example.widget.Plugin)";
    private static final PluginCalls CALLS = new PluginCalls(Duration.ofSeconds(5));

    @Test
    void apisAndHomesThatCanBeUsedAreTakenAsDeclared() {
        PluginChecks.Declarations declared = PluginChecks.declarations(plugin(Map.of(UpstreamApi.CHAT_COMPLETIONS,
                "/chat/completions", UpstreamApi.MESSAGES, "/v1/messages"), Set.of(UpstreamApi.MESSAGES)), SOURCE, CALLS);

        assertEquals(Map.of(UpstreamApi.CHAT_COMPLETIONS, "/chat/completions", UpstreamApi.MESSAGES, "/v1/messages"),
                declared.apis());
        assertEquals(Set.of(UpstreamApi.MESSAGES), declared.homeFor());
    }

    @ParameterizedTest(name = "''{0}''")
    @ValueSource(strings = {"embeddings", "/", "", "/embeddings?key=1", "/embed dings", "/embeddings#x"})
    void aPathTheGatewayCannotAppendToTheBaseUrlIsRefusedNamingTheApiAndThePath(String path) {
        ConfigurationException refused = refused(Map.of(UpstreamApi.CHAT_COMPLETIONS, "/chat/completions",
                UpstreamApi.EMBEDDINGS, path), Set.of());

        assertEquals("The plugin " + SOURCE + " is refused: its apis() gives EMBEDDINGS the path '" + path + "',"
                + " which is not a path to append to a base URL: it starts with '/' and holds letters, digits and"
                + " -._~/ only.", refused.getMessage());
    }

    @Test
    void apisWithoutChatCompletionsAreRefused() {
        assertEquals("The plugin " + SOURCE + " is refused: its apis() leaves out CHAT_COMPLETIONS, which every"
                + " provider serves.", refused(Map.of(UpstreamApi.EMBEDDINGS, "/embeddings"), Set.of()).getMessage());
    }

    @Test
    void aHomeForAnApiThePluginDoesNotServeIsRefused() {
        assertEquals("The plugin " + SOURCE + " is refused: its homeFor() names MESSAGES, which its apis() does not"
                + " serve.", refused(Map.of(UpstreamApi.CHAT_COMPLETIONS, "/chat/completions"),
                Set.of(UpstreamApi.MESSAGES)).getMessage());
    }

    @Test
    void aNullPathOrApiIsRefused() {
        Map<UpstreamApi, String> nullPath = new HashMap<>(Map.of(UpstreamApi.CHAT_COMPLETIONS, "/chat/completions"));
        nullPath.put(UpstreamApi.EMBEDDINGS, null);
        Map<UpstreamApi, String> nullApi = new HashMap<>(Map.of(UpstreamApi.CHAT_COMPLETIONS, "/chat/completions"));
        nullApi.put(null, "/embeddings");

        assertEquals("The plugin " + SOURCE + " is refused: what it declares cannot be used: its extraHeaders(),"
                + " unsupportedFields() or apis() holds a null.", refused(nullPath, Set.of()).getMessage());
        assertEquals("The plugin " + SOURCE + " is refused: its apis() returned null.",
                refused(nullApi, Set.of()).getMessage());
    }

    private static ConfigurationException refused(Map<UpstreamApi, String> apis, Set<UpstreamApi> homeFor) {
        return assertThrows(ConfigurationException.class,
                () -> PluginChecks.declarations(plugin(apis, homeFor), SOURCE, CALLS));
    }

    private static ProviderPlugin plugin(Map<UpstreamApi, String> apis, Set<UpstreamApi> homeFor) {
        return new ProviderPlugin() {
            @Override
            public ProviderDescriptor descriptor() {
                return ProviderDescriptor.builder("widget").defaultModel("widget-1")
                        .baseUrl("https://api.widget.example/v1").apiKeyVariable("WIDGET_API_KEY")
                        .baseUrlVariable("WIDGET_BASE_URL").build();
            }

            @Override
            public Map<UpstreamApi, String> apis() {
                return apis;
            }

            @Override
            public Set<UpstreamApi> homeFor() {
                return homeFor;
            }
        };
    }
}

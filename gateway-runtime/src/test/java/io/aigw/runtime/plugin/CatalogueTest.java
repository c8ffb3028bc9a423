package io.aigw.runtime.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.config.ConfigurationException;
import io.aigw.runtime.testing.TestGateway;
import io.aigw.spi.ProviderDescriptor;
import io.aigw.spi.ProviderPlugin;
import java.io.IOException;
import java.net.URL;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A plugin's catalogue resource, read with JSON-B, as callers meet it in {@code GET /api/v1/models};
 * and the catalogues that stop the gateway from starting, naming the plugin and what is wrong.
 */
public final class CatalogueTest {
    private static final String SOURCE = "widget.jar (x.WidgetPlugin)";

    @TempDir
    Path folder;

    @Test
    void everyMemberOfAnEntryReachesTheModelListAndAMissingNameOrOwnerTakesItsDefault() throws IOException {
        String catalogue = """
                [
                  {"id": "widget-1", "name": "Widget \\"One\\" \\u00e9", "context_length": 32000, "owned_by": "widgets",
                   "pricing": {"input": [0.5, {"per": "1M"}]}, "deprecated": null},
                  {"context_length": 8000, "id": "widget-2"}
                ]
                """;

        try (TestGateway gateway = gatewayWith(catalogue)) {
            HttpResponse<String> response = gateway.send(gateway.request("/api/v1/models").build());

            assertEquals(200, response.statusCode(), response.body());
            assertEquals("{\"data\":["
                    + "{\"id\":\"gateway/auto\",\"name\":\"Auto: the first available provider's default model\","
                    + "\"context_length\":32000,\"owned_by\":\"aigw\"},"
                    + "{\"id\":\"widget/widget-1\",\"name\":\"Widget \\\"One\\\" \u00e9\",\"context_length\":32000,"
                    + "\"owned_by\":\"widgets\"},"
                    + "{\"id\":\"widget/widget-2\",\"name\":\"widget-2\",\"context_length\":8000,"
                    + "\"owned_by\":\"" + SOURCE + "\"}]}", response.body());
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            a fractional context_length | [{"id":"m","name":"M","context_length":1000.5,"owned_by":"x"}] | 'context_length' because of: Expected a whole number, found 1000.5.
            a context_length as text    | [{"id":"m","context_length":"1000"}]                           | 'context_length' because of: Expected a whole number, found "1000".
            a context_length too large  | [{"id":"m","context_length":99999999999999999999}]            | 'context_length' because of: Expected a whole number within 64 bits, found 99999999999999999999.
            an id that is a number      | [{"id":42,"context_length":1000}]                              | 'id' because of: Expected a string, found 42.
            a name that is an object    | [{"id":"m","name":{"en":"M"},"context_length":1000}]           | 'name' because of: Expected a string, found an object.
            no id                       | [{"name":"M","context_length":1000}]                           | entry 1 has no 'id'
            no context_length           | [{"id":"a","context_length":1},{"id":"m"}]                     | entry 2 has no 'context_length'
            an entry that is null       | [null]                                                         | entry 1 has no 'id'
            null                        | null                                                           | it is null
            an object, not an array     | {"id":"m","context_length":1000}                               | Incorrect position
            not JSON                    | [{"id":"m",                                                    | it is not JSON: 
            """)
    void aCatalogueThatIsNotAnArrayOfEntriesStopsTheStartNamingThePluginAndTheFault(String what, String catalogue,
                                                                                      String fault) throws IOException {
        URL url = write(catalogue);

        ConfigurationException refused = assertThrows(ConfigurationException.class, () -> gatewayWith(url));

        String start = "The model catalogue of " + SOURCE + " (" + url
                + ") is not a JSON array of {id, name, context_length, owned_by}: ";
        assertTrue(refused.getMessage().startsWith(start), refused.getMessage());
        assertTrue(refused.getMessage().contains(fault), refused.getMessage());
    }

    private TestGateway gatewayWith(String catalogue) throws IOException {
        return gatewayWith(write(catalogue));
    }

    private static TestGateway gatewayWith(URL catalogue) {
        ProviderPlugin widget = new ProviderPlugin() {
            @Override
            public ProviderDescriptor descriptor() {
                return ProviderDescriptor.builder("widget").defaultModel("widget-1")
                        .baseUrl("https://widget.example/v1").apiKeyVariable("WIDGET_API_KEY")
                        .baseUrlVariable("WIDGET_BASE_URL").build();
            }

            @Override
            public Optional<URL> catalogue() {
                return Optional.of(catalogue);
            }
        };
        return TestGateway.start(Map.of("gateway.access-log", "off"), Map.of(),
                List.of(new DiscoveredPlugin(widget, SOURCE)), Optional.empty());
    }

    private URL write(String catalogue) throws IOException {
        Path file = folder.resolve("models.json");
        Files.writeString(file, catalogue);
        return file.toUri().toURL();
    }
}

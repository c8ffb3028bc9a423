package io.aigw.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.TestExecutionResult.Status.ABORTED;
import static org.junit.platform.engine.TestExecutionResult.Status.FAILED;
import static org.junit.platform.engine.TestExecutionResult.Status.SUCCESSFUL;

import io.aigw.spi.ProviderPlugin;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult.Status;

/**
 * The TCK run, as a plugin's build runs it, on the fixture plugins of {@code src/test/fixtures}: a
 * well-behaved one passes every check; each broken one fails the checks it breaks, with a message
 * that names the plugin and what is wrong, and passes the others.
 */
final class ProviderPluginTckTest {
    private static final String CHECKS_NEEDING_A_DESCRIPTOR = "prefix catalogue requestByModelId requestForGatewayAuto";

    @Test
    void aWellBehavedPluginPassesEveryCheck() {
        assertEquals(statuses(Map.of()), TckRun.of(WellBehaved.class).statuses());
    }

    @Test
    void aPrefixWithASlashFailsTheDescriptorCheckAndTheChecksThatNeedADescriptorAreSkipped() {
        TckRun run = TckRun.of(SlashPrefix.class);

        Map<String, Status> expected = new TreeMap<>(Map.of("descriptor", FAILED));
        for (String check : CHECKS_NEEDING_A_DESCRIPTOR.split(" ")) {
            expected.put(check, ABORTED);
        }
        assertEquals(statuses(expected), run.statuses());
        assertEquals("The plugin com.example.slash.SlashPlugin fails the TCK check 'descriptor':\n"
                + "  - descriptor() throws java.lang.IllegalArgumentException: prefix must not contain '/': acme/v2;"
                + " the gateway reports this and skips the plugin", run.message("descriptor"));
    }

    @Test
    void aCatalogueWithWrongTypesAndPrefixedIdsFailsNamingEachEntryAndTheGatewayDoesNotStartWithIt() {
        TckRun run = TckRun.of(BadCatalogue.class);

        assertEquals(statuses(Map.of("catalogue", FAILED, "requestByModelId", FAILED,
                "requestForGatewayAuto", FAILED)), run.statuses());
        assertEquals("The plugin com.example.catalogue.CataloguePlugin (prefix 'acme') fails the TCK check"
                + " 'catalogue':\n"
                + "  - entry 1 ('acme-large'): 'context_length' must be a positive whole number of tokens, not the"
                + " string \"128000\"\n"
                + "  - entry 2 ('acme/acme-small'): the id 'acme/acme-small' carries the plugin's own prefix 'acme/':"
                + " this plugin strips its prefix, so callers would write 'acme/acme/acme-small' and the upstream"
                + " would receive 'acme/acme-small'; write the id as the upstream knows it ('acme-small')\n"
                + "  - entry 3 ('acme-mini') has no 'owned_by'\n"
                + "  - entry 3 ('acme-mini'): 'context_length' must be a positive whole number of tokens, not the"
                + " number 8192.5\n"
                + "  - entry 4 ('acme-tiny'): 'pricing': 'input' must be a number of US dollars per million tokens,"
                + " not negative, not the string \"0.10\"", run.message("catalogue"));
        assertEquals("The plugin com.example.catalogue.CataloguePlugin (prefix 'acme') fails the TCK check"
                + " 'request by model id':\n"
                + "  - the gateway does not start with this plugin: The model catalogue of"
                + " com.example.catalogue.CataloguePlugin", run.message("requestByModelId").split(" \\(file:")[0]);
    }

    @Test
    void aGatewayHeaderAndRemovingTheModelFailTheHookChecksAndNoModelReachesTheUpstream() {
        TckRun run = TckRun.of(BadHooks.class);

        assertEquals(statuses(Map.of("extraHeaders", FAILED, "unsupportedFields", FAILED, "requestByModelId", FAILED,
                "requestForGatewayAuto", FAILED)), run.statuses());
        assertEquals("The plugin com.example.hooks.HooksPlugin (prefix 'acme') fails the TCK check 'extraHeaders':\n"
                + "  - X-Request-Id is a header the gateway sets on every request; a plugin never sends it",
                run.message("extraHeaders"));
        assertEquals("The plugin com.example.hooks.HooksPlugin (prefix 'acme') fails the TCK check"
                + " 'unsupportedFields':\n"
                + "  - 'model' is a field the gateway routes by and every request needs; it cannot be removed",
                run.message("unsupportedFields"));
        assertEquals("The plugin com.example.hooks.HooksPlugin (prefix 'acme') fails the TCK check"
                + " 'request by model id':\n"
                + "  - for a request for 'acme/acme-large' the upstream received no 'model'",
                run.message("requestByModelId"));
    }

    @Test
    void aPathWithoutItsSlashAndAHomeOfAnApiNotServedFailTheApiChecksAndTheGatewayRefusesThePlugin() {
        TckRun run = TckRun.of(BadApis.class);

        assertEquals(statuses(Map.of("apis", FAILED, "homeFor", FAILED, "requestByModelId", FAILED,
                "requestForGatewayAuto", FAILED)), run.statuses());
        String plugin = "The plugin com.example.apis.ApisPlugin (prefix 'acme')";
        assertEquals(plugin + " fails the TCK check 'apis':\n"
                + "  - apis() gives EMBEDDINGS the path 'embeddings', which the gateway cannot append to the base URL:"
                + " a path starts with '/' and holds letters, digits and -._~/ only (usually the API's defaultPath(),"
                + " '/embeddings')", run.message("apis"));
        assertEquals(plugin + " fails the TCK check 'homeFor':\n"
                + "  - homeFor() names MESSAGES, which apis() does not serve; the gateway refuses the plugin",
                run.message("homeFor"));
        String refused = run.message("requestByModelId");
        assertTrue(refused.startsWith(plugin + " fails the TCK check 'request by model id':\n"
                + "  - the gateway does not start with this plugin: The plugin com.example.apis.ApisPlugin"), refused);
        assertTrue(refused.contains("is refused: its apis() gives EMBEDDINGS the path 'embeddings'"), refused);
    }

    @Test
    void aPluginRegisteredNeitherWayFailsBothLoadingChecksSayingWhatToAdd() {
        TckRun run = TckRun.of(Unregistered.class);

        assertEquals(statuses(Map.of("loadsOnTheClassPath", FAILED, "loadsOnTheModulePath", FAILED)), run.statuses());
        String plugin = "The plugin com.example.unregistered.UnregisteredPlugin (prefix 'acme')";
        assertEquals(plugin + " fails the TCK check 'class path':\n"
                + "  - on a class path holding " + FixturePlugin.UNREGISTERED.classes() + ", ServiceLoader finds no"
                + " com.example.unregistered.UnregisteredPlugin: list the class in"
                + " META-INF/services/io.aigw.spi.ProviderPlugin", run.message("loadsOnTheClassPath"));
        assertEquals(plugin + " fails the TCK check 'module path':\n"
                + "  - module com.example.unregistered does not declare 'provides io.aigw.spi.ProviderPlugin with"
                + " com.example.unregistered.UnregisteredPlugin;', so the gateway's module path does not find it\n"
                + "  - on the module path, ServiceLoader finds no com.example.unregistered.UnregisteredPlugin in"
                + " module com.example.unregistered", run.message("loadsOnTheModulePath"));
    }

    @Test
    void aPluginWithoutModuleInfoFailsTheModulePathCheck() {
        TckRun run = TckRun.of(ClassPathOnly.class);

        assertEquals(statuses(Map.of("loadsOnTheModulePath", FAILED)), run.statuses());
        assertEquals("The plugin com.example.plain.PlainPlugin (prefix 'plain') fails the TCK check 'module path':\n"
                + "  - " + FixturePlugin.CLASS_PATH_ONLY.classes() + " holds no module-info.class: add a"
                + " module-info.java that says 'requires io.aigw.spi;' and 'provides io.aigw.spi.ProviderPlugin with"
                + " com.example.plain.PlainPlugin;'", run.message("loadsOnTheModulePath"));
    }

    @Test
    void aCatalogueFoundThroughTheClassLoaderIsMissedOnTheModulePath() {
        TckRun run = TckRun.of(ClassLoaderCatalogue.class);

        assertEquals(statuses(Map.of("loadsOnTheModulePath", FAILED)), run.statuses());
        assertEquals("The plugin com.example.loose.LoosePlugin (prefix 'loose') fails the TCK check 'module path':\n"
                + "  - on the module path, catalogue() finds no catalogue, though it does in this test: resolve it"
                + " from the plugin's own class, LoosePlugin.class.getResource(\"models.json\"), since a module's"
                + " resources are visible to its own code alone", run.message("loadsOnTheModulePath"));
    }

    @Test
    void aPluginBuiltAgainstANewerSpiFailsTheModulePathCheckNamingBothVersions() {
        TckRun run = TckRun.of(NewerSpi.class);

        assertEquals(statuses(Map.of("loadsOnTheModulePath", FAILED)), run.statuses());
        assertEquals("The plugin com.example.future.FuturePlugin (prefix 'future') fails the TCK check"
                + " 'module path':\n"
                + "  - module com.example.future was built against gateway SPI " + FixturePlugin.NEWER_SPI_VERSION
                + ", newer than the SPI " + ProviderPlugin.SPI_VERSION + " this test runs with; a gateway with SPI "
                + ProviderPlugin.SPI_VERSION + " refuses it", run.message("loadsOnTheModulePath"));
    }

    /** Every check SUCCESSFUL but those given. */
    private static Map<String, Status> statuses(Map<String, Status> exceptions) {
        Map<String, Status> statuses = new TreeMap<>();
        for (String check : "descriptor prefix catalogue extraHeaders unsupportedFields apis homeFor loadsOnTheClassPath"
                .concat(" loadsOnTheModulePath requestByModelId requestForGatewayAuto").split(" ")) {
            statuses.put(check, exceptions.getOrDefault(check, SUCCESSFUL));
        }
        return statuses;
    }

    // The TCK as each fixture's own build would extend it. Nested, so the build runs them only through the tests above.

    static final class WellBehaved extends ProviderPluginTck {
        @Override
        protected ProviderPlugin newPlugin() {
            return FixturePlugin.WELL_BEHAVED.newPlugin();
        }
    }

    static final class SlashPrefix extends ProviderPluginTck {
        @Override
        protected ProviderPlugin newPlugin() {
            return FixturePlugin.SLASH_PREFIX.newPlugin();
        }
    }

    static final class BadCatalogue extends ProviderPluginTck {
        @Override
        protected ProviderPlugin newPlugin() {
            return FixturePlugin.BAD_CATALOGUE.newPlugin();
        }
    }

    static final class BadHooks extends ProviderPluginTck {
        @Override
        protected ProviderPlugin newPlugin() {
            return FixturePlugin.BAD_HOOKS.newPlugin();
        }
    }

    static final class BadApis extends ProviderPluginTck {
        @Override
        protected ProviderPlugin newPlugin() {
            return FixturePlugin.BAD_APIS.newPlugin();
        }
    }

    static final class Unregistered extends ProviderPluginTck {
        @Override
        protected ProviderPlugin newPlugin() {
            return FixturePlugin.UNREGISTERED.newPlugin();
        }
    }

    static final class ClassPathOnly extends ProviderPluginTck {
        @Override
        protected ProviderPlugin newPlugin() {
            return FixturePlugin.CLASS_PATH_ONLY.newPlugin();
        }
    }

    static final class ClassLoaderCatalogue extends ProviderPluginTck {
        @Override
        protected ProviderPlugin newPlugin() {
            return FixturePlugin.CLASS_LOADER_CATALOGUE.newPlugin();
        }
    }

    static final class NewerSpi extends ProviderPluginTck {
        @Override
        protected ProviderPlugin newPlugin() {
            return FixturePlugin.NEWER_SPI.newPlugin();
        }
    }
}

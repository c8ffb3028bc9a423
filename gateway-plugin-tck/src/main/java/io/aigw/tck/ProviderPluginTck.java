package io.aigw.tck;

import io.aigw.spi.ProviderDescriptor;
import io.aigw.spi.ProviderPlugin;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The plugin TCK: what the gateway relies on in a provider plugin, checked against the plugin's
 * own build output. A plugin's tests extend this class and say how to make the plugin:
 * <pre>{@code
 * class AcmePluginTest extends ProviderPluginTck {
 *     @Override
 *     protected ProviderPlugin newPlugin() {
 *         return new AcmePlugin();
 *     }
 * }
 * }</pre>
 * Each check is one test, and a failing check names the plugin and every problem it found:
 * <ul>
 *   <li>the descriptor is valid and the same on every call and every instance;</li>
 *   <li>the prefix is one the gateway can route and configure;</li>
 *   <li>the catalogue is a JSON array of models (or an object holding one, with where its prices
 *       come from) with every field of the right type, prices included, ids as the
 *       upstream knows them;</li>
 *   <li>{@code extraHeaders()} and {@code unsupportedFields()} are constant and leave alone what
 *       the gateway owns;</li>
 *   <li>{@code apis()} and {@code homeFor()} are constant, serve chat completions, give paths the
 *       gateway can append to the base URL, and make the plugin the home only of APIs it serves;</li>
 *   <li>{@link java.util.ServiceLoader} finds the plugin on a class path and on the module path, in
 *       JVMs of their own that hold the SPI and the plugin alone;</li>
 *   <li>a request through a real gateway, started in the test's JVM with the plugin as its only
 *       provider, reaches a fake upstream on loopback with the model id and headers the plugin
 *       declares, the configured key, and never the caller's key.</li>
 * </ul>
 * The plugin's classes are checked where they are: the jar on the test's class path, or the
 * build's classes folder, which the jar is made of.
 */
public abstract class ProviderPluginTck {

    /** Creates the TCK for the plugin that {@link #newPlugin()} makes. */
    protected ProviderPluginTck() {
    }

    /**
     * Returns a new instance of the plugin under test, as {@link java.util.ServiceLoader} would make
     * one; the TCK calls it several times to check that instances agree.
     *
     * @return a new plugin instance
     */
    protected abstract ProviderPlugin newPlugin();

    /** Checks that {@code descriptor()} declares a valid provider, the same on every call. */
    @Test
    @DisplayName("descriptor: valid, and the same on every call and instance")
    public final void descriptor() {
        PluginUnderTest plugin = plugin();
        plugin.assertNoProblems("descriptor", DescriptorRules.descriptor(plugin));
    }

    /** Checks that the prefix can start model ids and name settings, and is not the gateway's own. */
    @Test
    @DisplayName("prefix: legal")
    public final void prefix() {
        PluginUnderTest plugin = plugin();
        plugin.assertNoProblems("prefix", DescriptorRules.prefix(plugin.descriptorOrSkip()));
    }

    /** Checks the shipped catalogue against the documented format. */
    @Test
    @DisplayName("catalogue: models {id, name, context_length, owned_by, pricing}, ids as the upstream knows them")
    public final void catalogue() {
        PluginUnderTest plugin = plugin();
        ProviderDescriptor descriptor = plugin.descriptorOrSkip();
        plugin.assertNoProblems("catalogue", CatalogueRules.check(plugin, descriptor));
    }

    /** Checks the headers the plugin adds to every request. */
    @Test
    @DisplayName("extraHeaders: constant, well-formed, none the gateway sets")
    public final void extraHeaders() {
        PluginUnderTest plugin = plugin();
        plugin.assertNoProblems("extraHeaders", HookRules.extraHeaders(plugin));
    }

    /** Checks the request fields the plugin has removed. */
    @Test
    @DisplayName("unsupportedFields: constant, never model or messages")
    public final void unsupportedFields() {
        PluginUnderTest plugin = plugin();
        plugin.assertNoProblems("unsupportedFields", HookRules.unsupportedFields(plugin));
    }

    /** Checks the APIs the plugin says its upstream serves. */
    @Test
    @DisplayName("apis: constant, chat completions served, each path one to append to the base URL")
    public final void apis() {
        PluginUnderTest plugin = plugin();
        plugin.assertNoProblems("apis", ApiRules.apis(plugin));
    }

    /** Checks the APIs the plugin is the home of for model ids without a provider. */
    @Test
    @DisplayName("homeFor: constant, only APIs the plugin serves")
    public final void homeFor() {
        PluginUnderTest plugin = plugin();
        plugin.assertNoProblems("homeFor", ApiRules.homeFor(plugin));
    }

    /** Checks that a class path holding the SPI and the plugin finds the plugin through its services file. */
    @Test
    @DisplayName("loads on a class path, from META-INF/services")
    public final void loadsOnTheClassPath() {
        PluginUnderTest plugin = plugin();
        plugin.assertNoProblems("class path", LoadingRules.classPath(plugin));
    }

    /** Checks that a module path holding the SPI and the plugin finds the plugin through its module declaration. */
    @Test
    @DisplayName("loads on the module path, from module-info's provides, with the SPI version recorded")
    public final void loadsOnTheModulePath() {
        PluginUnderTest plugin = plugin();
        plugin.assertNoProblems("module path", LoadingRules.modulePath(plugin));
    }

    /** Checks what reaches the upstream when a caller asks for one of the plugin's models by id. */
    @Test
    @DisplayName("a request through the gateway reaches the upstream with the model id and headers declared")
    public final void requestByModelId() {
        PluginUnderTest plugin = plugin();
        ProviderDescriptor descriptor = plugin.descriptorOrSkip();
        plugin.assertNoProblems("request by model id", new RoundTrip(plugin, descriptor).byModelId());
    }

    /** Checks what reaches the upstream when a caller asks for {@code gateway/auto}. */
    @Test
    @DisplayName("a request for gateway/auto reaches the upstream with the default model")
    public final void requestForGatewayAuto() {
        PluginUnderTest plugin = plugin();
        ProviderDescriptor descriptor = plugin.descriptorOrSkip();
        plugin.assertNoProblems("request for gateway/auto", new RoundTrip(plugin, descriptor).byGatewayAuto());
    }

    private PluginUnderTest plugin() {
        return PluginUnderTest.of(this::newPlugin);
    }
}

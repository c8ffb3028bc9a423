/** The OpenRouter provider plugin. */
module io.aigw.plugin.openrouter {
    requires io.aigw.spi;
    provides io.aigw.spi.ProviderPlugin with io.aigw.plugin.openrouter.OpenRouterPlugin;
}

/** The Anthropic provider plugin. */
module io.aigw.plugin.anthropic {
    requires io.aigw.spi;
    provides io.aigw.spi.ProviderPlugin with io.aigw.plugin.anthropic.AnthropicPlugin;
}

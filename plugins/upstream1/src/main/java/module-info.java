/** The OpenAI provider plugin. */
module io.aigw.plugin.openai {
    requires io.aigw.spi;
    provides io.aigw.spi.ProviderPlugin with io.aigw.plugin.openai.OpenAiPlugin;
}

/** The Google Gemini provider plugin. */
module io.aigw.plugin.gemini {
    requires io.aigw.spi;
    provides io.aigw.spi.ProviderPlugin with io.aigw.plugin.gemini.GeminiPlugin;
}

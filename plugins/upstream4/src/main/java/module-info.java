/** The xAI provider plugin. */
module io.aigw.plugin.xai {
    requires io.aigw.spi;
    provides io.aigw.spi.ProviderPlugin with io.aigw.plugin.xai.XaiPlugin;
}

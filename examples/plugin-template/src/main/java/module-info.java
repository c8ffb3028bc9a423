/**
 * The Acme provider plugin. A plugin is a module of its own, with packages of its own, that
 * requires the SPI alone and provides one {@code ProviderPlugin}; the gateway loads it from its
 * {@code plugins/} folder on the module path.
 */
module com.example.acme {
    requires io.aigw.spi;
    provides io.aigw.spi.ProviderPlugin with com.example.acme.AcmePlugin;
}

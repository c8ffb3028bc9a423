/**
 * The contract between the gateway and its provider plugins.
 *
 * <p>A plugin is a jar holding one {@link io.aigw.spi.ProviderPlugin} implementation, registered
 * with {@code provides io.aigw.spi.ProviderPlugin with ...} in its {@code module-info.java} and in
 * {@code META-INF/services/io.aigw.spi.ProviderPlugin}, so that it loads on the module path and on a
 * plain class path alike. This module depends on the JDK alone.
 */
module io.aigw.spi {
    exports io.aigw.spi;
}

package io.aigw.runtime.plugin;

import io.aigw.spi.ProviderPlugin;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleDescriptor.Version;
import java.util.Optional;

/**
 * Refuses a plugin built against a newer SPI than the gateway's own. javac records, in a plugin
 * module's descriptor, the version of the {@code io.aigw.spi} module it was compiled against; the
 * SPI module declares {@link ProviderPlugin#SPI_VERSION}. A plugin on the class path has no
 * descriptor and is not checked.
 */
final class SpiCompatibility {
    static final Version GATEWAY_SPI = Version.parse(ProviderPlugin.SPI_VERSION);
    private static final String SPI_MODULE = "io.aigw.spi";

    private SpiCompatibility() {
    }

    /** Returns why the plugin in {@code module} cannot run on this gateway, or empty when it can. */
    static Optional<String> refusal(Module module, String source) {
        return Optional.ofNullable(module.getDescriptor()).flatMap(descriptor -> refusal(descriptor, source));
    }

    /** Returns why the plugin module {@code descriptor} declares cannot run on this gateway, or empty when it can. */
    static Optional<String> refusal(ModuleDescriptor descriptor, String source) {
        return descriptor.requires().stream()
                .filter(requires -> requires.name().equals(SPI_MODULE))
                .flatMap(requires -> requires.compiledVersion().stream())
                .filter(compiledAgainst -> compiledAgainst.compareTo(GATEWAY_SPI) > 0)
                .findFirst()
                .map(compiledAgainst -> "The plugin " + source + " was built against gateway SPI " + compiledAgainst
                        + ", newer than this gateway's SPI " + GATEWAY_SPI + ", and is not loaded: run it on a"
                        + " gateway with SPI " + compiledAgainst + " or newer, or build it against SPI " + GATEWAY_SPI
                        + ".");
    }
}

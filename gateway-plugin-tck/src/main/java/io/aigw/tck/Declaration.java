package io.aigw.tck;

import io.aigw.spi.ProviderDescriptor;

/** What a plugin's {@code descriptor()} gave: a declaration, or why there is none. */
sealed interface Declaration {

    /** {@code descriptor()} returned a descriptor. */
    record Declared(ProviderDescriptor descriptor) implements Declaration {
    }

    /** {@code descriptor()} threw or returned null; the gateway would skip the plugin. */
    record Undeclared(String reason) implements Declaration {
    }

    /** Calls {@code descriptor()} on one instance, as the gateway does at discovery. */
    static Declaration of(io.aigw.spi.ProviderPlugin plugin) {
        try {
            ProviderDescriptor descriptor = plugin.descriptor();
            return descriptor == null ? new Undeclared("descriptor() returned null") : new Declared(descriptor);
        } catch (RuntimeException | LinkageError e) {
            return new Undeclared("descriptor() throws " + e);
        }
    }
}

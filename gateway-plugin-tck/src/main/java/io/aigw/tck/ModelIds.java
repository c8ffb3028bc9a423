package io.aigw.tck;

import io.aigw.spi.ProviderDescriptor;
import java.util.Optional;

/** How the gateway turns a plugin's model ids into the ids callers write, and what makes one wrong. */
final class ModelIds {

    private ModelIds() {
    }

    /** What is wrong with {@code id} as a model id the upstream knows, or empty. */
    static Optional<String> problem(String id, ProviderDescriptor descriptor) {
        if (id.isBlank() || id.codePoints().anyMatch(c -> Character.isWhitespace(c) || Character.isISOControl(c))) {
            return Optional.of("'" + id + "' is not a model id: it is blank or holds whitespace or control characters");
        }
        String prefix = descriptor.prefix() + "/";
        if (descriptor.stripsPrefix() && id.startsWith(prefix)) {
            return Optional.of("'" + id + "' carries the plugin's own prefix '" + prefix + "': this plugin strips its"
                    + " prefix, so callers would write '" + prefix + id + "' and the upstream would receive '" + id
                    + "'; write the id as the upstream knows it ('" + id.substring(prefix.length()) + "')");
        }
        return Optional.empty();
    }

    /**
     * What keeps a catalogue id from being listed, or empty. A plugin that keeps its prefix is asked
     * for exactly the ids it lists, so an id must start with its prefix to reach it; a catch-all
     * also serves ids of prefixes no plugin claims.
     */
    static Optional<String> unreachable(String id, ProviderDescriptor descriptor) {
        String prefix = descriptor.prefix() + "/";
        if (!descriptor.stripsPrefix() && !descriptor.catchAll() && !id.startsWith(prefix)) {
            return Optional.of("'" + id + "' does not start with '" + prefix + "': this plugin keeps its prefix and"
                    + " is no catch-all, so a request for '" + id + "' would not reach it, and the gateway leaves"
                    + " the id out of /api/v1/models");
        }
        return Optional.empty();
    }

    /** The id a caller writes for the upstream's {@code model}, as the gateway lists it. */
    static String publicId(String model, ProviderDescriptor descriptor) {
        return descriptor.stripsPrefix() ? descriptor.prefix() + "/" + model : model;
    }
}

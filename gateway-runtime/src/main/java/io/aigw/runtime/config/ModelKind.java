package io.aigw.runtime.config;

import java.util.Locale;
import java.util.Optional;

/**
 * What a model of a catalogue does, as its {@code kind} says: chat (the default), or embedding, a
 * model that answers embeddings requests and writes no tokens, so its price may leave out
 * {@code output}. Read from a plugin's catalogue and from {@code providers.<name>.models}.
 */
public enum ModelKind {
    CHAT, EMBEDDING;

    /** What a message says a kind must be. */
    public static final String RULE = "'kind' must be \"chat\" or \"embedding\"";

    /** The kind a catalogue or configuration writes as {@code text} ({@code chat}, {@code embedding}). */
    public static Optional<ModelKind> named(String text) {
        for (ModelKind kind : values()) {
            if (kind.label().equals(text)) {
                return Optional.of(kind);
            }
        }
        return Optional.empty();
    }

    /** Its name in catalogues, configuration and the model list. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}

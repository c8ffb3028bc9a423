package io.aigw.spi;

import java.net.URI;
import java.util.Objects;

/**
 * What a provider plugin declares about itself.
 *
 * <p>Example, for a provider reached at {@code https://api.example.com/v1} whose models are asked
 * for as {@code example/<model>}:
 * <pre>{@code
 * ProviderDescriptor.builder("example")
 *         .defaultModel("example-large")
 *         .priority(10)
 *         .baseUrl("https://api.example.com/v1")
 *         .apiKeyVariable("EXAMPLE_API_KEY")
 *         .baseUrlVariable("EXAMPLE_BASE_URL")
 *         .build();
 * }</pre>
 *
 * @param prefix          the model prefix this provider claims, the text before the first {@code /}
 *                        of a model id; also the provider's name in configuration
 * @param stripsPrefix    whether {@code prefix/} is removed from the model id before forwarding
 *                        ({@code openai/gpt-5} reaches the upstream as {@code gpt-5})
 * @param catchAll        whether this provider serves every prefix that no other plugin claims; at
 *                        most one installed plugin may say so, and it usually keeps ids unchanged
 * @param defaultModel    the model, as the upstream names it, that {@code gateway/auto} asks for
 * @param priority        the provider's place in the {@code gateway/auto} chain, lowest first
 * @param baseUrl         the URL that each API's path is appended to ({@link ProviderPlugin#apis()}),
 *                        such as {@code /chat/completions}
 * @param apiKeyVariable  the environment variable holding the upstream key, named as the vendor's
 *                        own SDK names it ({@code OPENAI_API_KEY})
 * @param baseUrlVariable the environment variable that overrides {@code baseUrl}
 */
public record ProviderDescriptor(
        String prefix,
        boolean stripsPrefix,
        boolean catchAll,
        String defaultModel,
        int priority,
        URI baseUrl,
        String apiKeyVariable,
        String baseUrlVariable) {

    /** Validates the declaration; a plugin with a broken one is reported and not loaded. */
    public ProviderDescriptor {
        requireText(prefix, "prefix");
        if (prefix.contains("/")) {
            throw new IllegalArgumentException("prefix must not contain '/': " + prefix);
        }
        requireText(defaultModel, "defaultModel");
        Objects.requireNonNull(baseUrl, "baseUrl");
        if (!"https".equals(baseUrl.getScheme()) && !"http".equals(baseUrl.getScheme())) {
            throw new IllegalArgumentException("baseUrl must be an http(s) URL: " + baseUrl);
        }
        requireText(apiKeyVariable, "apiKeyVariable");
        requireText(baseUrlVariable, "baseUrlVariable");
    }

    /** Starts a descriptor for the given prefix, which is stripped and not a catch-all by default. */
    public static Builder builder(String prefix) {
        return new Builder(prefix);
    }

    private static void requireText(String value, String name) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(name + " must not be blank");
        }
    }

    /** Builds a {@link ProviderDescriptor}; every setter returns this builder. */
    public static final class Builder {
        private final String prefix;
        private boolean stripsPrefix = true;
        private boolean catchAll;
        private String defaultModel;
        private int priority = 100;
        private URI baseUrl;
        private String apiKeyVariable;
        private String baseUrlVariable;

        private Builder(String prefix) {
            this.prefix = prefix;
        }

        /** Sets whether the prefix is removed before forwarding; {@code true} by default. */
        public Builder stripsPrefix(boolean stripsPrefix) {
            this.stripsPrefix = stripsPrefix;
            return this;
        }

        /** Sets whether this provider serves unclaimed prefixes; {@code false} by default. */
        public Builder catchAll(boolean catchAll) {
            this.catchAll = catchAll;
            return this;
        }

        /** Sets the model {@code gateway/auto} asks this provider for. */
        public Builder defaultModel(String defaultModel) {
            this.defaultModel = defaultModel;
            return this;
        }

        /** Sets the place in the {@code gateway/auto} chain, lowest first; 100 by default. */
        public Builder priority(int priority) {
            this.priority = priority;
            return this;
        }

        /** Sets the URL that each API's path, such as {@code /chat/completions}, is appended to. */
        public Builder baseUrl(String baseUrl) {
            this.baseUrl = URI.create(baseUrl);
            return this;
        }

        /** Sets the environment variable holding the upstream key. */
        public Builder apiKeyVariable(String apiKeyVariable) {
            this.apiKeyVariable = apiKeyVariable;
            return this;
        }

        /** Sets the environment variable that overrides the base URL. */
        public Builder baseUrlVariable(String baseUrlVariable) {
            this.baseUrlVariable = baseUrlVariable;
            return this;
        }

        /** Returns the descriptor; throws {@link IllegalArgumentException} when it is incomplete. */
        public ProviderDescriptor build() {
            return new ProviderDescriptor(prefix, stripsPrefix, catchAll, defaultModel, priority,
                    baseUrl, apiKeyVariable, baseUrlVariable);
        }
    }
}

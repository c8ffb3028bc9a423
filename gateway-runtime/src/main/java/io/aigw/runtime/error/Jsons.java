package io.aigw.runtime.error;

import jakarta.json.bind.JsonbConfig;
import jakarta.json.bind.config.PropertyNamingStrategy;
import jakarta.json.bind.config.PropertyVisibilityStrategy;
import jakarta.json.spi.JsonProvider;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import org.eclipse.yasson.JsonBindingProvider;
import org.eclipse.yasson.YassonJsonb;

/**
 * The JSON provider and the JSON-B instance, each made once. {@code jakarta.json.Json}'s static
 * methods look the provider up with {@link java.util.ServiceLoader} on every call, which the request
 * path cannot afford; a {@code Jsonb} caches what it learnt of each record, so one is shared.
 */
public final class Jsons {
    public static final JsonProvider PROVIDER = JsonProvider.provider();

    /**
     * Binds the typed documents (records) the gateway reads or writes whole; thread-safe. Its rules,
     * the same for every document: members are snake_case ({@code contextLength} is
     * {@code context_length}), a null component is written as {@code null} rather than left out,
     * and a string, a whole number or a boolean is read only from a JSON string, an integral JSON number
     * or {@code true}/{@code false}
     * ({@link StrictValues}), never converted from another kind of value. Members no record
     * declares are skipped. A record it writes names its member order with
     * {@code @JsonbPropertyOrder}: Yasson's own order is not the declaration order.
     *
     * <p>It takes a record's values from its fields, not its accessors: Yasson calls accessors
     * through {@code MethodHandles.publicLookup()}, which on the module path reaches only packages
     * exported to everyone, while a field it may make accessible in a package opened to it alone
     * ({@code module-info}); so no package of the runtime is exported for JSON-B's sake.
     */
    public static final YassonJsonb BINDING = (YassonJsonb) new JsonBindingProvider().create()
            .withProvider(PROVIDER)
            .withConfig(new JsonbConfig()
                    .withPropertyNamingStrategy(PropertyNamingStrategy.LOWER_CASE_WITH_UNDERSCORES)
                    .withNullValues(true)
                    .withPropertyVisibilityStrategy(new FieldsOnly())
                    .withDeserializers(new StrictValues.Text(), new StrictValues.WholeNumber(),
                            new StrictValues.Truth()))
            .build();

    private Jsons() {
    }

    private static final class FieldsOnly implements PropertyVisibilityStrategy {
        @Override
        public boolean isVisible(Field field) {
            return true;
        }

        @Override
        public boolean isVisible(Method method) {
            return false;
        }
    }
}

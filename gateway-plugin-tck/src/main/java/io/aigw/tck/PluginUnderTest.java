package io.aigw.tck;

import io.aigw.spi.ProviderDescriptor;
import io.aigw.spi.ProviderPlugin;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/** The plugin one TCK check runs against: fresh instances from the test's factory, and where its classes are. */
final class PluginUnderTest {
    private final Supplier<ProviderPlugin> factory;
    private final ProviderPlugin instance;
    private final Declaration declaration;

    private PluginUnderTest(Supplier<ProviderPlugin> factory, ProviderPlugin instance) {
        this.factory = factory;
        this.instance = instance;
        this.declaration = Declaration.of(instance);
    }

    static PluginUnderTest of(Supplier<ProviderPlugin> factory) {
        return new PluginUnderTest(factory, newInstance(factory));
    }

    /** The instance the check started with; its {@code descriptor()} has been called once. */
    ProviderPlugin instance() {
        return instance;
    }

    /** A second instance, as another start of the gateway would make. */
    ProviderPlugin another() {
        return newInstance(factory);
    }

    Declaration declaration() {
        return declaration;
    }

    /** The descriptor; a check that needs one is skipped when there is none, which the descriptor check reports. */
    ProviderDescriptor descriptorOrSkip() {
        if (declaration instanceof Declaration.Declared declared) {
            return declared.descriptor();
        }
        return Assumptions.abort(name() + " declares no provider, so this check cannot run; the check"
                + " 'descriptor' reports why: " + ((Declaration.Undeclared) declaration).reason());
    }

    String className() {
        return instance.getClass().getName();
    }

    /** The jar or folder the plugin's class was loaded from: what the gateway would be given. */
    Path location() {
        CodeSource code = instance.getClass().getProtectionDomain().getCodeSource();
        if (code == null || code.getLocation() == null) {
            return Assertions.fail(name() + " comes from no jar or folder, so the TCK cannot load it"
                    + " the way the gateway would.");
        }
        try {
            return Path.of(code.getLocation().toURI());
        } catch (URISyntaxException | IllegalArgumentException e) {
            return Assertions.fail(name() + " comes from " + code.getLocation()
                    + ", which is not a jar or folder the TCK can load it from.");
        }
    }

    /** How failures name the plugin: its class, and its prefix when it declares one. */
    String name() {
        String prefix = declaration instanceof Declaration.Declared declared
                ? " (prefix '" + declared.descriptor().prefix() + "')" : "";
        return "The plugin " + className() + prefix;
    }

    /** Fails the check named {@code check} with every problem found, or returns when there is none. */
    void assertNoProblems(String check, List<String> problems) {
        if (!problems.isEmpty()) {
            Assertions.fail(name() + " fails the TCK check '" + check + "':"
                    + String.join("", problems.stream().map(problem -> "\n  - " + problem).toList()));
        }
    }

    private static ProviderPlugin newInstance(Supplier<ProviderPlugin> factory) {
        ProviderPlugin plugin = factory.get();
        if (plugin == null) {
            Assertions.fail("newPlugin() returned null: it must return a new instance of the plugin under test.");
        }
        return plugin;
    }
}

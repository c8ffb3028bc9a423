package io.aigw.runtime.plugin;

import io.aigw.runtime.config.ConfigurationException;
import java.io.IOException;
import java.lang.module.FindException;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.file.Path;
import java.util.Optional;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/**
 * A plugin jar copied aside ({@link JarStaging}) and read as the module it is: the one its
 * {@code module-info.class} declares, or an automatic module named after the file, whose
 * {@code META-INF/services} registrations become its {@code provides}.
 */
record StagedJar(PluginJar jar, Path copy, ModuleReference module) {

    /**
     * Reads the module of a staged copy.
     *
     * @throws ConfigurationException naming the jar when it holds no readable module
     */
    static StagedJar of(PluginJar jar, Path copy) {
        try {
            // A jar file is one module.
            return new StagedJar(jar, copy, ModuleFinder.of(copy).findAll().iterator().next());
        } catch (FindException e) {
            throw refused(jar, "its module declaration cannot be read (a broken module-info.class, a"
                    + " META-INF/services entry naming a class the jar does not hold, or a file name no"
                    + " module can be named after): " + causes(e).replace(copy.toString(), jar.name()));
        }
    }

    ModuleDescriptor descriptor() {
        return module.descriptor();
    }

    String moduleName() {
        return module.descriptor().name();
    }

    /** The module's version, or else the manifest's {@code Implementation-Version}. */
    Optional<String> version() {
        return module.descriptor().rawVersion().or(this::implementationVersion);
    }

    private Optional<String> implementationVersion() {
        try (JarFile file = new JarFile(copy.toFile())) {
            return Optional.ofNullable(file.getManifest()).map(Manifest::getMainAttributes)
                    .map(attributes -> attributes.getValue(Attributes.Name.IMPLEMENTATION_VERSION));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** The refusal of this jar: {@code why} says what is wrong with it. */
    ConfigurationException refused(String why) {
        return refused(jar, why);
    }

    static ConfigurationException refused(PluginJar jar, String why) {
        return new ConfigurationException("The plugin jar " + jar.name() + " is refused: " + why);
    }

    /** A failure's message and its causes' in one line, as module resolution nests them. */
    static String causes(Throwable failure) {
        StringBuilder text = new StringBuilder(String.valueOf(failure.getMessage()));
        for (Throwable cause = failure.getCause(); cause != null; cause = cause.getCause()) {
            text.append(": ").append(cause.getMessage());
        }
        return text.toString();
    }
}

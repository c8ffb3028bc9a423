package io.aigw.distribution;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/** Third-party plugins compiled in the test tree, jarred into a distribution's plugins/. */
final class PluginJars {
    static final String IMPOSTOR_PACKAGE = "io/aigw/distribution/thirdparty/impostor";
    static final String IMPOSTOR_CLASS = "io.aigw.distribution.thirdparty.impostor.ImpostorPlugin";

    private PluginJars() {
    }

    /** Jars one compiled test plugin package (classes, resources, service registration) into {@code home}/plugins. */
    static Path install(Path home, String packagePath, String className, String jarName) throws Exception {
        Path classes = Path.of(PluginJars.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path jarFile = home.resolve("plugins").resolve(jarName);
        try (OutputStream file = Files.newOutputStream(jarFile);
             JarOutputStream jar = new JarOutputStream(file);
             Stream<Path> entries = Files.list(classes.resolve(packagePath))) {
            for (Path entry : entries.toList()) {
                jar.putNextEntry(new JarEntry(packagePath + "/" + entry.getFileName()));
                jar.write(Files.readAllBytes(entry));
                jar.closeEntry();
            }
            jar.putNextEntry(new JarEntry("META-INF/services/io.aigw.spi.ProviderPlugin"));
            jar.write((className + "\n").getBytes());
            jar.closeEntry();
        }
        return jarFile;
    }
}

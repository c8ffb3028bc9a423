package io.aigw.distribution;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;

/** Third-party plugins compiled in the test tree, jarred into a distribution's plugins/. */
final class PluginJars {
    static final String IMPOSTOR_PACKAGE = "io/aigw/distribution/thirdparty/impostor";
    static final String IMPOSTOR_CLASS = "io.aigw.distribution.thirdparty.impostor.ImpostorPlugin";
    static final String ACME_PACKAGE = "io/aigw/distribution/thirdparty/acme";
    static final String ACME_CLASS = "io.aigw.distribution.thirdparty.acme.AcmePlugin";

    private PluginJars() {
    }

    /** Jars one compiled test plugin package (classes, resources, service registration) into {@code home}/plugins. */
    static Path install(Path home, String packagePath, String className, String jarName) throws Exception {
        return Files.write(home.resolve("plugins").resolve(jarName), jar(packagePath, className, Map.of(), null));
    }

    /**
     * A jar of one compiled test plugin package: its classes and resources, with the files of
     * {@code replaced} (name in the package to its text) instead of or beside them, a service
     * registration, and an {@code Implementation-Version} when one is given.
     */
    static byte[] jar(String packagePath, String className, Map<String, String> replaced, String version)
            throws Exception {
        Path classes = Path.of(PluginJars.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Map<String, byte[]> entries = new HashMap<>();
        try (Stream<Path> files = Files.list(classes.resolve(packagePath))) {
            for (Path file : files.toList()) {
                entries.put(packagePath + "/" + file.getFileName(), Files.readAllBytes(file));
            }
        }
        replaced.forEach((name, text) -> entries.put(packagePath + "/" + name, text.getBytes(StandardCharsets.UTF_8)));
        entries.put("META-INF/services/io.aigw.spi.ProviderPlugin", (className + "\n").getBytes(StandardCharsets.UTF_8));
        return jar(entries, version);
    }

    /**
     * A copy of a plugin jar without its {@code module-info.class}, registered as a service instead:
     * the same packages in an automatic module named after {@code jarName}.
     */
    static Path withoutModuleDeclaration(Path pluginJar, Path folder, String jarName, String className)
            throws IOException {
        Map<String, byte[]> entries = new HashMap<>();
        try (JarFile jar = new JarFile(pluginJar.toFile())) {
            for (JarEntry entry : jar.stream().filter(entry -> !entry.isDirectory()).toList()) {
                if (!entry.getName().equals("module-info.class") && !entry.getName().startsWith("META-INF/")) {
                    entries.put(entry.getName(), jar.getInputStream(entry).readAllBytes());
                }
            }
        }
        entries.put("META-INF/services/io.aigw.spi.ProviderPlugin", (className + "\n").getBytes(StandardCharsets.UTF_8));
        return Files.write(folder.resolve(jarName), jar(entries, null));
    }

    private static byte[] jar(Map<String, byte[]> entries, String version) throws IOException {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        if (version != null) {
            manifest.getMainAttributes().put(Attributes.Name.IMPLEMENTATION_VERSION, version);
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (JarOutputStream jar = new JarOutputStream(bytes, manifest)) {
            for (Map.Entry<String, byte[]> entry : entries.entrySet()) {
                jar.putNextEntry(new JarEntry(entry.getKey()));
                jar.write(entry.getValue());
                jar.closeEntry();
            }
        }
        return bytes.toByteArray();
    }
}

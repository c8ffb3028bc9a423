package io.aigw.runtime.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.aigw.spi.ProviderPlugin;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.spi.ToolProvider;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Plugin jars made in a test: sources compiled with javac against the SPI (or against an SPI of
 * another version), jarred with their resources, a {@code META-INF/services} registration and, if
 * asked, a {@code module-info.class}, as a plugin author's build would make them.
 */
public final class PluginJarMaker {
    private final Path work;
    private final Map<String, String> sources = new LinkedHashMap<>();
    private final Map<String, byte[]> resources = new LinkedHashMap<>();
    private final List<String> services = new ArrayList<>();
    private String moduleInfo;
    private String implementationVersion;
    private Instant built;
    private Path spi = spiLocation();
    private final List<Path> libraries = new ArrayList<>();

    /** @param work a folder of the test's own, where sources and classes are written */
    public PluginJarMaker(Path work) {
        this.work = work;
    }

    /**
     * The source of {@code com.example.<pkg>.Plugin}, whose descriptor declares {@code prefix}, a
     * default model {@code <prefix>-1}, the key variable {@code <PREFIX>_API_KEY} and the base URL
     * variable {@code <PREFIX>_BASE_URL}, with {@code builderCalls} (such as
     * {@code .priority(0)}) applied last, and {@code members} added to the class.
     */
    public static String pluginSource(String pkg, String prefix, String builderCalls, String members) {
        String upper = prefix.toUpperCase().replace('-', '_');
        return """
                package com.example.%s;

                public final class Plugin implements io.aigw.spi.ProviderPlugin {
                    @Override
                    public io.aigw.spi.ProviderDescriptor descriptor() {
                        return io.aigw.spi.ProviderDescriptor.builder("%s").defaultModel("%s-1")
                                .baseUrl("https://%s.example/v1").apiKeyVariable("%s_API_KEY")
                                .baseUrlVariable("%s_BASE_URL")%s.build();
                    }
                %s
                }
                """.formatted(pkg, prefix, prefix, prefix, upper, upper, builderCalls, members);
    }

    /** A plugin of package {@code com.example.<pkg>} declaring {@code prefix}, registered as a service. */
    public static PluginJarMaker plugin(Path work, String pkg, String prefix, String builderCalls) {
        return new PluginJarMaker(work).source("com.example." + pkg + ".Plugin",
                pluginSource(pkg, prefix, builderCalls, "")).service("com.example." + pkg + ".Plugin");
    }

    public PluginJarMaker source(String className, String text) {
        sources.put(className, text);
        return this;
    }

    public PluginJarMaker resource(String path, String text) {
        resources.put(path, text.getBytes(StandardCharsets.UTF_8));
        return this;
    }

    /** Registers {@code className} in {@code META-INF/services/io.aigw.spi.ProviderPlugin}. */
    public PluginJarMaker service(String className) {
        services.add(className);
        return this;
    }

    /** Compiles a {@code module-info.java} of this text with the classes, against the SPI module. */
    public PluginJarMaker moduleInfo(String text) {
        moduleInfo = text;
        return this;
    }

    public PluginJarMaker implementationVersion(String version) {
        implementationVersion = version;
        return this;
    }

    /** Gives every entry of the jar this time, as a build that packed it then would; else the time it is made. */
    public PluginJarMaker builtAt(Instant time) {
        built = time;
        return this;
    }

    /** Compiles against this SPI (a jar or classes folder) instead of the gateway's. */
    public PluginJarMaker against(Path otherSpi) {
        spi = otherSpi;
        return this;
    }

    /** Compiles with the jar or classes folder of {@code type} on the module path too, for a module-info to require. */
    public PluginJarMaker alsoCompiledAgainst(Class<?> type) {
        try {
            libraries.add(Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()));
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        return this;
    }

    /** The jar's bytes. */
    public byte[] bytes() {
        try {
            Path folder = Files.createTempDirectory(work, "plugin-");
            Path source = Files.createDirectories(folder.resolve("src"));
            Path classes = Files.createDirectories(folder.resolve("classes"));
            List<String> files = new ArrayList<>();
            for (Map.Entry<String, String> entry : sources.entrySet()) {
                Path file = source.resolve(entry.getKey().replace('.', '/') + ".java");
                Files.createDirectories(file.getParent());
                files.add(Files.writeString(file, entry.getValue()).toString());
            }
            if (moduleInfo != null) {
                files.add(Files.writeString(source.resolve("module-info.java"), moduleInfo).toString());
            }
            String path = Stream.concat(Stream.of(spi), libraries.stream()).map(Path::toString)
                    .collect(Collectors.joining(File.pathSeparator));
            List<String> arguments = new ArrayList<>(List.of(moduleInfo != null ? "--module-path" : "-cp", path,
                    "-d", classes.toString()));
            arguments.addAll(files);
            javac(arguments.toArray(String[]::new));
            return jar(classes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes the jar into {@code folder} as {@code name}. */
    public Path writeTo(Path folder, String name) {
        try {
            return Files.write(folder.resolve(name), bytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private byte[] jar(Path classes) throws IOException {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        if (implementationVersion != null) {
            manifest.getMainAttributes().put(Attributes.Name.IMPLEMENTATION_VERSION, implementationVersion);
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (JarOutputStream jar = new JarOutputStream(bytes, manifest); Stream<Path> files = Files.walk(classes)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                jar.putNextEntry(entry(classes.relativize(file).toString().replace('\\', '/')));
                jar.write(Files.readAllBytes(file));
                jar.closeEntry();
            }
            for (Map.Entry<String, byte[]> resource : resources.entrySet()) {
                jar.putNextEntry(entry(resource.getKey()));
                jar.write(resource.getValue());
                jar.closeEntry();
            }
            if (!services.isEmpty()) {
                jar.putNextEntry(entry("META-INF/services/io.aigw.spi.ProviderPlugin"));
                jar.write((String.join("\n", services) + "\n").getBytes(StandardCharsets.UTF_8));
                jar.closeEntry();
            }
        }
        return bytes.toByteArray();
    }

    private JarEntry entry(String name) {
        JarEntry entry = new JarEntry(name);
        if (built != null) {
            entry.setLastModifiedTime(FileTime.from(built));
        }
        return entry;
    }

    /**
     * This gateway's SPI classes with a module declaration of another version, as a later (or
     * earlier) release of the SPI ships them, in {@code folder}.
     */
    public static Path spiDeclaring(Path folder, String version) {
        try {
            Path spi = Files.createDirectories(folder.resolve("spi-" + version));
            Path gatewaySpi = spiLocation();
            if (Files.isDirectory(gatewaySpi)) {
                copyClasses(gatewaySpi, spi);
            } else {
                try (FileSystem jar = FileSystems.newFileSystem(gatewaySpi)) {
                    copyClasses(jar.getPath("/"), spi);
                }
            }
            Path declaration = Files.writeString(Files.createDirectories(folder.resolve("spi-src-" + version))
                    .resolve("module-info.java"), "module io.aigw.spi { exports io.aigw.spi; }");
            javac("--module-version", version, "-d", spi.toString(), declaration.toString());
            return spi;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Where the gateway's SPI classes are: a jar or a classes folder. */
    public static Path spiLocation() {
        try {
            return Path.of(ProviderPlugin.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Runs javac for Java 21, failing the test with what it printed when it fails. */
    public static void javac(String... arguments) {
        List<String> all = Stream.concat(Stream.of("--release", "21"), Stream.of(arguments)).toList();
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8);
        assertEquals(0, ToolProvider.findFirst("javac").orElseThrow().run(out, out, all.toArray(String[]::new)),
                () -> "javac " + all + "\n" + printed.toString(StandardCharsets.UTF_8));
    }

    private static void copyClasses(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path file : files.filter(Files::isRegularFile).filter(file -> file.toString().endsWith(".class"))
                    .filter(file -> !file.getFileName().toString().equals("module-info.class")).toList()) {
                Path target = to.resolve(from.relativize(file).toString());
                Files.createDirectories(target.getParent());
                Files.copy(file, target);
            }
        }
    }
}

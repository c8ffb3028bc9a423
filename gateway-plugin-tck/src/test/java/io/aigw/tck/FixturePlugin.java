package io.aigw.tck;

import io.aigw.spi.ProviderPlugin;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.ServiceLoader;
import java.util.spi.ToolProvider;
import java.util.stream.Stream;

/**
 * The plugins under {@code src/test/fixtures}, each compiled on first use against the SPI as a
 * plugin's own build compiles it (a module where it has a {@code module-info.java}), into
 * {@code target/fixtures}. Its instances come through {@link ServiceLoader} from a class loader that
 * also holds a registration of the test's own, so that a plugin with a missing or wrong
 * registration can still be handed to the TCK, which checks the plugin's own folder.
 */
enum FixturePlugin {
    WELL_BEHAVED("well-behaved", "com.example.good.GoodPlugin"),
    SLASH_PREFIX("slash-prefix", "com.example.slash.SlashPlugin"),
    BAD_CATALOGUE("bad-catalogue", "com.example.catalogue.CataloguePlugin"),
    BAD_HOOKS("bad-hooks", "com.example.hooks.HooksPlugin"),
    BAD_APIS("bad-apis", "com.example.apis.ApisPlugin"),
    UNREGISTERED("unregistered", "com.example.unregistered.UnregisteredPlugin"),
    CLASS_PATH_ONLY("classpath-only", "com.example.plain.PlainPlugin"),
    CLASS_LOADER_CATALOGUE("class-loader-catalogue", "com.example.loose.LoosePlugin"),
    /** Compiled against this SPI's classes declared as a later version. */
    NEWER_SPI("newer-spi", "com.example.future.FuturePlugin");

    static final String NEWER_SPI_VERSION = "1.7";
    private static final Path SOURCES = Path.of("src", "test", "fixtures");
    private static final Path OUTPUT = Path.of("target", "fixtures");

    private final String folder;
    private final String className;
    private ClassLoader loader;

    FixturePlugin(String folder, String className) {
        this.folder = folder;
        this.className = className;
    }

    String className() {
        return className;
    }

    /** The folder the plugin's classes and resources are compiled into: what the TCK checks. */
    Path classes() {
        return OUTPUT.resolve(folder).toAbsolutePath();
    }

    ProviderPlugin newPlugin() {
        return ServiceLoader.load(ProviderPlugin.class, loader()).stream()
                .filter(provider -> provider.type().getName().equals(className))
                .findFirst().orElseThrow().get();
    }

    private synchronized ClassLoader loader() {
        if (loader == null) {
            try {
                compile();
                Path registration = OUTPUT.resolve(folder + "-registration").toAbsolutePath();
                Path services = registration.resolve("META-INF/services/" + ProviderPlugin.class.getName());
                Files.createDirectories(services.getParent());
                Files.writeString(services, className + "\n");
                loader = new URLClassLoader(new URL[] {url(classes()), url(registration)},
                        FixturePlugin.class.getClassLoader());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return loader;
    }

    private void compile() throws IOException {
        Path source = SOURCES.resolve(folder);
        deleteRecursively(classes());
        Files.createDirectories(classes());
        List<String> javaFiles;
        try (Stream<Path> files = Files.walk(source)) {
            List<Path> all = files.filter(Files::isRegularFile).toList();
            javaFiles = all.stream().filter(file -> file.toString().endsWith(".java")).map(Path::toString).toList();
            for (Path resource : all.stream().filter(file -> !file.toString().endsWith(".java")).toList()) {
                Path target = classes().resolve(source.relativize(resource).toString());
                Files.createDirectories(target.getParent());
                Files.copy(resource, target);
            }
        }
        boolean module = Files.exists(source.resolve("module-info.java"));
        Path spi = this == NEWER_SPI ? spiDeclaring(NEWER_SPI_VERSION) : ServiceLoading.spi();
        List<String> arguments = new ArrayList<>(List.of("--release", "21", module ? "--module-path" : "-cp",
                spi.toString(), "-d", classes().toString()));
        arguments.addAll(javaFiles);
        int exit = ToolProvider.findFirst("javac").orElseThrow().run(System.out, System.err,
                arguments.toArray(String[]::new));
        if (exit != 0) {
            throw new IllegalStateException("The fixture " + folder + " does not compile: javac " + arguments);
        }
    }

    /** This SPI's classes under a module declaration of another version: the SPI as a later release ships it. */
    private static Path spiDeclaring(String version) throws IOException {
        Path spi = OUTPUT.resolve("spi-" + version).toAbsolutePath();
        deleteRecursively(spi);
        Path current = ServiceLoading.spi();
        try (FileSystem jar = Files.isDirectory(current) ? null : FileSystems.newFileSystem(current);
             Stream<Path> files = Files.walk(jar == null ? current : jar.getPath("/"))) {
            Path root = jar == null ? current : jar.getPath("/");
            for (Path file : files.filter(file -> file.toString().endsWith(".class"))
                    .filter(file -> !file.endsWith("module-info.class")).toList()) {
                Path target = spi.resolve(root.relativize(file).toString());
                Files.createDirectories(target.getParent());
                Files.copy(file, target);
            }
        }
        Path declaration = Files.writeString(OUTPUT.resolve("module-info.java"), "module io.aigw.spi { exports io.aigw.spi; }");
        int exit = ToolProvider.findFirst("javac").orElseThrow().run(System.out, System.err, "--release", "21",
                "--module-version", version, "-d", spi.toString(), declaration.toString());
        if (exit != 0) {
            throw new IllegalStateException("The SPI cannot be declared as version " + version);
        }
        return spi;
    }

    private static URL url(Path folder) throws MalformedURLException {
        return folder.toUri().toURL();
    }

    private static void deleteRecursively(Path folder) throws IOException {
        if (Files.exists(folder)) {
            try (Stream<Path> paths = Files.walk(folder)) {
                for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(path);
                }
            }
        }
    }
}

package io.aigw.runtime.plugin;

import io.aigw.runtime.config.ConfigurationException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.ref.Cleaner;
import java.net.URLConnection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import java.util.zip.ZipException;
import java.util.zip.ZipFile;

/**
 * Private copies of the plugin jars, which their class loaders read instead of the files in the
 * plugins folder: an operator may then overwrite, delete or half-copy a jar there at any moment
 * without changing the classes a running plugin still loads, and a jar is loaded only once its copy
 * opens as a whole zip file. Each copy keeps its file's name (an automatic module is named after it)
 * in a folder of its own, deleted when the class loader that reads it is collected.
 */
final class JarStaging implements AutoCloseable {
    private static final Cleaner CLEANER = Cleaner.create();

    static {
        // A catalogue read through its jar: URL would otherwise stay open in the JDK's cache of jar
        // files for the life of the process, one more open (and deleted) copy at every reload.
        URLConnection.setDefaultUseCaches("jar", false);
    }

    private final AtomicLong copies = new AtomicLong();
    private Path root;

    /**
     * Copies {@code jar} and checks that the copy is a complete zip file.
     *
     * @throws ConfigurationException naming the jar, when it cannot be read or is not a whole jar
     */
    synchronized Path stage(PluginJar jar) {
        Path copy;
        try {
            copy = root().resolve(Long.toString(copies.incrementAndGet())).resolve(jar.name());
            Files.createDirectories(copy.getParent());
            Files.copy(jar.path(), copy);
        } catch (IOException e) {
            throw new ConfigurationException("The plugin jar " + jar.name() + " cannot be read: " + e);
        }
        try (ZipFile zip = new ZipFile(copy.toFile())) {
            zip.size();
        } catch (ZipException e) {
            delete(copy.getParent());
            throw new ConfigurationException("The plugin jar " + jar.name() + " is not a complete jar (zip) file, so"
                    + " it is not loaded: " + e.getMessage() + ". A jar still being copied is loaded once the copy"
                    + " is whole.");
        } catch (IOException e) {
            delete(copy.getParent());
            throw new ConfigurationException("The plugin jar " + jar.name() + " cannot be read: " + e);
        }
        return copy;
    }

    /** Deletes the copy {@code staged} once {@code reader}, the class loader reading it, is collected. */
    void deleteWhenCollected(Object reader, Path staged) {
        Path folder = staged.getParent();
        CLEANER.register(reader, () -> delete(folder));
    }

    /** Deletes a copy at once: its jar was refused, and no class loader reads it. */
    void discard(Path staged) {
        delete(staged.getParent());
    }

    private Path root() throws IOException {
        if (root == null) {
            root = Files.createTempDirectory("aigw-plugins-");
        }
        return root;
    }

    /** Deletes every copy: the gateway stops. */
    @Override
    public synchronized void close() {
        if (root != null) {
            delete(root);
        }
    }

    private static void delete(Path folder) {
        try (Stream<Path> paths = Files.walk(folder)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException | UncheckedIOException e) {
            // A copy left in the temp folder is harmless; the next start makes its own.
        }
    }
}

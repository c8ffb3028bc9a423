package io.aigw.runtime.plugin;

import io.aigw.runtime.config.ConfigurationException;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** The folder of plugin jars: each {@code *.jar} directly in it is a plugin; anything else is left alone. */
public record PluginFolder(Path path) {

    /**
     * The jars it holds now, by name. A file that goes away while the folder is read is left out.
     *
     * @throws ConfigurationException when the folder cannot be read
     */
    public List<PluginJar> jars() {
        List<PluginJar> jars = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(path, "*.jar")) {
            for (Path file : files) {
                try {
                    BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
                    if (attributes.isRegularFile()) {
                        jars.add(new PluginJar(file, attributes.size(), attributes.lastModifiedTime()));
                    }
                } catch (NoSuchFileException e) {
                    // Removed since it was listed.
                }
            }
        } catch (IOException e) {
            throw new ConfigurationException("The plugins folder " + path + " cannot be read: " + e);
        }
        jars.sort(Comparator.comparing(PluginJar::name));
        return List.copyOf(jars);
    }
}

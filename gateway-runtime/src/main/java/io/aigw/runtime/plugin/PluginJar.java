package io.aigw.runtime.plugin;

import java.nio.file.Path;
import java.nio.file.attribute.FileTime;

/**
 * A jar file of the plugins folder as it was seen: a file still being copied shows another size or
 * time at the next look.
 */
public record PluginJar(Path path, long size, FileTime modified) {

    /** The file's name, which is how messages and the plugin list name the jar. */
    public String name() {
        return path.getFileName().toString();
    }
}

package io.aigw.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * examples/plugin-template builds with a JDK it finds, as the gateway's own build does: a plugin
 * author copies it and runs its ./mvnw in a shell whose default java may be older than 21.
 */
public final class PluginTemplateIT {
    private static final Path TEMPLATE = Path.of(System.getProperty("template.dir", "../examples/plugin-template"));
    private static final Pattern JAVA_VERSION = Pattern.compile("Java version: (\\d+)");

    @TempDir
    Path work;

    /** Its ./mvnw runs Maven on a JDK 21+ although the java on PATH is a 17 and JAVA_HOME is unset. */
    @Test
    void aCopyOfTheTemplateRunsMavenOnAJdk21OrNewerWhenTheDefaultJavaIsOlder() throws Exception {
        Path plugin = copyWithoutTarget(TEMPLATE, work.resolve("acme-plugin"));
        Path oldJdk = fakeJdk17(work.resolve("jdk-17"));

        ProcessBuilder builder = new ProcessBuilder("./mvnw", "--batch-mode", "--version")
                .directory(plugin.toFile()).redirectErrorStream(true);
        Map<String, String> env = builder.environment();
        env.remove("JAVA_HOME");
        env.put("PATH", oldJdk.resolve("bin") + ":" + env.getOrDefault("PATH", "/usr/bin:/bin"));
        Process maven = builder.start();
        String printed = new String(maven.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(maven.waitFor(120, TimeUnit.SECONDS), printed);

        assertEquals(0, maven.exitValue(), printed);
        Matcher java = JAVA_VERSION.matcher(printed);
        assertTrue(java.find(), printed);
        assertTrue(Integer.parseInt(java.group(1)) >= 21, printed);
    }

    /** The template's copy of bin/find-java is the distribution's: one way of finding a JDK. */
    @Test
    void theTemplateFindsItsJdkAsBinGatewayDoes() throws IOException {
        assertEquals(Files.readString(Path.of("src/dist/bin/find-java")),
                Files.readString(TEMPLATE.resolve(".mvn/find-java")));
    }

    /**
     * A JDK 17 as find-java sees one (its release file) whose java cannot run anything: Maven
     * started with it would fail.
     */
    private static Path fakeJdk17(Path home) throws IOException {
        Path java = Files.createDirectories(home.resolve("bin")).resolve("java");
        Files.writeString(java, "#!/bin/sh\necho 'java 17 cannot build this plugin' >&2\nexit 1\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.writeString(home.resolve("release"), "JAVA_VERSION=\"17.0.15\"\n");
        return home;
    }

    private static Path copyWithoutTarget(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path source : files.filter(file -> !file.startsWith(from.resolve("target"))).toList()) {
                Path target = to.resolve(from.relativize(source).toString());
                if (Files.isDirectory(source)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(source, target, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
        return to;
    }
}

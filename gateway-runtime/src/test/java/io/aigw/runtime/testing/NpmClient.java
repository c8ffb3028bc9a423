package io.aigw.runtime.testing;

import jakarta.json.Json;
import jakarta.json.JsonObjectBuilder;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A client published on npm, installed as its users install it ({@code npm install}) with every
 * package it names at an exact version, in a folder of its own under the module's
 * {@code target/npm-clients} (Maven runs tests in the module's folder). The first test that needs
 * it installs it; later tests and later builds reuse it while it holds those versions, which they
 * check by reading the installed {@code package.json} files alone.
 *
 * <p>{@code npm} and {@code node} are taken from the {@code PATH}. Where npm is missing or cannot
 * install the packages, a test on a laptop is skipped with the reason and in CI it fails
 * ({@link ClientProcess#skipOrFail}).
 */
public final class NpmClient {
    private static final Path CLIENTS = Path.of("target", "npm-clients");
    private static final Duration INSTALL = Duration.ofMinutes(5);

    /** What this JVM found or made of each client, once; guarded by the class. */
    private static final Map<String, Installed> INSTALLED = new HashMap<>();

    private final String name;
    private final Map<String, String> versions;  // sorted, for a message that reads the same each time

    /** The client {@code name}: the npm packages it is made of, each with its exact version. */
    public NpmClient(String name, Map<String, String> versions) {
        this.name = name;
        this.versions = new TreeMap<>(versions);
    }

    /** A client as the first test that needed it left it: installed in a folder, or not, and why. */
    private sealed interface Installed {
        record Ready(Path folder) implements Installed {
        }

        record Unavailable(String reason) implements Installed {
        }
    }

    /**
     * The folder holding this client's {@code package.json} and {@code node_modules}, installing it
     * first if it is not there at its versions; skips or fails the test if it cannot be installed.
     */
    public Path folder() {
        return switch (installed()) {
            case Installed.Ready ready -> ready.folder().toAbsolutePath();
            case Installed.Unavailable unavailable -> {
                ClientProcess.skipOrFail(unavailable.reason());
                throw new AssertionError("unreachable");
            }
        };
    }

    private Installed installed() {
        synchronized (NpmClient.class) {
            return INSTALLED.computeIfAbsent(name, unused -> install());
        }
    }

    private Installed install() {
        Path folder = CLIENTS.resolve(name);
        // The lock keeps two builds of this module from filling one folder at the same time.
        try {
            Files.createDirectories(folder);
            try (FileChannel channel = FileChannel.open(CLIENTS.resolve(name + ".lock"), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE);
                    FileLock lock = channel.lock()) {
                if (holdsPinnedVersions(folder)) {
                    return new Installed.Ready(folder);
                }
                Files.writeString(folder.resolve("package.json"), packageJson());
                // One retry, soon: a registry out of reach fails the step in a minute, not in minutes.
                return ClientProcess.step(List.of("npm", "install", "--no-audit", "--no-fund", "--no-package-lock",
                                "--loglevel", "error", "--fetch-retries", "1", "--fetch-retry-mintimeout", "2000",
                                "--fetch-retry-maxtimeout", "5000", "--fetch-timeout", "30000"), folder, INSTALL)
                        .<Installed>map(failure -> new Installed.Unavailable("npm could not install " + versions
                                + " into " + folder.toAbsolutePath() + " (npm and Node.js 20 or later must be on the"
                                + " PATH): " + failure))
                        .orElseGet(() -> holdsPinnedVersions(folder) ? new Installed.Ready(folder)
                                : new Installed.Unavailable("npm install left other versions than " + versions
                                        + " in " + folder.toAbsolutePath()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String packageJson() {
        JsonObjectBuilder dependencies = Json.createObjectBuilder();
        versions.forEach(dependencies::add);
        return Json.createObjectBuilder().add("name", "aigw-test-" + name).add("private", true)
                .add("dependencies", dependencies).build().toString();
    }

    private boolean holdsPinnedVersions(Path folder) {
        return versions.entrySet().stream().allMatch(pin -> installedVersion(folder, pin.getKey())
                .filter(pin.getValue()::equals).isPresent());
    }

    private static Optional<String> installedVersion(Path folder, String packageName) {
        Path manifest = folder.resolve("node_modules").resolve(packageName).resolve("package.json");
        if (!Files.isRegularFile(manifest)) {
            return Optional.empty();
        }
        try {
            return Optional.of(Json.createReader(new StringReader(Files.readString(manifest))).readObject()
                    .getString("version", ""));
        } catch (IOException | RuntimeException e) {
            // A half-written manifest is a package to install again.
            return Optional.empty();
        }
    }
}

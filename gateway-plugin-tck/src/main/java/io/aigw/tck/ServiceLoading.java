package io.aigw.tck;

import io.aigw.spi.ProviderPlugin;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assertions;

/**
 * Runs {@link ServiceProbe} in a JVM of its own holding the SPI and the plugin alone, on the class
 * path or on the module path, as a gateway's JVM would hold them.
 */
final class ServiceLoading {

    private ServiceLoading() {
    }

    /** One line of the probe's output. */
    record Finding(String kind, List<String> values) {
    }

    /** What the probe reported, and any other output of its JVM (a JVM that cannot start says why there). */
    record ProbeRun(int exit, List<Finding> findings, List<String> otherOutput) {

        /** The module the plugin class was found in ("" for the class path), if ServiceLoader found it. */
        Optional<String> moduleOf(String className) {
            return findings.stream().filter(finding -> finding.kind().equals(ServiceProbe.PROVIDER))
                    .filter(finding -> finding.values().get(0).equals(className))
                    .map(finding -> finding.values().get(1)).findFirst();
        }

        List<String> providers() {
            return valuesOf(ServiceProbe.PROVIDER, 0);
        }

        List<String> errors() {
            return valuesOf(ServiceProbe.ERROR, 0);
        }

        /** "none", "N bytes" or why the catalogue could not be read. */
        Optional<String> catalogueOf(String className) {
            return findings.stream().filter(finding -> finding.kind().equals(ServiceProbe.CATALOGUE))
                    .filter(finding -> finding.values().get(0).equals(className))
                    .map(finding -> finding.values().get(1)).findFirst();
        }

        private List<String> valuesOf(String kind, int index) {
            return findings.stream().filter(finding -> finding.kind().equals(kind))
                    .map(finding -> finding.values().get(index)).toList();
        }
    }

    static ProbeRun onClassPath(Path plugin) {
        return run(List.of("-cp", String.join(File.pathSeparator, spi().toString(), plugin.toString(),
                probe().toString())));
    }

    static ProbeRun onModulePath(Path plugin) {
        return run(List.of("--module-path", spi() + File.pathSeparator + plugin, "--add-modules", "ALL-MODULE-PATH",
                "-cp", probe().toString()));
    }

    private static ProbeRun run(List<String> paths) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(paths);
        command.add(ServiceProbe.class.getName());
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            List<String> lines = process.inputReader().lines().toList();
            // A guard against a plugin whose constructor never returns, not a measure of anything.
            if (!process.waitFor(2, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                Assertions.fail("The JVM that loads the plugin with ServiceLoader did not end: " + command);
            }
            List<Finding> findings = new ArrayList<>();
            List<String> other = new ArrayList<>();
            for (String line : lines) {
                String[] parts = line.split("\t", -1);
                if (parts.length >= 2 && parts[0].equals(ServiceProbe.TAG)) {
                    findings.add(new Finding(parts[1], Arrays.asList(parts).subList(2, parts.length)));
                } else {
                    other.add(line);
                }
            }
            return new ProbeRun(process.exitValue(), List.copyOf(findings), List.copyOf(other));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot start a JVM to load the plugin: " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The gateway-spi jar (or classes folder) this test runs with. */
    static Path spi() {
        return locationOf(ProviderPlugin.class);
    }

    private static Path probe() {
        return locationOf(ServiceProbe.class);
    }

    private static Path locationOf(Class<?> type) {
        try {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static String lines(List<String> output) {
        return output.isEmpty() ? "(no output)" : String.join(" | ", output.stream().limit(8).toList());
    }
}

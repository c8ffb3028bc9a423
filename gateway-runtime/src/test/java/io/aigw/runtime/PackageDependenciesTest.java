package io.aigw.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The packages of the runtime as README's layout draws them: {@code api} drives a request along
 * {@code auth}, {@code routing} and {@code upstream}, each step knowing only the steps before it;
 * {@code observe} stands beside the path; no two packages need each other.
 */
final class PackageDependenciesTest {
    private static final Path SOURCES = Path.of("src/main/java/io/aigw/runtime");
    private static final Pattern IMPORT = Pattern.compile("^import (?:static )?io\\.aigw\\.runtime\\.([a-z]+)\\.",
            Pattern.MULTILINE);

    @Test
    void noTwoPackagesDependOnEachOtherEvenThroughOthers() {
        Map<String, Set<String>> imports = imports();
        List<String> cycles = new ArrayList<>();
        for (String from : imports.keySet()) {
            if (reaches(imports, from, from, new TreeSet<>())) {
                cycles.add(from);
            }
        }
        assertEquals(List.of(), cycles, "packages on a cycle; imports: " + imports);
    }

    @Test
    void theRequestPathReadsOneWayAndObserveStandsBesideIt() {
        Map<String, Set<String>> imports = imports();
        // api drives the path; each later step takes what the one before made, never what comes after it.
        List<String> path = List.of("api", "auth", "routing", "upstream");
        for (int i = 1; i < path.size(); i++) {
            for (String later : path.subList(i, path.size())) {
                Set<String> step = imports.get(path.get(i));
                assertTrue(!step.contains(later) && !step.contains("api"),
                        path.get(i) + " reaches along the path to " + later + " or api: " + step);
            }
        }
        assertTrue(!imports.get("observe").contains("api") && !imports.get("observe").contains("upstream"),
                "observe imports " + imports.get("observe"));
    }

    @Test
    void meteringStandsOnPricingAlone() {
        // The shared JSON provider (error.Jsons) is the one other thing it uses.
        assertEquals(Set.of("error", "pricing"), imports().get("metering"));
    }

    private static boolean reaches(Map<String, Set<String>> imports, String from, String target, Set<String> seen) {
        for (String next : imports.getOrDefault(from, Set.of())) {
            if (next.equals(target) || seen.add(next) && reaches(imports, next, target, seen)) {
                return true;
            }
        }
        return false;
    }

    /** Each package of the runtime and the other packages of the runtime its main sources import. */
    private static Map<String, Set<String>> imports() {
        Map<String, Set<String>> imports = new TreeMap<>();
        try (Stream<Path> files = Files.walk(SOURCES)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                Path folder = SOURCES.relativize(file).getParent();
                if (folder == null) {
                    continue; // The classes that put the packages together, above them all.
                }
                String from = folder.getName(0).toString();
                Set<String> targets = imports.computeIfAbsent(from, key -> new TreeSet<>());
                Matcher matcher = IMPORT.matcher(Files.readString(file));
                while (matcher.find()) {
                    if (!matcher.group(1).equals(from)) {
                        targets.add(matcher.group(1));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        assertTrue(imports.size() > 10, "read too few packages from " + SOURCES.toAbsolutePath() + ": " + imports);
        return imports;
    }
}

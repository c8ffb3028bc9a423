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
 * The packages of the runtime as the design draws them: {@code api} adapts HTTP and hands each
 * request to the {@code exchange}, which admits it ({@code auth}'s caller, {@code limits}), routes it
 * ({@code routing}) and makes its attempts through {@code upstream}; no step reaches back up.
 * {@code observe} stands beside the path and hears of it through the exchange's listener alone;
 * {@code metering} stands on {@code pricing}; no two packages need each other.
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
    void theRequestPathReadsOneWay() {
        Map<String, Set<String>> imports = imports();
        assertImportsNone(imports, "exchange", "api", "observe");
        assertImportsNone(imports, "upstream", "api", "exchange", "observe");
        assertImportsNone(imports, "routing", "api", "exchange", "upstream", "observe");
        assertImportsNone(imports, "auth", "api", "exchange", "routing", "upstream");
        assertImportsNone(imports, "limits", "api", "exchange", "upstream", "observe");
        assertImportsNone(imports, "observe", "api", "trace");
        assertImportsNone(imports, "trace", "api", "limits", "store");
    }

    @Test
    void onlyTheEndpointAdaptersAndTheListenersKnowTheExchange() {
        Set<String> users = new TreeSet<>();
        imports().forEach((from, targets) -> {
            if (targets.contains("exchange")) {
                users.add(from);
            }
        });
        // trace is a listener too, beside observe: the exchange's spans.
        assertEquals(Set.of("api", "observe", "trace"), users);
    }

    @Test
    void onlyObserveCountsMetrics() {
        // The exchange's listener counts an exchange's (observe.ExchangeMetrics); the rest is wired at the root.
        assertEquals(Set.of(), importersOf("import io.aigw.runtime.observe.GatewayMetrics;"));
    }

    @Test
    void meteringStandsOnPricingAlone() {
        // The shared JSON provider (error.Jsons) is the one other thing it uses.
        assertEquals(Set.of("error", "pricing"), imports().get("metering"));
    }

    @Test
    void theWaitsThatAuthAndLimitsTellOfStandOnNothing() {
        // So that auth and limits tell tracing of their waits without knowing it.
        assertEquals(Set.of(), imports().getOrDefault("waits", Set.of()));
    }

    private static void assertImportsNone(Map<String, Set<String>> imports, String from, String... others) {
        for (String other : others) {
            assertTrue(!imports.get(from).contains(other), from + " imports " + other + ": " + imports.get(from));
        }
    }

    /** The packages with a main source that has {@code line}. */
    private static Set<String> importersOf(String line) {
        Set<String> packages = new TreeSet<>();
        try (Stream<Path> files = Files.walk(SOURCES)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                Path folder = SOURCES.relativize(file).getParent();
                if (folder != null && Files.readString(file).contains(line)) {
                    packages.add(folder.getName(0).toString());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return packages;
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

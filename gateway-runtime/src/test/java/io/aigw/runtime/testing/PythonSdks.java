package io.aigw.runtime.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The official Python SDKs, OpenAI's ({@code openai} on PyPI, version {@value #OPENAI} exactly) and
 * Anthropic's ({@code anthropic}, {@value #ANTHROPIC}), run as a user's script runs them: a Python
 * process of its own, in a venv this class makes once per build under the module's
 * {@code target/python-sdk} (Maven runs tests in the module's folder) and reuses while it holds
 * those versions.
 *
 * <p>The venv is made with {@code AIGW_PYTHON}, or else {@code python3}. Where that Python or its
 * {@code venv} module is missing, or pip cannot install the SDKs, a test on a laptop is skipped with the
 * reason; in CI ({@code CI=true}) it fails: a test of a real client must never be skipped silently
 * there. Every step has a time limit, so a stalled index or script fails the test instead of
 * hanging the build.
 */
public final class PythonSdks {
    /** The OpenAI SDK release the tests run; raise it on purpose, as any dependency. */
    public static final String OPENAI = "3.22.1";

    /** The Anthropic SDK release the tests run. */
    public static final String ANTHROPIC = "1.13.0";

    private static final Map<String, String> PINNED = Map.of("openai", OPENAI, "anthropic", ANTHROPIC);

    private static final String VARIABLE = "AIGW_PYTHON";
    private static final Path VENV = Path.of("target", "python-sdk");
    /** The module's folder, where Maven runs the tests and the scripts run. */
    private static final Path HERE = Path.of("").toAbsolutePath();
    private static final Duration MAKE_VENV = Duration.ofMinutes(2);
    private static final Duration INSTALL = Duration.ofMinutes(5);
    private static final Duration VERSION_CHECK = Duration.ofMinutes(1);

    /** What this JVM found or made, once; guarded by the class. */
    private static Optional<Venv> venv = Optional.empty();

    private PythonSdks() {
    }

    /** The venv as the first test that needed it left it: usable, or not, and why. */
    private sealed interface Venv {
        record Ready(Path python) implements Venv {
        }

        record Unavailable(String reason) implements Venv {
        }
    }

    /**
     * Runs {@code script} ({@code python -c}) with {@code args} as {@code sys.argv[1:]} and
     * {@code environment} added to this process's (less every inherited client variable, so that a
     * real key never reaches it), and fails the test if it has not ended within {@code timeout}.
     */
    public static ClientProcess.Finished run(String script, Map<String, String> environment, Duration timeout,
                                             String... args) {
        Path python = switch (venv()) {
            case Venv.Ready ready -> ready.python();
            case Venv.Unavailable unavailable -> {
                ClientProcess.skipOrFail(unavailable.reason());
                throw new AssertionError("unreachable");
            }
        };
        List<String> command = new ArrayList<>(List.of(python.toString(), "-c", script));
        command.addAll(List.of(args));
        return ClientProcess.run(command, HERE, environment, timeout)
                .orElseThrow(() -> new AssertionError(
                        "the Python script did not end within " + timeout + ": " + script));
    }

    /** The venv with the pinned SDKs, made or completed by the first caller; a failure is not tried again. */
    private static synchronized Venv venv() {
        if (venv.isEmpty()) {
            Path python = VENV.resolve("bin").resolve("python");
            // The lock keeps two builds of this module from filling one venv at the same time.
            try (FileChannel channel = FileChannel.open(lockFile(), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                    FileLock lock = channel.lock()) {
                venv = Optional.of(hasPinnedSdks(python) ? new Venv.Ready(python) : install(python));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return venv.orElseThrow();
    }

    private static Path lockFile() throws IOException {
        Files.createDirectories(VENV.getParent());
        return VENV.getParent().resolve("python-sdk.lock");
    }

    private static boolean hasPinnedSdks(Path python) {
        if (!Files.isExecutable(python)) {
            return false;
        }
        String names = PINNED.keySet().stream().sorted().map(name -> "'" + name + "'")
                .collect(Collectors.joining(", ", "[", "]"));
        String check = "from importlib.metadata import version\nfor name in " + names + ":\n"
                + "    print(name + '==' + version(name))";
        return ClientProcess.run(List.of(python.toString(), "-c", check), HERE, Map.of(), VERSION_CHECK)
                .filter(found -> found.exitCode() == 0
                        && found.stdout().strip().equals(String.join("\n", requirements())))
                .isPresent();
    }

    /** {@code openai==3.22.1} and the like, in name order. */
    private static List<String> requirements() {
        return PINNED.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .map(pin -> pin.getKey() + "==" + pin.getValue()).toList();
    }

    private static Venv install(Path python) {
        String base = System.getenv().getOrDefault(VARIABLE, "python3");
        if (!Files.isExecutable(python)) {
            TestGateway.deleteRecursively(VENV);
            Optional<String> failed = ClientProcess.step(List.of(base, "-m", "venv", VENV.toString()), HERE,
                    MAKE_VENV);
            if (failed.isPresent()) {
                return new Venv.Unavailable("'" + base + " -m venv' could not make the venv " + VENV.toAbsolutePath()
                        + " (set " + VARIABLE + " to a Python 3 with the venv module): " + failed.get());
            }
        }
        List<String> command = new ArrayList<>(List.of(python.toString(), "-m", "pip", "install", "--quiet",
                "--disable-pip-version-check", "--retries", "1", "--timeout", "30"));
        command.addAll(requirements());
        return ClientProcess.step(command, HERE, INSTALL)
                .<Venv>map(failure -> new Venv.Unavailable("pip could not install " + requirements() + " into "
                        + VENV.toAbsolutePath() + ": " + failure))
                .orElse(new Venv.Ready(python));
    }
}

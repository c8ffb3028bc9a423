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

/**
 * The official OpenAI Python SDK ({@code openai} on PyPI, version {@value #VERSION} exactly), run
 * as a user's script runs it: a Python process of its own, in a venv this class makes once per
 * build under the module's {@code target/python-sdk} (Maven runs tests in the module's folder)
 * and reuses while it holds that version.
 *
 * <p>The venv is made with {@code AIGW_PYTHON}, or else {@code python3}. Where that Python or its
 * {@code venv} module is missing, or pip cannot install the SDK, a test on a laptop is skipped with the
 * reason; in CI ({@code CI=true}) it fails: a test of a real client must never be skipped silently
 * there. Every step has a time limit, so a stalled index or script fails the test instead of
 * hanging the build.
 */
public final class OpenAiPython {
    /** The SDK release the tests run; raise it on purpose, as any dependency. */
    public static final String VERSION = "3.22.1";

    private static final String VARIABLE = "AIGW_PYTHON";
    private static final Path VENV = Path.of("target", "python-sdk");
    /** The module's folder, where Maven runs the tests and the scripts run. */
    private static final Path HERE = Path.of("").toAbsolutePath();
    private static final Duration MAKE_VENV = Duration.ofMinutes(2);
    private static final Duration INSTALL = Duration.ofMinutes(5);
    private static final Duration VERSION_CHECK = Duration.ofMinutes(1);

    /** What this JVM found or made, once; guarded by the class. */
    private static Optional<Venv> venv = Optional.empty();

    private OpenAiPython() {
    }

    /** What a script's process ended with. */
    public record Finished(int exitCode, String stdout, String stderr) {
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
     * {@code environment} added to this process's (less every inherited {@code OPENAI_*}, so that a
     * real key never reaches it), and fails the test if it has not ended within {@code timeout}.
     */
    public static Finished run(String script, Map<String, String> environment, Duration timeout, String... args) {
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
                .map(finished -> new Finished(finished.exitCode(), finished.stdout(), finished.stderr()))
                .orElseThrow(() -> new AssertionError(
                        "the Python script did not end within " + timeout + ": " + script));
    }

    /** The venv with the pinned SDK, made or completed by the first caller; a failure is not tried again. */
    private static synchronized Venv venv() {
        if (venv.isEmpty()) {
            Path python = VENV.resolve("bin").resolve("python");
            // The lock keeps two builds of this module from filling one venv at the same time.
            try (FileChannel channel = FileChannel.open(lockFile(), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                    FileLock lock = channel.lock()) {
                venv = Optional.of(hasPinnedSdk(python) ? new Venv.Ready(python) : install(python));
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

    private static boolean hasPinnedSdk(Path python) {
        if (!Files.isExecutable(python)) {
            return false;
        }
        return ClientProcess.run(List.of(python.toString(), "-c", "import openai; print(openai.__version__)"), HERE,
                        Map.of(), VERSION_CHECK)
                .filter(version -> version.exitCode() == 0 && version.stdout().strip().equals(VERSION)).isPresent();
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
        return ClientProcess.step(List.of(python.toString(), "-m", "pip", "install", "--quiet",
                        "--disable-pip-version-check", "--retries", "1", "--timeout", "30", "openai==" + VERSION),
                HERE, INSTALL)
                .<Venv>map(failure -> new Venv.Unavailable("pip could not install openai==" + VERSION + " into "
                        + VENV.toAbsolutePath() + ": " + failure))
                .orElse(new Venv.Ready(python));
    }
}

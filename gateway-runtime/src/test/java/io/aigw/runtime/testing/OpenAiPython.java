package io.aigw.runtime.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * The official OpenAI Python SDK ({@code openai} on PyPI), run as a user's script runs it: a
 * Python interpreter in a process of its own, {@code AIGW_PYTHON} or else {@code python3}.
 *
 * <p>Where that interpreter cannot import {@code openai}, a test on a laptop is skipped with the
 * reason; in CI ({@code CI=true}), where {@code .ci/run} installs the SDK and names its interpreter,
 * it fails: a test of a real client must never be skipped silently there.
 */
public final class OpenAiPython {
    private static final String VARIABLE = "AIGW_PYTHON";

    private OpenAiPython() {
    }

    /**
     * Runs {@code script} ({@code python -c}) with {@code args} as {@code sys.argv[1:]}, expecting it
     * to end with exit code 0 within two minutes, and returns what it printed on stdout.
     */
    public static String run(String script, String... args) {
        String python = interpreter();
        List<String> command = new ArrayList<>(List.of(python, "-c", script));
        command.addAll(List.of(args));
        Process process = start(command);
        CompletableFuture<String> errors = CompletableFuture.supplyAsync(() -> read(process.getErrorStream()));
        String output = read(process.getInputStream());
        try {
            assertTrue(process.waitFor(2, TimeUnit.MINUTES), "the Python script did not end");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } finally {
            process.destroyForcibly();
        }
        assertEquals(0, process.exitValue(), "the Python script failed: " + output + errors.join());
        return output;
    }

    /** The interpreter that has the SDK, or else the test is skipped (failed in CI) saying why. */
    private static String interpreter() {
        Map<String, String> environment = System.getenv();
        String python = environment.getOrDefault(VARIABLE, "python3");
        boolean found;
        try {
            // A failed import prints a few lines of traceback, which the pipe holds unread.
            Process probe = start(List.of(python, "-c", "import openai"));
            found = probe.waitFor(1, TimeUnit.MINUTES) && probe.exitValue() == 0;
        } catch (UncheckedIOException e) {
            found = false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        if (!found) {
            String reason = "No Python with the OpenAI SDK: '" + python + "' cannot import openai (set " + VARIABLE
                    + " to an interpreter that can, e.g. a venv's bin/python after 'pip install openai')";
            if ("true".equalsIgnoreCase(environment.get("CI"))) {
                Assertions.fail(reason + " (CI=true, where .ci/run installs it)");
            }
            Assumptions.abort(reason);
        }
        return python;
    }

    private static Process start(List<String> command) {
        ProcessBuilder builder = new ProcessBuilder(command);
        // The script gets its base URL and key as arguments, never a real upstream's from the environment.
        builder.environment().keySet().removeIf(name -> name.startsWith("OPENAI_"));
        try {
            return builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(InputStream stream) {
        try (stream) {
            return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

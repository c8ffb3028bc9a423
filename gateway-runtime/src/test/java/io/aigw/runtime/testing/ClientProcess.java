package io.aigw.runtime.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * A real client run as its user runs it, a process of its own, and the rule for a client that
 * cannot be had: a test on a laptop is skipped with the reason, in CI ({@code CI=true}) it fails,
 * since a test of a real client must never be skipped silently there.
 */
public final class ClientProcess {
    /** Variables a client reads its endpoint and key from: none of the machine's may reach it. */
    private static final List<String> INHERITED_NEVER = List.of("OPENAI_", "ANTHROPIC_", "CLAUDE_");

    private ClientProcess() {
    }

    /** What a process ended with. */
    public record Finished(int exitCode, String stdout, String stderr) {
        /** Both streams, for a failure's message. */
        public String output() {
            return "exit code " + exitCode + "\n--- stdout\n" + stdout + "\n--- stderr\n" + stderr;
        }
    }

    /**
     * Runs {@code command} in {@code folder} with {@code environment} added to this process's (less
     * every inherited {@code OPENAI_*}, {@code ANTHROPIC_*} and {@code CLAUDE_*}, so that a real key or
     * endpoint never reaches a client) and returns what
     * it printed, or nothing if it outlived {@code timeout}. Its standard input is closed: a client
     * that asks for input ends rather than waits.
     */
    public static Optional<Finished> run(List<String> command, Path folder, Map<String, String> environment,
                                         Duration timeout) {
        ProcessBuilder builder = new ProcessBuilder(command).directory(folder.toFile());
        builder.environment().keySet().removeIf(name -> INHERITED_NEVER.stream().anyMatch(name::startsWith));
        builder.environment().putAll(environment);
        Process process;
        try {
            process = builder.start();
            process.getOutputStream().close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        CompletableFuture<String> stdout = CompletableFuture.supplyAsync(() -> read(process.getInputStream()));
        CompletableFuture<String> stderr = CompletableFuture.supplyAsync(() -> read(process.getErrorStream()));
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                return Optional.empty();
            }
            return Optional.of(new Finished(process.exitValue(), stdout.join(), stderr.join()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } finally {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
    }

    /**
     * Runs one step of installing a client, returning why it failed if it did: a command that
     * cannot start, outlives {@code timeout} or ends with another exit code than 0.
     */
    public static Optional<String> step(List<String> command, Path folder, Duration timeout) {
        Optional<Finished> finished;
        try {
            finished = run(command, folder, Map.of(), timeout);
        } catch (UncheckedIOException e) {
            return Optional.of(e.getCause().getMessage());
        }
        if (finished.isEmpty()) {
            return Optional.of("it did not end within " + timeout);
        }
        if (finished.get().exitCode() != 0) {
            return Optional.of("exit code " + finished.get().exitCode() + "\n" + finished.get().stderr().strip());
        }
        return Optional.empty();
    }

    /** Skips the test with {@code reason}, or fails it when {@code CI=true}. */
    public static void skipOrFail(String reason) {
        if ("true".equalsIgnoreCase(System.getenv("CI"))) {
            Assertions.fail(reason + " (CI=true, where the tests of real clients must run)");
        }
        Assumptions.abort(reason);
    }

    private static String read(InputStream stream) {
        try (stream) {
            return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

package io.aigw.runtime.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Claude Code itself ({@code @anthropic-ai/claude-code} on npm, version {@value #VERSION} exactly),
 * run headless ({@code claude -p}) as a user's script runs it, installed once per build as an
 * {@link NpmClient}.
 *
 * <p>The package is a launcher whose install script puts the native program of the platform's own
 * package in its place: Node only installs it, so the package's {@code engines} (Node 22) is a
 * warning on an older Node, not a limit. Each run gets a home and configuration folder of its own,
 * so nothing of the user's is read or written, and every request Claude Code makes besides the
 * turn's own (update checks, telemetry, error reports, the connectivity check) is turned off.
 */
public final class ClaudeCode {
    /** The release the tests run; raise it on purpose, as any dependency. */
    public static final String VERSION = "2.1.332";

    private static final NpmClient PACKAGE = new NpmClient("claude-code", Map.of("@anthropic-ai/claude-code", VERSION));
    private static final Duration VERSION_CHECK = Duration.ofMinutes(1);

    private ClaudeCode() {
    }

    /**
     * Runs {@code claude} with {@code args} in {@code folder}, its base URL and key from
     * {@code environment} (such as {@code ANTHROPIC_BASE_URL} and {@code ANTHROPIC_API_KEY}), its home
     * a fresh folder inside {@code folder}, and fails the test if it has not ended within {@code timeout}.
     */
    public static ClientProcess.Finished run(Path folder, Map<String, String> environment, Duration timeout,
                                             String... args) {
        Path claude = executable();
        Path home;
        try {
            home = Files.createDirectories(folder.resolve(".home"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, String> all = new HashMap<>(Map.of(
                "HOME", home.toString(),
                "CLAUDE_CONFIG_DIR", home.resolve(".claude").toString(),
                // Turns off the update check, telemetry, error reports and the base URL's connectivity check.
                "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1"));
        all.putAll(environment);
        List<String> command = new ArrayList<>(List.of(claude.toString()));
        command.addAll(List.of(args));
        return ClientProcess.run(command, folder, all, timeout).orElseThrow(
                () -> new AssertionError("claude did not end within " + timeout + ": " + command));
    }

    /**
     * The installed program, checked to answer its version: npm installs the package's files even
     * where its install script, which links the native program, did not run.
     */
    private static Path executable() {
        Path claude = PACKAGE.folder().resolve("node_modules").resolve(".bin").resolve("claude");
        boolean answers = Files.isExecutable(claude) && ClientProcess.run(List.of(claude.toString(), "--version"),
                        PACKAGE.folder(), Map.of(), VERSION_CHECK)
                .filter(found -> found.exitCode() == 0 && found.stdout().startsWith(VERSION + " ")).isPresent();
        if (!answers) {
            ClientProcess.skipOrFail("npm installed @anthropic-ai/claude-code@" + VERSION + " into " + PACKAGE.folder()
                    + " but '" + claude + " --version' does not answer " + VERSION + " (did its install script run?)");
        }
        return claude;
    }
}

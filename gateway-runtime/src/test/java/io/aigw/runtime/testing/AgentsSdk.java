package io.aigw.runtime.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * The OpenAI Agents SDK for JavaScript ({@code @openai/agents} on npm, version {@value #VERSION}
 * exactly, with the {@code openai} and {@code zod} packages it needs pinned too), run as a user's
 * program runs it: a Node.js process of its own running a script. (The Python {@code openai-agents}
 * is not on the build's package index; the two SDKs speak the Responses API alike.)
 */
public final class AgentsSdk {
    /** The release the tests run; raise it on purpose, as any dependency. */
    public static final String VERSION = "0.20.0";

    private static final NpmClient CLIENT = new NpmClient("agents-sdk", Map.of(
            "@openai/agents", VERSION, "openai", "7.60.0", "zod", "4.6.7"));

    private AgentsSdk() {
    }

    /**
     * Runs {@code script}, an ES module that imports the SDK, with {@code args} as
     * {@code process.argv.slice(2)} and {@code environment} added to this process's; fails the test
     * if it has not ended within {@code timeout}.
     */
    public static ClientProcess.Finished run(String script, Map<String, String> environment, Duration timeout,
                                             String... args) {
        Path folder = CLIENT.folder();
        // The script lives beside node_modules, where Node resolves its imports.
        Path file = folder.resolve("script-" + sha256(script) + ".mjs");
        try {
            if (!Files.exists(file)) {
                Files.writeString(file, script);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> command = new ArrayList<>(List.of("node", file.toString()));
        command.addAll(List.of(args));
        return ClientProcess.run(command, folder, environment, timeout).orElseThrow(
                () -> new AssertionError("the Agents SDK script did not end within " + timeout + ": " + script));
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8))).substring(0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}

package io.aigw.runtime.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * OpenAI's Codex CLI ({@code @openai/codex} on npm, version {@value #VERSION} exactly), run as
 * {@code codex exec} with a model provider of its own configuration, the way its users point it at
 * a gateway: {@code model_provider} naming a {@code [model_providers.<id>]} table with
 * {@code base_url}, {@code env_key} and {@code wire_api = "responses"}.
 *
 * <p>Each run gets a {@code CODEX_HOME} of its own under {@code target/}, so that the user's
 * {@code ~/.codex} is never read or written, and a configuration that keeps the run to the
 * provider's endpoint: no analytics (else Codex reaches for ab.chatgpt.com) and no plugins (else it
 * syncs them from github.com and chatgpt.com), no retries that would hide a failed request, and no
 * sandbox around the commands, which are the test's own ({@code bubblewrap} needs user namespaces
 * that a CI runner may refuse).
 */
public final class CodexCli {
    /** The release the tests run; raise it on purpose, as any dependency. */
    public static final String VERSION = "0.171.0";

    /** The variable that carries the key, as the provider's {@code env_key} names it. */
    private static final String KEY_VARIABLE = "AIGW_API_KEY";
    private static final NpmClient CLIENT = new NpmClient("codex", Map.of("@openai/codex", VERSION));
    private static final Path RUNS = Path.of("target", "codex-runs");

    private CodexCli() {
    }

    /** What a run ended with, and the last message Codex wrote ({@code --output-last-message}). */
    public record Run(ClientProcess.Finished finished, String lastMessage) {
    }

    /**
     * Runs {@code codex exec prompt} with {@code model} of the provider at {@code baseUrl} (Codex
     * posts to {@code baseUrl + "/responses"}) and {@code key} as its key, in an empty working
     * folder; fails the test if it has not ended within {@code timeout}.
     */
    public static Run exec(String baseUrl, String key, String model, String prompt, Duration timeout) {
        Path codex = CLIENT.folder().resolve("node_modules").resolve(".bin").resolve("codex");
        try {
            Files.createDirectories(RUNS);
            Path run = Files.createTempDirectory(RUNS.toAbsolutePath(), "run-");
            Path home = Files.createDirectories(run.resolve("home"));
            Path work = Files.createDirectories(run.resolve("work"));
            Path lastMessage = run.resolve("last-message.txt");
            try {
                Files.writeString(home.resolve("config.toml"), config(baseUrl, model));
                ClientProcess.Finished finished = ClientProcess.run(List.of(codex.toString(), "exec",
                                "--strict-config", "--skip-git-repo-check", "--ephemeral",
                                "--output-last-message", lastMessage.toString(), prompt), work,
                        Map.of("CODEX_HOME", home.toString(), KEY_VARIABLE, key), timeout)
                        .orElseThrow(() -> new AssertionError("codex exec did not end within " + timeout));
                return new Run(finished, Files.exists(lastMessage) ? Files.readString(lastMessage) : "");
            } finally {
                TestGateway.deleteRecursively(run);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String config(String baseUrl, String model) {
        return """
                model = "%s"
                model_provider = "gateway"
                approval_policy = "never"
                sandbox_mode = "danger-full-access"

                [analytics]
                enabled = false

                [features]
                plugins = false

                [model_providers.gateway]
                name = "AI gateway"
                base_url = "%s"
                env_key = "%s"
                wire_api = "responses"
                request_max_retries = 0
                stream_max_retries = 0
                """.formatted(model, baseUrl, KEY_VARIABLE);
    }
}

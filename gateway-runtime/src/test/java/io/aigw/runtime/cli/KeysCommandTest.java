package io.aigw.runtime.cli;

import static io.aigw.runtime.testing.KeysApi.KEY_PATTERN;
import static io.aigw.runtime.testing.KeysApi.UNAUTHORIZED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.store.JdbcStore;
import io.aigw.runtime.testing.KeyRows;
import io.aigw.runtime.testing.KeysApi;
import io.aigw.runtime.testing.TestGateway;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code gateway keys create | list | revoke} against a store, with standard output and error
 * captured: the key alone on standard output (scripts capture it), everything else on standard
 * error, and the exit codes 0, 1 (no such key) and 2 (wrong usage).
 */
public final class KeysCommandTest {
    private static final String NL = System.lineSeparator();
    private static final String HELP = "usage: gateway keys create --name <name> [--admin] [policies]"
            + NL + "                                          issue a key (printed once, alone on a line);"
            + NL + "                                          --admin: it may also use the admin API"
            + NL + "       gateway keys update <id> <policies> change a key's policies"
            + NL + "       gateway keys list                   list keys (never their text)"
            + NL + "       gateway keys revoke <id>            revoke a key"
            + NL + "policies: --models <id or pattern,...|all>  the models it may use ('openai/*')"
            + NL + "          --expires <time|never>            2026-12-31T18:00:00Z, 2026-12-31 or unix seconds"
            + NL + "          --rpm <n|none>                    requests a minute"
            + NL + "          --tpm <n|none>                    tokens a minute, prompt and completion"
            + NL + "          --budget <usd|none>               US dollars it may spend in each period (20, 0.5)"
            + NL + "          --period <day|month|none>         the budget's period, UTC; none: the key's life" + NL;

    @TempDir
    Path folder;

    private JdbcStore store;

    @BeforeEach
    void open() {
        store = JdbcStore.open(databaseUrl(), Optional.empty(), Optional.empty(), 2);
    }

    @AfterEach
    void close() {
        store.close();
    }

    @Test
    void createPrintsTheNewKeyAloneOnOneLineOfStandardOutput() throws Exception {
        Output created = run("create", "--name", "nightly-report");

        assertEquals(KeysCommand.OK, created.code());
        List<String> lines = created.out().lines().toList();
        assertEquals(1, lines.size(), created.out());
        String key = lines.get(0);
        assertTrue(key.matches(KEY_PATTERN), key);
        assertEquals(key + NL, created.out(), "nothing but the key and its line end");

        KeyRows row = KeyRows.read(databaseUrl()).get(0);
        assertEquals(new KeyRows(row.id(), "nightly-report", KeysApi.sha256Hex(key), false, row.createdAt(),
                Optional.empty()), row);
        assertEquals("Created key " + row.id() + " (nightly-report). It is shown only now:" + NL, created.err());
    }

    @Test
    void listShowsEachKeysIdNameAndTimesButNeverTheKey() throws Exception {
        String first = run("create", "--name", "first").out().strip();
        Thread.sleep(5);  // two different creation times, so "newest first" decides the order
        String second = run("create", "--name", "  second app ").out().strip();

        Output list = run("list");

        assertEquals(KeysCommand.OK, list.code());
        assertEquals("", list.err());
        assertFalse(list.out().contains(first.substring(6)) || list.out().contains(second.substring(6)), list.out());
        StringBuilder expected = new StringBuilder(row("id", "name", "admin", "created", "revoked", "policies"));
        List<KeyRows> rows = KeyRows.read(databaseUrl());
        rows.reversed().forEach(key -> expected.append(row(key.id(), key.name(), "no", instant(key.createdAt()), "-",
                "-")));
        assertEquals(expected.toString(), list.out(), "newest first");
        assertEquals(List.of("first", "second app"), rows.stream().map(KeyRows::name).toList());
    }

    @Test
    void anAdminKeyMadeOnTheCommandLineMayUseTheAdminApiAndAPlainOneMayNot() throws Exception {
        String admin = run("create", "--name", "ops", "--admin").out().strip();
        String plain = run("create", "--name", "app").out().strip();
        try (TestGateway gateway = TestGateway.start(Map.of("gateway.database.url", databaseUrl(),
                "gateway.access-log", "off"), Map.of())) {
            assertEquals(200, gateway.send(java.net.http.HttpRequest.newBuilder(gateway.uri("/admin/v1/keys"))
                    .header("Authorization", "Bearer " + admin).build()).statusCode());
            assertEquals(403, gateway.send(java.net.http.HttpRequest.newBuilder(gateway.uri("/admin/v1/keys"))
                    .header("Authorization", "Bearer " + plain).build()).statusCode());
        }
    }

    @Test
    void aKeyRevokedOnTheCommandLineIsRefusedByAGatewayOnTheSameDatabase() throws Exception {
        String key = run("create", "--name", "to-revoke").out().strip();
        String id = KeyRows.read(databaseUrl()).get(0).id();
        try (TestGateway gateway = TestGateway.start(Map.of("gateway.database.url", databaseUrl(),
                "gateway.keys.cache-ttl", "200ms", "gateway.access-log", "off"), Map.of())) {
            KeysApi api = KeysApi.of(gateway);
            assertEquals(200, api.models(key).statusCode(), "a key made on the command line works on the gateway");

            Output revoked = run("revoke", id);
            assertEquals(KeysCommand.OK, revoked.code());
            assertEquals("", revoked.out());
            assertEquals("Revoked " + id + ". Running gateways refuse it within their key cache time"
                    + " (gateway.keys.cache-ttl)." + NL, revoked.err());

            // The gateway is another process as far as the command is concerned: it notices within its cache time.
            HttpResponse<String> answer = api.models(key);
            for (long deadline = System.nanoTime() + 5_000_000_000L;
                 answer.statusCode() == 200 && System.nanoTime() < deadline; answer = api.models(key)) {
                Thread.sleep(100);
            }
            assertEquals(401, answer.statusCode(), "still accepted 5 s after the revocation (cache time 200 ms)");
            assertEquals(UNAUTHORIZED, answer.body());
            assertTrue(api.listed(id).getJsonNumber("revoked_at").longValueExact() > 0);
        }
        KeyRows row = KeyRows.read(databaseUrl()).get(0);
        assertTrue(row.revokedAt().isPresent(), row.toString());
        assertEquals(row(id, "to-revoke", "no", instant(row.createdAt()), instant(row.revokedAt().orElseThrow()), "-"),
                run("list").out().lines().skip(1).findFirst().orElseThrow() + NL);
        assertEquals(KeysCommand.OK, run("revoke", id).code(), "revoking twice is harmless");
    }

    @Test
    void revokingAnIdNoKeyHasExits1() throws Exception {
        Output unknown = run("revoke", "key_0000000000000000");

        assertEquals(KeysCommand.NOT_FOUND, unknown.code());
        assertEquals(1, unknown.code());
        assertEquals("", unknown.out());
        assertEquals("No key has the id 'key_0000000000000000'; see: gateway keys list" + NL, unknown.err());
    }

    @Test
    void createAndUpdateSetAndChangeAKeysPoliciesWhichListShows() throws Exception {
        Output created = run("create", "--name", "app", "--models", "openai/*, gateway/auto", "--rpm", "60",
                "--tpm", "40000", "--expires", "2030-01-01");
        assertEquals(KeysCommand.OK, created.code(), created.err());
        String id = KeyRows.read(databaseUrl()).get(0).id();
        assertEquals("models=openai/*,gateway/auto expires=2030-01-01T00:00:00Z rpm=60 tpm=40000", policies());

        Output updated = run("update", id, "--rpm", "none", "--models", "all", "--expires", "2031-06-01T12:00:00Z");

        assertEquals(KeysCommand.OK, updated.code(), updated.err());
        assertEquals("", updated.out());
        assertEquals("expires=2031-06-01T12:00:00Z tpm=40000", policies());
        assertEquals(KeysCommand.NOT_FOUND, run("update", "key_0000000000000000", "--rpm", "5").code());
    }

    @Test
    void aBudgetIsSetWithItsPeriodChangedAndClearedOnTheCommandLine() throws Exception {
        Output created = run("create", "--name", "team", "--budget", "20", "--period", "month");
        assertEquals(KeysCommand.OK, created.code(), created.err());
        String id = KeyRows.read(databaseUrl()).get(0).id();
        assertEquals("budget=20/month", policies());

        assertEquals(KeysCommand.OK, run("update", id, "--budget", "0.5", "--period", "none").code());
        assertEquals("budget=0.5/lifetime", policies());
        assertEquals(KeysCommand.OK, run("update", id, "--budget", "none").code());
        assertEquals("-", policies());

        Output periodAlone = run("update", id, "--period", "day");
        assertEquals(KeysCommand.USAGE, periodAlone.code());
        assertTrue(periodAlone.err().startsWith("gateway keys: --period needs a --budget"), periodAlone.err());
    }

    @Test
    void aWrongPolicyValueExits2NamingTheOptionAndStoresNothing() throws Exception {
        for (List<String> args : List.of(List.of("create", "--name", "a", "--rpm", "0"),
                List.of("create", "--name", "a", "--tpm", "many"), List.of("create", "--name", "a", "--expires", "soon"),
                List.of("create", "--name", "a", "--models", ","), List.of("create", "--name", "a", "--budget", "1e3"),
                List.of("create", "--name", "a", "--budget", "0"),
                List.of("create", "--name", "a", "--budget", "5", "--period", "week"))) {
            Output output = run(args.toArray(String[]::new));
            assertEquals(KeysCommand.USAGE, output.code(), args.toString());
            assertTrue(output.err().startsWith("gateway keys: --"), output.err());
        }
        assertEquals(List.of(), KeyRows.read(databaseUrl()));
    }

    @Test
    void moreThan200PatternsOrAPatternOver300CharactersExit2NamingTheBound() throws Exception {
        String many = String.join(",", java.util.stream.IntStream.range(0, 201).mapToObj(i -> "openai/m" + i).toList());
        Output tooMany = run("create", "--name", "a", "--models", many);
        assertEquals(KeysCommand.USAGE, tooMany.code());
        assertTrue(tooMany.err().startsWith("gateway keys: --models lists 201 model ids or patterns, more than the 200"
                + " a key may have"), tooMany.err());

        Output tooLong = run("create", "--name", "a", "--models", "openai/" + "m".repeat(294));
        assertEquals(KeysCommand.USAGE, tooLong.code());
        assertTrue(tooLong.err().contains("each at most 300 characters"), tooLong.err());
        assertEquals(List.of(), KeyRows.read(databaseUrl()));
    }

    /** The policies column of the first key that {@code keys list} shows. */
    private String policies() {
        String line = run("list").out().lines().skip(1).findFirst().orElseThrow();
        // id, name (one word here), admin, created, revoked, then the policies.
        return line.replaceFirst("^(\\S+\\s+){5}", "");
    }

    static Stream<List<String>> wrongUsage() {
        return Stream.of(List.of(), List.of("explode"), List.of("CREATE", "--name", "x"), List.of("create"),
                List.of("create", "--name"), List.of("create", "--name", ""), List.of("create", "--name", "   "),
                List.of("create", "--nam", "x"), List.of("create", "x", "--name"),
                List.of("create", "--name", "x", "extra"), List.of("create", "--name", "x", "--admin", "y"), List.of("create", "--name", "n".repeat(201)),
                List.of("create", "--name", "two\nlines"), List.of("create", "--name", "nul\u0000"),
                List.of("list", "--all"), List.of("revoke"), List.of("revoke", "key_1", "key_2"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("wrongUsage")
    void wrongUsageExits2WithHelpOnStandardErrorAndNothingOnStandardOutput(List<String> args) throws Exception {
        Output output = run(args.toArray(String[]::new));

        assertEquals(KeysCommand.USAGE, output.code());
        assertEquals(2, output.code());
        assertEquals("", output.out(), "a script capturing standard output must not take this for a key");
        assertTrue(output.err().startsWith("gateway keys: "), output.err());
        assertTrue(output.err().endsWith(HELP), output.err());
        assertEquals(List.of(), KeyRows.read(databaseUrl()), "nothing stored");
    }

    @Test
    void aNameOf200CharactersIsTheLongestAccepted() throws Exception {
        assertEquals(KeysCommand.OK, run("create", "--name", "n".repeat(200)).code());
        assertEquals(KeysCommand.USAGE, run("create", "--name", "n".repeat(201)).code());
        assertEquals(List.of("n".repeat(200)), KeyRows.read(databaseUrl()).stream().map(KeyRows::name).toList());
    }

    private static String row(String id, String name, String admin, String created, String revoked,
                              String policies) {
        return String.format("%-22s %-30s %-5s %-22s %-22s %s%n", id, name, admin, created, revoked, policies);
    }

    private static String instant(long epochMillis) {
        return Instant.ofEpochMilli(epochMillis).toString();
    }

    private record Output(int code, String out, String err) {
    }

    private Output run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = new KeysCommand(store, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8)).run(List.of(args));
        return new Output(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private String databaseUrl() {
        return "jdbc:sqlite:" + folder.resolve("gateway.db");
    }
}

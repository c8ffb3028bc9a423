package io.aigw.runtime.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assertions;

/**
 * A PostgreSQL cluster of the test's own, in a temporary folder on a free loopback port, for tests
 * that stop and start the database: the shared one on 5432 serves every other test and must never
 * be stopped. It is made with the local installation's {@code initdb} and {@code pg_ctl} (the
 * newest of {@code /usr/lib/postgresql/<version>/bin}); as root they run as the {@code postgres}
 * user through {@code runuser}, because initdb refuses to run as root.
 *
 * <p>Without those programs a test is skipped on a laptop with the reason, and fails in CI
 * ({@code CI=true}), as {@link LocalPostgres} decides.
 */
public final class PrivatePostgres implements AutoCloseable {
    private static final Path INSTALLATIONS = Path.of("/usr/lib/postgresql");
    private static final String USER = "postgres";

    private final Path bin;
    private final Path folder;
    private final int port;
    private final boolean asPostgresUser;

    private PrivatePostgres(Path bin, Path folder, int port, boolean asPostgresUser) {
        this.bin = bin;
        this.folder = folder;
        this.port = port;
        this.asPostgresUser = asPostgresUser;
    }

    /** Makes a cluster and starts it, or skips/fails the test as described above. */
    public static PrivatePostgres start() {
        return start(INSTALLATIONS, System.getenv());
    }

    /** {@link #start()} with another installation folder and environment, to test this helper itself. */
    static PrivatePostgres start(Path installations, Map<String, String> environment) {
        Optional<Path> bin = newestBin(installations);
        if (bin.isEmpty()) {
            LocalPostgres.skipOrFail("No PostgreSQL programs (initdb, pg_ctl) in " + installations
                    + "/<version>/bin to run a private cluster", environment, null);
            throw new AssertionError("unreachable");
        }
        boolean root = "root".equals(System.getProperty("user.name"));
        try {
            Path folder = Files.createTempDirectory("aigw-pg-");
            if (root) {
                // The cluster's files belong to the user that runs it.
                UserPrincipal postgres = folder.getFileSystem().getUserPrincipalLookupService()
                        .lookupPrincipalByName(USER);
                Files.setOwner(folder, postgres);
            }
            PrivatePostgres cluster = new PrivatePostgres(bin.get(), folder, freePort(), root);
            cluster.run("initdb", "-D", cluster.data().toString(), "-U", USER, "-A", "trust", "-E", "UTF8", "-N");
            cluster.startServer();
            return cluster;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The JDBC URL of the cluster's {@code postgres} database, for {@code gateway.database.url}. */
    public String url() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/postgres";
    }

    public String user() {
        return USER;
    }

    /** Opens a plain connection, to read what the gateway stored. */
    public Connection connect() throws SQLException {
        return DriverManager.getConnection(url(), USER, "");
    }

    /** Stops the server the way an operator's {@code pg_ctl stop} does: sessions are ended, new ones refused. */
    public void stopServer() {
        run("pg_ctl", "-D", data().toString(), "-m", "fast", "-w", "-t", "60", "stop");
    }

    /** Starts the server again, on the same port, and waits until it takes connections. */
    public void startServer() {
        // fsync off: the cluster is thrown away, and a test need not wait for the disk.
        run("pg_ctl", "-D", data().toString(), "-l", folder.resolve("server.log").toString(), "-w", "-t", "60",
                "-o", "-p " + port + " -k " + folder + " -c listen_addresses=127.0.0.1 -c fsync=off", "start");
    }

    /** Stops the server if it runs and deletes the cluster. */
    @Override
    public void close() throws IOException {
        if (Files.exists(data().resolve("postmaster.pid"))) {
            stopServer();
        }
        try (Stream<Path> paths = Files.walk(folder)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }

    private Path data() {
        return folder.resolve("data");
    }

    private void run(String program, String... args) {
        List<String> command = new ArrayList<>();
        if (asPostgresUser) {
            command.addAll(List.of("runuser", "-u", USER, "--"));
        }
        command.add(bin.resolve(program).toString());
        command.addAll(List.of(args));
        try {
            Process process = new ProcessBuilder(command).directory(folder.toFile()).redirectErrorStream(true).start();
            byte[] output = process.getInputStream().readAllBytes();
            if (!process.waitFor(90, TimeUnit.SECONDS) || process.exitValue() != 0) {
                process.destroyForcibly();
                Assertions.fail(String.join(" ", command) + " failed:\n" + new String(output, StandardCharsets.UTF_8)
                        + serverLog());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private String serverLog() throws IOException {
        Path log = folder.resolve("server.log");
        return Files.exists(log) ? "\nserver.log:\n" + Files.readString(log) : "";
    }

    private static Optional<Path> newestBin(Path installations) {
        if (!Files.isDirectory(installations)) {
            return Optional.empty();
        }
        try (Stream<Path> versions = Files.list(installations)) {
            return versions.map(version -> version.resolve("bin"))
                    .filter(bin -> Files.isExecutable(bin.resolve("initdb")) && Files.isExecutable(bin.resolve("pg_ctl")))
                    .max(Comparator.comparing(bin -> versionNumber(bin.getParent().getFileName().toString())));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static double versionNumber(String folderName) {
        try {
            return Double.parseDouble(folderName);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** A loopback port nothing listens on: taken from the system, then let go. */
    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}

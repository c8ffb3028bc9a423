package io.aigw.distribution;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The real {@code bin/gateway} of an unpacked distribution, run as a child process with an
 * environment scrubbed of upstream keys and JAVA_HOME, so that it finds its own JDK as a user's
 * shell would. Everything it prints is kept for assertions, and what it prints on stderr also apart.
 */
final class GatewayProcess implements AutoCloseable {
    private static final Path DISTRIBUTION = Path.of(System.getProperty("distribution.dir", "target/gateway"));
    private static final Pattern LISTENING = Pattern.compile("Gateway listening on port (\\d+)");
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);
    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private final Process process;
    private final List<String> output = new ArrayList<>();
    private final List<String> standardOutput = new ArrayList<>();
    private final List<String> errors = new ArrayList<>();
    private final Thread outputReader;
    private final Thread errorReader;
    private volatile int port = -1;

    private GatewayProcess(Process process) {
        this.process = process;
        this.outputReader = Thread.ofPlatform().daemon().start(() -> read(process.getInputStream(), false));
        this.errorReader = Thread.ofPlatform().daemon().start(() -> read(process.getErrorStream(), true));
    }

    /**
     * Copies the unpacked distribution to {@code folder}/gateway and returns that home: a test's own
     * plugins/ to change and its own data/, without a database or AOT cache left by someone who
     * started target/gateway itself.
     */
    static Path copyDistribution(Path folder) throws IOException {
        return copyDistribution(DISTRIBUTION, folder);
    }

    /**
     * Copies the distribution at {@code source} to {@code folder}/gateway as it was shipped: without
     * data/ (not even the empty folder, whose presence would say that a command opened the database)
     * and without the AOT caches, or recordings of one, that its starts left in lib/.
     */
    static Path copyDistribution(Path source, Path folder) throws IOException {
        Path home = folder.resolve("gateway");
        Files.walkFileTree(source, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path directory, BasicFileAttributes attributes) throws IOException {
                if (directory.equals(source.resolve("data"))) {
                    return FileVisitResult.SKIP_SUBTREE;
                }
                Files.createDirectories(home.resolve(source.relativize(directory).toString()));
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
                if (!file.getFileName().toString().contains(".aot")) {
                    Files.copy(file, home.resolve(source.relativize(file).toString()), StandardCopyOption.COPY_ATTRIBUTES);
                }
                return FileVisitResult.CONTINUE;
            }
        });
        return home;
    }

    /** The feature version (21, 25) of the JDK that {@code home}'s bin/gateway runs on, as its version command says. */
    static int javaFeature(Path home) throws IOException, InterruptedException {
        try (GatewayProcess version = run(home, Map.of(), "version")) {
            version.awaitExit();
            Matcher java = Pattern.compile("\\(Java (\\d+)").matcher(version.standardOutput());
            if (!java.find()) {
                throw new AssertionError("bin/gateway version names no Java:\n" + version.output());
            }
            return Integer.parseInt(java.group(1));
        }
    }

    /** Runs {@code bin/gateway args...} in {@code home} with {@code environment} added to a clean one. */
    static GatewayProcess run(Path home, Map<String, String> environment, String... args) throws IOException {
        return run(List.of(), home, environment, args);
    }

    /** {@link #run(Path, Map, String...)} through {@code wrapper}, a command that ends by running its last argument. */
    static GatewayProcess run(List<String> wrapper, Path home, Map<String, String> environment, String... args)
            throws IOException {
        List<String> command = new ArrayList<>(wrapper);
        command.add(home.resolve("bin/gateway").toString());
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(home.toFile());
        Map<String, String> env = builder.environment();
        env.keySet().removeIf(name -> name.endsWith("_API_KEY") || name.endsWith("_BASE_URL")
                || name.startsWith("GATEWAY_") || name.equals("JAVA_HOME"));
        env.put("GATEWAY_PORT", "0");
        // Each test's fresh copy would otherwise train and write an AOT cache at every exit.
        env.put("GATEWAY_AOT_CACHE", "off");
        env.putAll(environment);
        return new GatewayProcess(builder.start());
    }

    /** Starts the server and waits until it listens. */
    static GatewayProcess start(Path home, Map<String, String> environment) throws Exception {
        return start(List.of(), home, environment);
    }

    /** Starts the server through {@code wrapper} (see {@link #run(List, Path, Map, String...)}) and waits until it listens. */
    static GatewayProcess start(List<String> wrapper, Path home, Map<String, String> environment) throws Exception {
        GatewayProcess gateway = run(wrapper, home, environment);
        gateway.awaitListening();
        return gateway;
    }

    /** The arguments the process runs with now: once bin/gateway has handed over to it, the JVM's. */
    List<String> arguments() {
        return process.toHandle().info().arguments().map(List::of).orElseThrow();
    }

    private void read(InputStream stream, boolean isErrors) {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                synchronized (output) {
                    output.add(line);
                    (isErrors ? errors : standardOutput).add(line);
                }
                Matcher listening = LISTENING.matcher(line);
                if (listening.find()) {
                    port = Integer.parseInt(listening.group(1));
                }
            }
        } catch (IOException e) {
            // The process ended.
        }
    }

    void awaitListening() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (port < 0 && process.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        if (port < 0) {
            throw new AssertionError("bin/gateway did not start listening:\n" + output());
        }
    }

    /** Waits for the process to end and returns its exit code. */
    int awaitExit() throws InterruptedException {
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            throw new AssertionError("bin/gateway did not exit:\n" + output());
        }
        outputReader.join(5_000);
        errorReader.join(5_000);
        return process.exitValue();
    }

    /**
     * Sends SIGTERM, as a service manager stopping the gateway would. Through the process handle:
     * {@link Process#destroy()} would also close our end of its output, losing what it prints last.
     */
    void terminate() {
        process.toHandle().destroy();
    }

    int port() {
        return port;
    }

    /**
     * The process id: the JVM's, since bin/gateway and the wrappers exec what they run (except on
     * the run that records an AOT cache, where bin/gateway stays to move the cache into place).
     */
    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /**
     * The running JVM's system properties as {@code jcmd VM.system_properties} prints them, asked with
     * the jcmd of the JDK that bin/gateway chose (bin/gateway execs java, so the process is the JVM).
     */
    String systemProperties() throws IOException, InterruptedException {
        return jdkTool("jcmd", "VM.system_properties");
    }

    /**
     * What a tool of the JDK that bin/gateway chose ({@code jcmd}, {@code jstat}) prints when run
     * on this JVM: {@code tool <pid> arguments...}, or {@code tool arguments... <pid>} for jstat.
     */
    String jdkTool(String tool, String... arguments) throws IOException, InterruptedException {
        Path java = Path.of(process.info().command().orElseThrow());
        List<String> command = new ArrayList<>(List.of(java.resolveSibling(tool).toString()));
        if (tool.equals("jstat")) {
            command.addAll(List.of(arguments));
            command.add(Long.toString(process.pid()));
        } else {
            command.add(Long.toString(process.pid()));
            command.addAll(List.of(arguments));
        }
        Process run = new ProcessBuilder(command).redirectErrorStream(true).start();
        String printed = new String(run.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        run.waitFor(30, TimeUnit.SECONDS);
        return printed;
    }

    /** Everything printed, stdout and stderr, each line as it came. */
    String output() {
        synchronized (output) {
            return String.join("\n", output);
        }
    }

    /** What was printed on stderr. */
    String errors() {
        synchronized (output) {
            return String.join("\n", errors);
        }
    }

    /** What was printed on stdout. */
    String standardOutput() {
        synchronized (output) {
            return String.join("\n", standardOutput);
        }
    }

    /** The line after the one containing {@code marker}, trimmed: where the gateway prints a key. */
    String lineAfter(String marker) {
        synchronized (output) {
            for (int i = 0; i < output.size() - 1; i++) {
                if (output.get(i).contains(marker)) {
                    return output.get(i + 1).strip();
                }
            }
        }
        throw new AssertionError("no line containing '" + marker + "' in:\n" + output());
    }

    HttpResponse<String> get(String path, String key) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(REQUEST_TIMEOUT);
        if (key != null) {
            request.header("Authorization", "Bearer " + key);
        }
        return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> chat(String key, String body) throws Exception {
        return post("/api/v1/chat/completions", key, body);
    }

    HttpResponse<String> post(String path, String key, String body) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(REQUEST_TIMEOUT).header("Authorization", "Bearer " + key)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroy();
            if (!process.waitFor(15, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        }
    }

    static Map<String, String> env(String... pairs) {
        Map<String, String> env = new HashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            env.put(pairs[i], pairs[i + 1]);
        }
        return env;
    }
}

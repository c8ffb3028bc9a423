package io.aigw.runtime.testing;

import io.aigw.runtime.pricing.Cost;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a gateway recorded of its chat completions, each where an operator reads it: the usage
 * records in its database, the lines of its access log, its request counter. All three are
 * written off the request thread, so each read waits (briefly) for as many as a test expects.
 */
public final class CallRecords {
    private static final long WAIT_NANOS = TimeUnit.SECONDS.toNanos(10);

    private CallRecords() {
    }

    /** The statuses of the usage records, oldest first, once {@code count} of them are written. */
    public static List<Integer> usageStatuses(TestGateway gateway, int count) {
        return usageRecords(gateway, count).stream().map(record -> Integer.parseInt(record.split(" ")[0])).toList();
    }

    /** Each usage record's status and total tokens ({@code "200 11"}), oldest first, once {@code count} are written. */
    public static List<String> usageRecords(TestGateway gateway, int count) {
        return awaitCount(() -> {
            try (Connection connection = DriverManager.getConnection(gateway.databaseUrl());
                 ResultSet rows = connection.createStatement().executeQuery(
                         "SELECT status, total_tokens FROM usage_records ORDER BY recorded_at")) {
                List<String> records = new ArrayList<>();
                while (rows.next()) {
                    records.add(rows.getInt(1) + " " + rows.getLong(2));
                }
                return records;
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        }, count);
    }

    /**
     * Each usage record's status, prompt, completion and total tokens, cost basis and nano-dollars
     * ({@code "200 1000 500 1500 priced 5800000"}), oldest first, once {@code count} are written.
     */
    public static List<String> costedRecords(TestGateway gateway, int count) {
        return awaitCount(() -> {
            try (Connection connection = DriverManager.getConnection(gateway.databaseUrl());
                 ResultSet rows = connection.createStatement().executeQuery("SELECT status, prompt_tokens,"
                         + " completion_tokens, total_tokens, cost_basis, cost_nanos FROM usage_records"
                         + " ORDER BY recorded_at")) {
                List<String> records = new ArrayList<>();
                while (rows.next()) {
                    records.add(rows.getInt(1) + " " + rows.getLong(2) + " " + rows.getLong(3) + " " + rows.getLong(4)
                            + " " + Cost.Basis.ofCode(rows.getInt(5)).label() + " " + rows.getLong(6));
                }
                return records;
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        }, count);
    }

    /** The access log's lines for chat completions in {@code file}, once {@code count} of them are written. */
    public static List<JsonObject> accessLogLines(Path file, int count) {
        return accessLogLines(file, "/api/v1/chat/completions", count);
    }

    /** The access log's lines for paths that start with {@code path}, once {@code count} of them are written. */
    public static List<JsonObject> accessLogLines(Path file, String path, int count) {
        return awaitCount(() -> {
            try {
                return !Files.exists(file) ? List.of() : Files.readAllLines(file).stream()
                        .map(line -> Json.createReader(new StringReader(line)).readObject())
                        .filter(line -> line.getString("path").startsWith(path))
                        .toList();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, count);
    }

    /**
     * The chat completions {@code gateway_requests_total} has counted so far, by status, over every
     * provider and model. The registry is the process's own, shared by every gateway a test run
     * starts: a test compares two of these.
     */
    public static Map<Integer, Double> requestsCounted(TestGateway gateway) {
        String metrics = gateway.send(HttpRequest.newBuilder(gateway.uri("/observe/metrics")).build()).body();
        Matcher counts = Pattern.compile("(?m)^gateway_requests_total\\{([^}]*)} (\\S+)$").matcher(metrics);
        Map<Integer, Double> byStatus = new HashMap<>();
        while (counts.find()) {
            Matcher status = Pattern.compile("status=\"(\\d+)\"").matcher(counts.group(1));
            if (status.find()) {
                byStatus.merge(Integer.parseInt(status.group(1)), Double.parseDouble(counts.group(2)), Double::sum);
            }
        }
        return byStatus;
    }

    /** How many more requests with {@code status} were counted in {@code after} than in {@code before}. */
    public static double countedSince(Map<Integer, Double> before, Map<Integer, Double> after, int status) {
        return after.getOrDefault(status, 0.0) - before.getOrDefault(status, 0.0);
    }

    private static <T> List<T> awaitCount(Supplier<List<T>> read, int count) {
        long deadline = System.nanoTime() + WAIT_NANOS;
        List<T> found = read.get();
        while (found.size() < count && System.nanoTime() < deadline) {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            found = read.get();
        }
        return found;
    }
}

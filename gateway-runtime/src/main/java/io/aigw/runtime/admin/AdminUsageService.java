package io.aigw.runtime.admin;

import io.aigw.runtime.error.ApiError;
import io.aigw.runtime.error.ApiException;
import io.aigw.runtime.pricing.Usd;
import io.aigw.runtime.store.GatewayStore;
import io.aigw.runtime.store.UsageQuery;
import io.aigw.runtime.store.UsageRow;
import io.helidon.common.media.type.MediaType;
import io.helidon.common.media.type.MediaTypes;
import io.helidon.http.HttpMediaType;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import jakarta.json.bind.annotation.JsonbPropertyOrder;
import java.time.Clock;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;

/**
 * {@code GET /admin/v1/usage}: requests, tokens and spend, summed from the daily rollup for a range
 * of days and grouped as asked. Parameters ({@link UsageParameters}): {@code from} and {@code to},
 * days (UTC) both included, by default this month to today; {@code group_by}, any of {@code key},
 * {@code model}, {@code upstream_key}, {@code endpoint}, {@code day}, comma-separated, grouped
 * together (by default {@code key}); {@code key}, one key's id. JSON by default; CSV with {@code format=csv} or {@code Accept: text/csv}.
 */
public final class AdminUsageService implements HttpService {
    private static final MediaType TEXT_CSV = MediaTypes.create("text", "csv");
    private final GatewayStore store;
    private final Clock clock;

    public AdminUsageService(GatewayStore store) {
        this(store, Clock.systemUTC());
    }

    AdminUsageService(GatewayStore store, Clock clock) {
        this.store = store;
        this.clock = clock;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.get("/", this::report);
    }

    /**
     * The JSON answer: the range and grouping asked for, the totals over every group, then the groups.
     *
     * @param groupBy the dimensions, in the order key, model, upstream_key, endpoint, day
     * @param key     the key the report is limited to, or null for every key
     */
    @JsonbPropertyOrder({"from", "to", "groupBy", "key", "totals", "data"})
    public record UsageReport(String from, String to, List<String> groupBy, String key, Row totals, List<Row> data) {
    }

    /**
     * One group's sums; a dimension it is not grouped by is null, as are the name of a key the store
     * does not hold (the configured master key), the provider and model of a request the gateway
     * answered itself, and the upstream key of such a request or of one from before the rollup kept it.
     *
     * @param costUsd       the sum of the known costs in US dollars, as a decimal string exact to the
     *                      nano-dollar; null when no request of the group has a known cost
     * @param unknownCost   requests whose cost is unknown (a model without a price), not in {@code costUsd}
     * @param estimatedCost requests whose cost comes from estimated token counts (a stream that sent no usage)
     */
    @JsonbPropertyOrder({"keyId", "keyName", "provider", "model", "upstreamKey", "endpoint", "day", "requests",
            "promptTokens", "completionTokens", "totalTokens", "costUsd", "unknownCost", "estimatedCost"})
    public record Row(String keyId, String keyName, String provider, String model, String upstreamKey,
                      String endpoint, String day, long requests,
                      long promptTokens, long completionTokens, long totalTokens, String costUsd, long unknownCost,
                      long estimatedCost) {
        static Row of(UsageRow row) {
            return new Row(row.keyId(), row.keyName(), row.provider(), row.model(), row.upstreamKey(), row.endpoint(),
                    row.day() == null ? null : row.day().toString(), row.requests(), row.promptTokens(),
                    row.completionTokens(), row.totalTokens(), row.cost().map(nanos -> new Usd(nanos).toString())
                    .orElse(null), row.unknownCost(), row.estimated());
        }
    }

    private void report(ServerRequest request, ServerResponse response) {
        UsageQuery query = UsageParameters.read(request.query(), LocalDate.now(clock));
        boolean csv = wantsCsv(request);
        List<UsageRow> rows = store.usage(query);
        if (csv) {
            UsageCsv.send(response, query, rows);
            return;
        }
        UsageRow totals = rows.stream().reduce(UsageRow.NONE, (sum, row) -> sum.plus(row));
        JsonBodies.send(response, Status.OK_200, new UsageReport(query.from().toString(), query.to().toString(),
                UsageParameters.names(query.groupBy()), query.keyId().orElse(null), Row.of(totals),
                rows.stream().map(Row::of).toList()));
    }

    /** {@code format=csv}, or else an {@code Accept} that prefers CSV to JSON. */
    private static boolean wantsCsv(ServerRequest request) {
        Optional<String> format = request.query().first("format").asOptional();
        if (format.isPresent()) {
            return switch (format.get()) {
                case "csv" -> true;
                case "json" -> false;
                default -> throw new ApiException(ApiError.invalidRequest("format", "'format' must be json or csv."));
            };
        }
        for (HttpMediaType type : request.headers().acceptedTypes()) {
            if (type.test(TEXT_CSV) && !type.mediaType().isWildcardType()) {
                return true;
            }
            if (type.test(MediaTypes.APPLICATION_JSON)) {
                return false;
            }
        }
        return false;
    }

}

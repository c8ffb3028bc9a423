# run.sh's result (summary.jq's JSON) as Markdown: what ran where, one table of the load, one of
# the streams and memory, one of the targets.

# fmt($digits): a number rounded to that many decimals, thousands apart by a space; "-" for none.
def fmt($digits):
    if . == null then "-"
    else (. * pow(10; $digits) | round) as $n | ($n | fabs) as $abs |
        (($abs / pow(10; $digits)) | floor | tostring
            | [scan("^.{1,3}(?=(?:.{3})*$)|.{3}")] | join(" ")) as $whole |
        ($abs - (($abs / pow(10; $digits)) | floor) * pow(10; $digits)) as $part |
        (if $n < 0 then "-" else "" end) + $whole +
        (if $digits == 0 then "" else "." + ($part | tostring | ("0" * ($digits - length)) + .) end)
    end;
def cells: "| " + join(" | ") + " |";
def rule($n): [range($n)] | map("---") | cells;
def verdict: if . == null then "not measured" elif . then "met" else "**not met**" end;
def mb: if . == null then null else . / 1024 end;

. as $r |
"# Side-by-side run, \($r.time)",
"",
"Build \($r.build.commit)\(if $r.build.uncommitted_changes then " with uncommitted changes" else "" end)" +
    "\(if $r.build.aot_cache then ", AOT cache `\($r.build.aot_cache)`" else ", no AOT cache" end); " +
    "\($r.versions.java). \($r.machine.cpus) CPUs (\($r.machine.cpu)), kernel \($r.machine.kernel); " +
    "\($r.machine.kind // "unknown") kind. A fixed loop took \($r.machine.core_loop_ms.before | join(" / ")) ms " +
    "on CPU \($r.settings.proxy_cpu) / \($r.settings.load_cpu) before the run, " +
    "\($r.machine.core_loop_ms.after | join(" / ")) ms after; load average " +
    "\($r.machine.load_average.before[0]) before, \($r.machine.load_average.after[0]) after.",
(if $r.machine.load_average.before[0] > 1 then
    "", "**The machine was busy** (a load average of \($r.machine.load_average.before[0]) before the run, over 1): " +
        "these figures do not compare with a quiet run's."
 else empty end),
"",
"Proxies on CPU \($r.settings.proxy_cpu), wrk, curl, the one-connection client and the fake upstream on CPU \($r.settings.load_cpu). " +
    "Warm-up \($r.settings.warmup_s) s at \($r.settings.warmup_connections) connections, then " +
    "\($r.settings.duration_s) s a step; streams one at a time, \($r.settings.stream_gap_ms) ms between " +
    "the upstream's events. nginx \($r.versions.nginx), wrk \($r.versions.wrk), Python \($r.versions.python // "-"), Portkey \($r.versions.portkey) " +
    "on node \($r.versions.node).",
"",
(["row", "conns", "req/s", "÷ direct", "p50 ms", "p99 ms", "+p50 ms", "+p99 ms", "non-2xx", "socket errors"] | cells),
rule(10),
($r.rows | to_entries[] | .key as $name | .value as $row |
    if $row.error then [$name, "failed: \($row.error | gsub("[|\n]"; " "))"] + [range(8) | ""] | cells
    else $row.load[] | .connections as $c |
        ($r.rows.direct.load // [] | map(select(.connections == $c)) | first // {}) as $d |
        [$name, ($c | tostring), (.rps | fmt(0)),
         (if $d.rps then .rps / $d.rps | fmt(3) else null | fmt(0) end),
         (.p50_ms | fmt(2)), (.p99_ms | fmt(2)),
         (if $name == "direct" or $d.p50_ms == null then "" else .p50_ms - $d.p50_ms | fmt(2) end),
         (if $name == "direct" or $d.p99_ms == null then "" else .p99_ms - $d.p99_ms | fmt(2) end),
         (.non_2xx | tostring), (.socket_errors | tostring)] | cells
    end),
"",
(if [$r.rows[] | .one_connection // empty] | length == 0 then empty else
    "One connection again after the largest step, each request timed on its own (`one_connection.py`; " +
        "the one-connection latency targets' figures):",
    "",
    (["row", "req/s", "p50 ms", "p90 ms", "p99 ms", "+p50 ms", "+p99 ms", "failed or non-2xx"] | cells),
    rule(8),
    ($r.rows | to_entries[] | select(.value.one_connection) | .key as $name | .value.one_connection |
        [$name, (.rps | fmt(0)), (.p50_ms | fmt(3)), (.p90_ms | fmt(3)), (.p99_ms | fmt(3)),
         (if $name == "direct" then "" else $r.ratios.one_connection[$name].added_p50_ms | fmt(3) end),
         (if $name == "direct" then "" else $r.ratios.one_connection[$name].added_p99_ms | fmt(3) end),
         (.failed + .non_2xx | tostring)] | cells),
    ""
 end),
(["row", "streams whole", "TTFB ms", "+TTFB ms", "total ms", "idle RSS MB", "peak RSS MB"] | cells),
rule(7),
($r.rows | to_entries[] | select(.value.stream) | .key as $name | .value as $row | $row.stream |
    [$name, "\(.whole) of \(.requests)", (.ttfb_ms | fmt(2)),
     (if $name == "direct" then "" else $r.ratios.stream_added_ttfb_ms[$name] | fmt(2) end),
     (.total_ms | fmt(1)), ($row.rss_idle_kb | mb | fmt(1)), ($row.rss_peak_kb | mb | fmt(1))] | cells),
"",
(if ($r.ratios.beside_gateway // {}) == {} then empty else
    "Beside the gateway row (÷ gateway is req/s over the gateway row's; + is the difference):",
    "",
    (["row", "conns", "÷ gateway", "+p50 ms", "+p99 ms"] | cells),
    rule(5),
    ($r.ratios.beside_gateway | to_entries[] | .key as $name | .value.load[] |
        [$name, (.connections | tostring), (.over_gateway | fmt(3)), (.p50_minus_gateway_ms | fmt(3)),
         (.p99_minus_gateway_ms | fmt(3))] | cells),
    "",
    ($r.ratios.beside_gateway | to_entries[] | "\(.key): TTFB \(.value.ttfb_minus_gateway_ms | fmt(2)) ms beside the gateway row's" +
        "; one connection timed per request, p50 \(.value.one_connection.p50_minus_gateway_ms | fmt(3)) ms and p99 " +
        "\(.value.one_connection.p99_minus_gateway_ms | fmt(3)) ms beside it" +
        (if .key == "baseline" then "; cold starts " + (($r.rows.baseline.cold_start_ms // []) | map(fmt(0)) | join(", ")) + " ms" else "" end) + "."),
    ""
 end),
"Gateway cold starts, `bin/gateway` to its first answered `/api/v1/models`: " +
    (if ($r.gateway_cold_start_ms | length) == 0 then "not measured."
     else ($r.gateway_cold_start_ms | map(fmt(0)) | join(", ")) + " ms." end),
"",
(["target", "gateway", "nginx as a proxy", "Portkey", "met?"] | cells),
rule(5),
($r.targets[] | .unit as $u |
    def shown: if . == null then "" elif $u == "errors" then tostring
        elif $u == "×" then "\(fmt(1)) ×" elif $u == "MB" then "\(fmt(1)) MB"
        elif $u == "ms" then "\(if . < 0 then "" else "+" end)\(fmt(2)) ms" elif $u == "of direct" then fmt(3) else "\(fmt(2)) s" end;
    [.target, (.gateway | shown), (.nginx | shown), (.portkey | shown), (.met | verdict)] | cells)

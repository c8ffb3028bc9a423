#!/usr/bin/env bash
# When the peak RSS comes and what it is: a fresh gateway under the harness's order of load
# (WARM_S at WARM_CONNS connections from a cold start, then RUN_S at 1, 32 and 256), with the
# process's RSS and the resident parts of the Java heap and of the AOT cache sampled every 200 ms
# from /proc/PID/smaps. Prints the highest sample of each per phase, then VmHWM, the peak that
# ../../../shared/bench reports. JVM options and AOT cache as bin/gateway takes them
# (GATEWAY_JAVA_OPTS, GATEWAY_AOT_CACHE). Uses ../../../shared/bench for the fake upstream (run its
# setup.sh once). Loopback only, bounded, stops what it started.
#   WARM_S (60)  WARM_CONNS (256)  RUN_S (15)
set -euo pipefail
source "$(dirname "$0")/common.sh"
WARM_S=${WARM_S:-60} WARM_CONNS=${WARM_CONNS:-256} RUN_S=${RUN_S:-15}
export BENCH_MODEL=openai/gpt-4o-mini BENCH_KEY=$KEY
java_bin=$("$repo/distribution/target/gateway/bin/find-java" 21)/bin
start_upstream 10
start_gateway

# The heap's address range, from the collector's own report: its lowest and highest bracket.
heap_range=$("$java_bin/jcmd" "$gw" GC.heap_info | grep -o '\[0x[0-9a-f]*, 0x[0-9a-f]*' | tr -d '[,' |
    awk '{print $1; print $2}' | sort | sed -n '1p;$p' | tr '\n' ' ')
# sample: one line "seconds rss_MB heap_MB aot_MB" from smaps; hex compared as numbers in portable awk.
sample() {
    awk -v range="$heap_range" -v now="$(date +%s.%N)" '
        function hex(h,   i, n) { n = 0; h = tolower(h); sub(/^0x/, "", h)
            for (i = 1; i <= length(h); i++) n = n * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1
            return n }
        BEGIN { split(range, r, " "); lo = hex(r[1]); hi = hex(r[2]) }
        /^[0-9a-f]+-[0-9a-f]+ / { split($1, a, "-"); start = hex(a[1]); end = hex(a[2])
            part = (start < hi && end > lo) ? "heap" : ($NF ~ /\.(aot|jsa)$/ ? "aot" : "") }
        /^Rss:/ { total += $2; if (part != "") kb[part] += $2 }
        END { printf "%.1f %d %d %d\n", now, total / 1024, kb["heap"] / 1024, kb["aot"] / 1024 }
    ' "/proc/$gw/smaps" 2>/dev/null || true
}
# Samples until the gateway exits (stop_started ends it when this script does).
(while kill -0 "$gw" 2>/dev/null; do sample; sleep 0.2; done) > "$work/trace" &

phases=() results=()
load() { # LABEL SECONDS CONNECTIONS
    phases+=("$1 $(date +%s.%N)")
    wrk_for "$2" "$3"
    results+=("$(jq -r '"\(.rps | floor) \(.p99_ms) \(.non_2xx + .socket_errors)"' "$work/wrk.json")")
}
load "warm-up at $WARM_CONNS" "$WARM_S" "$WARM_CONNS"
for connections in 1 32 256; do load "$connections connections" "$RUN_S" "$connections"; done
phases+=("end $(date +%s.%N)")
hwm=$(awk '/^VmHWM:/ {print int($2 / 1024)}' "/proc/$gw/status")

echo "phase                 highest RSS MB   heap MB   AOT cache MB     req/s   p99 ms   errors"
for i in $(seq 0 $((${#phases[@]} - 2))); do
    from=${phases[$i]##* } to=${phases[$((i + 1))]##* }
    awk -v from="$from" -v to="$to" -v label="${phases[$i]% *}" -v wrk="${results[$i]}" '
        $1 >= from && $1 < to { if ($2 > rss) rss = $2; if ($3 > heap) heap = $3; if ($4 > aot) aot = $4 }
        END { split(wrk, w, " "); printf "%-20s %15d %9d %14d %9d %8.2f %8d\n", label, rss, heap, aot, w[1], w[2], w[3] }' "$work/trace"
done
echo "peak RSS (VmHWM): $hwm MB"

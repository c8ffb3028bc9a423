#!/usr/bin/env bash
# Cold start as the target counts it: from launching bin/gateway (pinned to CPU 0, as run.sh pins
# it) to its first 200 from GET /api/v1/models, STARTS times in a row, on a database whose schema is
# current, from whatever AOT cache the distribution holds (run.sh records one under load;
# GATEWAY_AOT_CACHE=off for none). Prints each start's time, the JVM's CPU time by thread at that
# moment (main, compilers, the rest) and its RSS. The caller polls every 5 ms from CPU 1.
# Loopback only, bounded, stops what it started.
#   STARTS (5)
set -euo pipefail
source "$(dirname "$0")/common.sh"
STARTS=${STARTS:-5}
migrate_database "$DATABASE"
ls "$GATEWAY_HOME"/lib/*.aot 2> /dev/null | sed 's/^/AOT cache: /' || echo "AOT cache: none"

for start in $(seq "$STARTS"); do
    from=$(date +%s%N)
    launch_gateway "$GATEWAY_PORT" "$UPSTREAM_PORT" "$DATABASE" "$KEY"
    ms=$(first_answer_ms "$GATEWAY_PORT" "$KEY" "$from") \
        || { cat "$work/gateway.log" >&2; die "start $start: no answer within 10 s"; }
    echo "start $start: $ms ms; $(cpu_ns_by_kind "$GATEWAY_PID" | awk '
        $1 == "main" || $1 == "compilers" {ms[$1] = $2 / 1e6; next} {other += $2 / 1e6}
        END {printf "main %d ms, compilers %d ms, other threads %d ms", ms["main"], ms["compilers"], other}');" \
        "RSS $(awk '/^VmRSS:/ {printf "%.1f", $2 / 1024}' "/proc/$GATEWAY_PID/status") MB"
    retire "$GATEWAY_PID"
done

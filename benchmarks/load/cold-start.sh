#!/usr/bin/env bash
# Cold start as the target counts it: from launching bin/gateway (pinned to CPU 0, as the harness
# pins it) to the first 200 from GET /api/v1/models, STARTS times in a row, on a database whose
# schema is current, from whatever AOT cache the distribution holds (harness.sh records one under
# load; GATEWAY_AOT_CACHE=off for none). Prints each start's time, the JVM's CPU time by thread at
# that moment (main, compilers, the rest) and its RSS. The caller polls every 5 ms from CPU 1.
# Loopback only, bounded, stops what it started.
#   STARTS (5)
set -euo pipefail
source "$(dirname "$0")/common.sh"
STARTS=${STARTS:-5}
gateway=${GATEWAY_HOME:-$repo/distribution/target/gateway}/bin/gateway
database="jdbc:sqlite:$work/gateway.db"
GATEWAY_DATABASE_URL=$database "$gateway" migrate > "$work/migrate.log" 2>&1
ls "$(dirname "$gateway")/../lib/"*.aot 2> /dev/null | sed 's/^/AOT cache: /' || echo "AOT cache: none"

for start in $(seq "$STARTS"); do
    launched=$(date +%s%N)
    GATEWAY_PORT=8080 GATEWAY_MASTER_KEY=$KEY GATEWAY_ACCESS_LOG=off OPENAI_API_KEY=sk-x \
        OPENAI_BASE_URL=http://127.0.0.1:18080/v1 GATEWAY_DATABASE_URL=$database \
        taskset -c 0 "$gateway" > "$work/gateway.log" 2>&1 &
    gw=$!
    started+=($gw)
    answered=""
    for _ in $(seq 2000); do
        if [ "$(taskset -c 1 curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $KEY" \
                http://127.0.0.1:8080/api/v1/models)" = 200 ]; then
            answered=$(date +%s%N)
            break
        fi
        sleep 0.005
    done
    [ -n "$answered" ] || { echo "start $start: no answer within the polls; its log:" >&2; cat "$work/gateway.log" >&2; exit 1; }
    echo "start $start: $(( (answered - launched) / 1000000 )) ms; $(cpu_ns_by_kind "$gw" | awk '
        $1 == "main" || $1 == "compilers" {ms[$1] = $2 / 1e6; next} {other += $2 / 1e6}
        END {printf "main %d ms, compilers %d ms, other threads %d ms", ms["main"], ms["compilers"], other}');" \
        "RSS $(awk '/^VmRSS:/ {printf "%.1f", $2 / 1024}' /proc/$gw/status) MB"
    kill "$gw"
    wait "$gw" 2> /dev/null || true
    gw=
done

#!/usr/bin/env bash
# The harness run of BENCHMARKS.md in one command: records the distribution's AOT cache under the
# kinds of load the run measures (keep-alive at 32, 1 and 256 connections, new connections,
# streams), then starts the gateway fresh from it on a migrated database, pinned to CPU 0 with the
# access log on, and runs ../../../shared/bench/run.sh against it, timing both cores before and after
# (core_speeds). Loopback only, bounded.
#   RESULT_FILE (where run.sh writes its JSON)  RECORD=0 (keep the cache already there)
#   KEEP_LOG (a file to copy the measured gateway's log to, to look into errors afterwards)
#   and run.sh's own settings (WARMUP_S, DURATION_S, CONNECTIONS, ...), passed through.
set -euo pipefail
source "$(dirname "$0")/common.sh"
home=${GATEWAY_HOME:-$repo/distribution/target/gateway}
export BENCH_MODEL=openai/gpt-4o-mini BENCH_KEY=$KEY

# core_speeds LABEL: the time each core takes for the same fixed loop. These machines' cores slow
# down now and then (the host's doing: the same loop took up to twice as long on CPU 0 as on CPU 1
# for minutes, then as long), and the harness puts the proxy on CPU 0 and direct's load on CPU 1, so a
# run's ratios are read against this.
core_speeds() {
    local line="core speed $1:"
    for cpu in 0 1; do
        local start
        start=$(date +%s%N)
        taskset -c "$cpu" awk 'BEGIN { for (i = 0; i < 2e7; i++) s += i }'
        line="$line CPU $cpu $(( ($(date +%s%N) - start) / 1000000 )) ms"
    done
    echo "$line"
}

stop_gateway() {
    kill "$gw"
    # The JVM writes the AOT cache as it exits; wait for it.
    while kill -0 "$gw" 2>/dev/null; do sleep 0.2; done
}

if [ "${RECORD:-1}" = 1 ]; then
    rm -f "$home"/lib/gateway-jdk-*.aot
    start_upstream 10
    start_gateway
    wrk_for 20 32
    wrk_for 5 1
    wrk_for 10 256
    wrk_for 5 4 "Connection: close"
    for _ in $(seq 20); do
        curl -s -o /dev/null -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' \
            -d '{"model":"openai/gpt-4o-mini","stream":true,"messages":[{"role":"user","content":"Hi"}]}' \
            http://127.0.0.1:8080/api/v1/chat/completions
    done
    stop_gateway
    kill "${started[0]}"
    while kill -0 "${started[0]}" 2>/dev/null; do sleep 0.2; done
    ls "$home"/lib/gateway-jdk-*.aot > /dev/null || { echo "no AOT cache was recorded" >&2; exit 1; }
    started=()
    rm -f "$work/gateway.db"
fi

GATEWAY_ACCESS_LOG=$work/access.log start_gateway
core_speeds before
GATEWAY_URL=http://127.0.0.1:8080/api/v1 GATEWAY_KEY=$KEY GATEWAY_PID=$gw "$bench/run.sh"
core_speeds after
grep -h "since JVM startup" "$work/gateway.log" || true
[ -z "${KEEP_LOG:-}" ] || cp "$work/gateway.log" "$KEEP_LOG"

#!/usr/bin/env bash
# How a gateway warms up on one CPU: one start of bin/gateway (on PROXY_CPU) under a steady load of
# CONNECTIONS, measured in WINDOWS windows of WINDOW_S seconds from the load's first second. Per
# window: req/s, the JIT compiler threads' CPU time, and the CPU time per request of every other
# thread. On one CPU the compilers take their share from the requests, so a build whose hot path
# costs C2 more work reaches its steady throughput later; a run with a short warm-up then measures
# it mid-way. The last windows are its steady state.
#
#   benchmarks/load/warm-up.sh [HOME]
#
# HOME an unpacked distribution (default distribution/target/gateway), started with its shipped
# options and whatever AOT cache it holds (GATEWAY_AOT_CACHE=off for none; GATEWAY_JAVA_OPTS to
# try others). Settings (environment): WINDOWS (6), WINDOW_S (15), CONNECTIONS (32).
set -euo pipefail
source "$(dirname "$0")/../harness/lib.sh"
GATEWAY_HOME=$(cd "${1:-$repo/distribution/target/gateway}" && pwd)
[ -x "$GATEWAY_HOME/bin/gateway" ] || die "no distribution in $GATEWAY_HOME"
WINDOWS=${WINDOWS:-6} WINDOW_S=${WINDOW_S:-15} CONNECTIONS=${CONNECTIONS:-32}
UPSTREAM_PORT=${UPSTREAM_PORT:-18080} GATEWAY_PORT=${GATEWAY_PORT:-18180}
KEY=sk-gw-bench-0123456789abcdef
ticks_per_second=$(getconf CLK_TCK)

# ticks PID...: "COMPILERS OTHERS", the clock ticks so far of the processes' JIT compiler threads
# and of all their other threads.
ticks() {
    local pid task
    for pid in "$@"; do
        for task in /proc/"$pid"/task/*; do
            echo "$(cat "$task/comm" 2> /dev/null | tr ' ' _) $(awk '{ print $14 + $15 }' "$task/stat" 2> /dev/null || echo 0)"
        done
    done | awk '$1 ~ /Compiler/ { c += $2; next } { o += $2 } END { print c + 0, o + 0 }'
}

start_upstream "$UPSTREAM_PORT" 10
database=jdbc:sqlite:$work/warm-up.db
migrate_database "$database"
start_gateway "$GATEWAY_PORT" "$UPSTREAM_PORT" "$database" "$KEY"
# bin/gateway runs the JVM as its child while it records an AOT cache.
pids="$GATEWAY_PID $(pgrep -P "$GATEWAY_PID" || true)"
url=http://127.0.0.1:$GATEWAY_PORT/api/v1/chat/completions
echo "| from s | req/s | compiler CPU % | other threads' CPU µs per request |"
echo "| --- | --- | --- | --- |"
for window in $(seq 0 $((WINDOWS - 1))); do
    # shellcheck disable=SC2086 # pids is a list
    read -r compilers others < <(ticks $pids)
    run_wrk "$url" "$WINDOW_S" "$CONNECTIONS" openai/gpt-4o-mini "$KEY" "$work/wrk.json"
    # shellcheck disable=SC2086
    read -r compilers_after others_after < <(ticks $pids)
    awk -v from=$((window * WINDOW_S)) -v rps="$(jq .rps "$work/wrk.json")" -v n="$(jq .requests "$work/wrk.json")" \
        -v c=$((compilers_after - compilers)) -v o=$((others_after - others)) -v hz="$ticks_per_second" -v s="$WINDOW_S" \
        'BEGIN { printf "| %d | %.0f | %.0f | %.1f |\n", from, rps, c / hz / s * 100, o / hz * 1e6 / n }'
done
echo "peak RSS: $(awk '/^VmHWM:/ { printf "%.1f MB", $2 / 1024 }' "/proc/$(echo $pids | awk '{ print $NF }')/status")"
retire "$GATEWAY_PID"

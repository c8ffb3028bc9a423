#!/usr/bin/env bash
# A calibration for the harness's figures: what the machine itself charges any proxy placed as the
# harness places one. nginx set up as a reverse proxy (one worker, keep-alive connections to the
# fake upstream, no buffering of streams), pinned to CPU 0 like the gateway, gets the harness's
# tests: wrk at 1 and 32 connections, and its streaming test (curl, one new connection a stream,
# the median time to the first byte). The same tests run direct against the fake upstream, in
# alternation. Uses ../../../shared/bench (run its setup.sh once). Loopback only, bounded.
#   DURATION_S (15)  STREAM_N (20)  ROUNDS (2)
set -euo pipefail
source "$(dirname "$0")/common.sh"
DURATION_S=${DURATION_S:-15} STREAM_N=${STREAM_N:-20} ROUNDS=${ROUNDS:-2}
export BENCH_MODEL=gpt-4o-mini BENCH_KEY=unused
start_upstream 10
start_native_proxy

body='{"model":"gpt-4o-mini","stream":true,"messages":[{"role":"user","content":"Say hello."}]}'
# measure NAME URL: one line of figures for the target at URL.
measure() {
    local line="$1"
    for conns in 1 32; do
        WRK_URL=$2 wrk_for "$DURATION_S" "$conns"
        line+=$(jq -r --arg c "$conns" '"  c=\($c) \(.rps|floor) req/s p50 \(.p50_ms) p99 \(.p99_ms)"' "$work/wrk.json")
    done
    local ttfb
    ttfb=$(for _ in $(seq "$STREAM_N"); do
        taskset -c 1 curl -s -o /dev/null -w '%{time_starttransfer}\n' -H 'Content-Type: application/json' \
            -d "$body" "$2"
    done | sort -n | awk '{t[NR] = $1} END {printf "%.2f", 1000 * (NR % 2 ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2)}')
    echo "$line  stream TTFB ${ttfb} ms"
}
for round in $(seq "$ROUNDS"); do
    measure "direct      " http://127.0.0.1:18080/v1/chat/completions
    measure "nginx proxy " http://127.0.0.1:8090/v1/chat/completions
done

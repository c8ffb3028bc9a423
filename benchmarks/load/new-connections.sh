#!/usr/bin/env bash
# A new caller while the gateway is busy: wrk keeps CONNS connections loaded (as the harness's 256
# step does), and meanwhile one caller makes REQUESTS requests, each on a new connection, then as
# many on one kept-alive connection (new-connection.py, CPU 1 like wrk). Each new connection's
# thread is started from outside the scheduler's pool, and with a single carrier it could wait
# behind the busy connections for seconds (BENCHMARKS.md, "Fifteenth round"; CarrierThreads).
# Uses ../../../shared/bench (run its setup.sh once). Loopback only, bounded.
#   CONNS (256)  REQUESTS (300)  ROUNDS (2)
set -euo pipefail
source "$(dirname "$0")/common.sh"
CONNS=${CONNS:-256} REQUESTS=${REQUESTS:-300} ROUNDS=${ROUNDS:-2}
export BENCH_MODEL=openai/gpt-4o-mini BENCH_KEY=$KEY
start_upstream 10
start_gateway
wrk_for 20 32
# Long enough for both callers: each request takes at least the 50 ms pause after it.
seconds=$(( REQUESTS * 2 / 10 + 20 ))
for round in $(seq "$ROUNDS"); do
    wrk_for "$seconds" "$CONNS" &
    load=$!
    sleep 4
    for mode in new keep; do
        echo "round $round: $(taskset -c 1 python3 "$here/new-connection.py" 8080 /api/v1/chat/completions "$KEY" \
            "$BENCH_MODEL" "$REQUESTS" "$mode")"
    done
    wait "$load"
    echo "round $round: wrk at $CONNS connections meanwhile: $(jq -c '{rps: (.rps | floor), p99_ms, max_ms}' "$work/wrk.json")"
done

#!/usr/bin/env bash
# What a request costs when it finds the machine idle, as each of the harness's streams does (it
# sends them one at a time after its load): requests one at a time on one keep-alive connection,
# each after a pause of PAUSES seconds (0: back to back), to the gateway, to nginx set up as a proxy
# in the same place (the yardstick), and to the fake upstream directly (after-idle.py, on CPU 1).
# For the gateway also the CPU time its threads spent, divided by the requests (common.sh's
# cpu_ns_by_kind); "rest" is mostly periodic work, which longer pauses take more of.
# Warms the gateway first as the harness does. Uses ../../../shared/bench for the fake upstream (run
# its setup.sh once). Loopback only, bounded, stops what it started.
#   REQUESTS (200 per pause)  PAUSES ("0.1 0.01 0.001 0")  WARM_S (20)
set -euo pipefail
source "$(dirname "$0")/common.sh"
REQUESTS=${REQUESTS:-200} PAUSES=${PAUSES:-0.1 0.01 0.001 0} WARM_S=${WARM_S:-20}
export BENCH_MODEL=openai/gpt-4o-mini BENCH_KEY=$KEY
start_upstream 10
start_native_proxy
GATEWAY_ACCESS_LOG=$work/access.log start_gateway
wrk_for "$WARM_S" 32
wrk_for 10 1

idle() { # PORT PATH MODEL PAUSE
    taskset -c 1 python3 "$here/after-idle.py" "$1" "$2" "$KEY" "$3" "$REQUESTS" "$4"
}

for pause in $PAUSES; do
    echo "== pause $pause s (first byte, ms)"
    cpu_ns_by_kind "$gw" > "$work/cpu-before.txt"
    echo "  gateway     $(idle 8080 /api/v1/chat/completions "$BENCH_MODEL" "$pause")"
    cpu_ns_by_kind "$gw" > "$work/cpu-after.txt"
    echo "  nginx proxy $(idle 8090 /v1/chat/completions gpt-4o-mini "$pause")"
    echo "  direct      $(idle 18080 /v1/chat/completions gpt-4o-mini "$pause")"
    echo "  gateway CPU a request (µs): $(join -a 2 -e 0 -o 0,1.2,2.2 "$work/cpu-before.txt" \
        "$work/cpu-after.txt" | awk -v n="$REQUESTS" '{printf "%s %.0f, ", $1, ($3 - $2) / 1000 / n}' | sed 's/, $//')"
done

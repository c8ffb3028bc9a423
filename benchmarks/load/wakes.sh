#!/usr/bin/env bash
# What waking the other core costs a proxy here: at 32 connections, the gateway and then nginx set
# up as a proxy (start_native_proxy), each pinned to CPU 0 with wrk and the fake upstream on CPU 1,
# as the harness places them. For each: the wake-ups CPU 0 gives tasks on CPU 1 (perf's
# sched_wakeup, both cores recorded, since a wake-up queued to the other core is traced there),
# per request, and the share of CPU 0 spent inside sock_def_readable (perf's cpu-clock samples
# with call chains), which is where a write on loopback wakes its reader with interrupts off: the
# wake-up's whole cost lands there, the interprocessor interrupt to an idle core included.
# Uses ../../../shared/bench (run its setup.sh once) and perf, as root. Loopback only, bounded.
#   WARM_S (20)  RUN_S (8)
# Figures are under perf, which slows the gateway more than nginx.
set -euo pipefail
source "$(dirname "$0")/common.sh"
WARM_S=${WARM_S:-20} RUN_S=${RUN_S:-8}
command -v perf > /dev/null || { echo "wakes.sh needs perf" >&2; exit 1; }
start_upstream 10

# measure NAME URL: one line of figures for the proxy at URL (warmed up first).
measure() {
    WRK_URL=$2 wrk_for "$WARM_S" 32
    perf record -a -e sched:sched_wakeup -o "$work/wakes.data" -- sleep "$RUN_S" > /dev/null 2>&1 &
    local recorder=$!
    WRK_URL=$2 wrk_for "$RUN_S" 32
    wait "$recorder"
    local requests wakes
    requests=$(jq .requests "$work/wrk.json")
    # The waker's core is the first field; the woken task's core is target_cpu.
    wakes=$(perf script -i "$work/wakes.data" -F cpu,trace 2>/dev/null |
        awk '$1 == "[000]" && /target_cpu=001/ {n++} END {print n + 0}')
    perf record -C 0 -g -o "$work/cpu.data" -- sleep "$RUN_S" > /dev/null 2>&1 &
    recorder=$!
    WRK_URL=$2 wrk_for "$RUN_S" 32
    wait "$recorder"
    local share
    share=$(perf script -i "$work/cpu.data" -F comm,ip,sym 2>/dev/null | awk '
        NF == 0 { if (inside) hits++; samples++; inside = 0; next }
        /sock_def_readable/ { inside = 1 }
        END { printf "%.1f", 100 * hits / samples }')
    # The cost of one wake-up is read across the two runs: the core's share in the second over
    # the first's wake-ups a second.
    jq -rn --arg name "$1" --argjson requests "$requests" --argjson wakes "$wakes" --argjson share "$share" \
        --argjson seconds "$RUN_S" '
        "\($name) \($requests / $seconds | floor) req/s; wake-ups of CPU 1 from CPU 0: \($wakes / $seconds | floor)"
        + " a second, \($wakes / $requests * 100 | floor / 100) a request; CPU 0 in sock_def_readable: \($share) %,"
        + " about \($share * 10000 / ($wakes / $seconds) | floor) µs a wake-up"'
}

export BENCH_MODEL=openai/gpt-4o-mini BENCH_KEY=$KEY
start_gateway
measure "gateway    " http://127.0.0.1:8080/api/v1/chat/completions
kill "$gw"
wait "$gw" 2> /dev/null || true
gw=
export BENCH_MODEL=gpt-4o-mini BENCH_KEY=unused
start_native_proxy
measure "nginx proxy" http://127.0.0.1:8090/v1/chat/completions

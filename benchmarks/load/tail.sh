#!/usr/bin/env bash
# What makes the one-connection tail: after the harness's warm-up (WARM_S at 256 connections), one
# caller sends requests one after another on one connection for RUN_S (one-connection.py, on CPU 1
# with the upstream), while perf records every task switch on CPU 0, the gateway's core. For each
# request slower than SLOW_MS it adds up which tasks held CPU 0 meanwhile (tail-report.py): the
# gateway's own threads (carrier, poller, usage and access log writers, VM thread for collections,
# C2), other processes of the machine, or none ("swapper": the core idle, the request waiting on
# CPU 1 or on the host). STEPS one-connection steps in a row. Access log on, to a file, as in the
# harness. Needs perf with tracepoints (run as root) and python3; uses ../../../shared/bench for
# the fake upstream (run its setup.sh once). Loopback only, bounded, stops what it started.
#   WARM_S (60)  RUN_S (15)  STEPS (2)  SLOW_MS (1)
set -euo pipefail
source "$(dirname "$0")/common.sh"
WARM_S=${WARM_S:-60} RUN_S=${RUN_S:-15} STEPS=${STEPS:-2} SLOW_MS=${SLOW_MS:-1}
command -v perf > /dev/null || { echo "tail.sh needs perf" >&2; exit 1; }
export BENCH_MODEL=openai/gpt-4o-mini BENCH_KEY=$KEY
start_upstream 10
GATEWAY_ACCESS_LOG=$work/access.log start_gateway
wrk_for "$WARM_S" 256

for step in $(seq "$STEPS"); do
    # perf on CPU 1 too, so that recording does not take the measured core; -k mono: the same clock
    # as the caller's time.monotonic().
    taskset -c 1 perf record -q -e sched:sched_switch -C 0 -k mono -o "$work/sched.data" \
        -- sleep "$((RUN_S + 1))" > /dev/null 2>&1 &
    perf_pid=$!
    sleep 0.5
    taskset -c 1 python3 "$here/one-connection.py" 8080 /api/v1/chat/completions "$KEY" "$BENCH_MODEL" \
        "$RUN_S" "$SLOW_MS" > "$work/slow.txt"
    wait "$perf_pid"
    perf script -i "$work/sched.data" -F time,trace 2> /dev/null > "$work/sched.txt"
    echo "== one-connection step $step"
    python3 "$here/tail-report.py" "$work/slow.txt" "$work/sched.txt"
done

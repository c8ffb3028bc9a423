#!/usr/bin/env bash
# Holds many streams open through the gateway at once, then aborts many, and reports what the
# gateway held: RSS, threads, sockets. Uses ../../../shared/bench (run its setup.sh once) for the
# fake upstream, rendered here with more connections and a slow event gap so streams stay open.
#   STREAMS (10000)  concurrent streams held      HOLD_S (30)    how long wrk keeps them open
#   GAP_MS (1000)    upstream gap between events  ABORTS (1000)  streams cut by the caller
# Loopback only; every loop is bounded; it stops what it started.
set -euo pipefail
source "$(dirname "$0")/common.sh"
STREAMS=${STREAMS:-10000} HOLD_S=${HOLD_S:-30} GAP_MS=${GAP_MS:-1000} ABORTS=${ABORTS:-1000}
# Each stream holds two sockets in the gateway (caller, upstream): the file limit bounds STREAMS.
ulimit -n "$(ulimit -Hn)"
start_upstream "$GAP_MS" 30000
start_gateway

status() { # label
    local threads rss hwm upstream callers
    threads=$(awk '/^Threads:/ {print $2}' /proc/$gw/status)
    rss=$(awk '/^VmRSS:/ {print $2}' /proc/$gw/status); hwm=$(awk '/^VmHWM:/ {print $2}' /proc/$gw/status)
    upstream=$(ss -Htn state established '( dport = :18080 )' | wc -l)
    callers=$(ss -Htn state established '( sport = :8080 )' | wc -l)
    echo "$1: rss ${rss} kB, peak ${hwm} kB, threads ${threads}, upstream sockets ${upstream}, caller sockets ${callers}"
}
status "idle"

echo "== $STREAMS concurrent streams for ${HOLD_S}s (each about $((GAP_MS * 20 / 1000))s long)"
BENCH_MODEL=openai/gpt-4o-mini BENCH_KEY=$KEY taskset -c 1 wrk -t2 -c"$STREAMS" -d"${HOLD_S}s" \
    --timeout 60s -s "$here/streams.lua" http://127.0.0.1:8080/api/v1/chat/completions > "$work/wrk.out" &
wrk_pid=$!
sleep $((HOLD_S / 2))
status "holding"
wait $wrk_pid || true
grep -E "requests in|Socket errors|Non-2xx" "$work/wrk.out" || true
sleep $((GAP_MS * 25 / 1000))
status "after the streams"

echo "== $ABORTS streams cut by the caller after 200 ms"
seq "$ABORTS" | xargs -P 100 -I{} curl -s -o /dev/null --max-time 0.2 -H "Authorization: Bearer $KEY" \
    -H "Content-Type: application/json" \
    -d '{"model":"openai/gpt-4o-mini","stream":true,"messages":[]}' http://127.0.0.1:8080/api/v1/chat/completions || true
sleep $((GAP_MS * 3 / 1000 + 2))
status "after the aborts"

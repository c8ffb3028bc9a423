#!/usr/bin/env bash
# Soak: a steady load through the gateway for SOAK_MIN minutes (default 30), sampling its RSS,
# threads and errors every minute; RSS should stay flat. Uses ../../../shared/bench for the fake
# upstream (run its setup.sh once). Loopback only, bounded, stops what it started.
#   SOAK_MIN (30)  CONNS (8)  STREAM_EVERY (10): one streamed request per STREAM_EVERY seconds
set -euo pipefail
source "$(dirname "$0")/common.sh"
SOAK_MIN=${SOAK_MIN:-30} CONNS=${CONNS:-8} STREAM_EVERY=${STREAM_EVERY:-10}
start_upstream 10
start_gateway

BENCH_MODEL=openai/gpt-4o-mini BENCH_KEY=$KEY BENCH_RESULT=$work/wrk.json taskset -c 1 \
    wrk -t2 -c"$CONNS" -d"$((SOAK_MIN * 60))s" --timeout 5s -s "$bench/wrk/chat.lua" \
    http://127.0.0.1:8080/api/v1/chat/completions > "$work/wrk.out" &
wrk_pid=$!
stream_errors=0
echo "minute rss_kB threads stream_errors"
for minute in $(seq "$SOAK_MIN"); do
    for _ in $(seq $((60 / STREAM_EVERY))); do
        events=$(curl -s -N --max-time 5 -H "Authorization: Bearer $KEY" -H "Content-Type: application/json" \
            -d '{"model":"openai/gpt-4o-mini","stream":true,"messages":[]}' \
            http://127.0.0.1:8080/api/v1/chat/completions | grep -c '^data: ' || true)
        [ "$events" = 21 ] || stream_errors=$((stream_errors + 1))
        sleep "$STREAM_EVERY"
    done
    echo "$minute $(awk '/^VmRSS:/ {print $2}' /proc/$gw/status) $(awk '/^Threads:/ {print $2}' /proc/$gw/status) $stream_errors"
done
wait $wrk_pid || true
cat "$work/wrk.json"
echo "usage records written: $(sqlite3 "$work/gateway.db" 'select count(*) from usage_records' 2>/dev/null || echo n/a)"

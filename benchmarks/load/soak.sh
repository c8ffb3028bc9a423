#!/usr/bin/env bash
# Does the gateway hold steady for half an hour? A steady load through it for SOAK_MIN minutes
# (default 30), sampling its RSS, threads and whole streams every minute; RSS should stay flat and
# no request fail. Loopback only, bounded, stops what it started.
#   SOAK_MIN (30)  CONNS (8)  STREAM_EVERY (10): one streamed request per STREAM_EVERY seconds
set -euo pipefail
source "$(dirname "$0")/common.sh"
SOAK_MIN=${SOAK_MIN:-30} CONNS=${CONNS:-8} STREAM_EVERY=${STREAM_EVERY:-10}
start_upstream "$UPSTREAM_PORT" 10
gateway_up

wrk_for "$((SOAK_MIN * 60))" "$CONNS" &
wrk_pid=$!
stream_errors=0
echo "minute rss_kB threads stream_errors"
for minute in $(seq "$SOAK_MIN"); do
    for _ in $(seq $((60 / STREAM_EVERY))); do
        read -r status _ < <(chat_request true "$URL" openai/gpt-4o-mini "$KEY" "$work/stream.out")
        [ "$status" = 200 ] && [ "$(grep -c '^data: ' "$work/stream.out")" = 21 ] || stream_errors=$((stream_errors + 1))
        sleep "$STREAM_EVERY"
    done
    echo "$minute $(rss_kb "$gw" VmRSS) $(awk '/^Threads:/ {print $2}' "/proc/$gw/status") $stream_errors"
done
wait $wrk_pid || true
cat "$work/wrk.json"
echo "usage records written: $(sqlite3 "$work/gateway.db" 'select count(*) from usage_records' 2> /dev/null || echo n/a)"

#!/usr/bin/env bash
# Holds many streams open through the gateway at once, then aborts many, and reports what the
# gateway held: RSS, threads, sockets, open files. The fake upstream gets more connections and a
# slow event gap here, so streams stay open.
#   STREAMS (10000)  concurrent streams              GAP_MS (1000)  upstream gap between events
#   CALLERS (h2)     h2: HTTP/2 callers, STREAMS_PER_CONNECTION (100) streams on each connection
#                    (h2load, Debian's nghttp2-client); http1: one connection a stream (wrk)
#   HOLD_S (30)      with http1, how long wrk keeps its streams open
#   ABORTS (1000)    streams cut by the caller after 200 ms (over CALLERS' protocol)
# The gateway's heap and request limit come from the environment as usual: the shipped settings
# hold about 6 300 at once (docs/operations.md, "Sizing"); 10 000 need about 540 MB of heap, e.g.
# GATEWAY_JAVA_OPTS with bin/gateway's options and -Xmx768m (its request limit follows). Loopback only; every loop is bounded; it stops what it started.
set -euo pipefail
source "$(dirname "$0")/common.sh"
STREAMS=${STREAMS:-10000} GAP_MS=${GAP_MS:-1000} ABORTS=${ABORTS:-1000}
CALLERS=${CALLERS:-h2} STREAMS_PER_CONNECTION=${STREAMS_PER_CONNECTION:-100} HOLD_S=${HOLD_S:-30}
if [ "$CALLERS" = h2 ] && ! command -v h2load > /dev/null; then
    echo "streams.sh: HTTP/2 callers need h2load (Debian: apt-get install nghttp2-client), or run with CALLERS=http1" >&2
    exit 1
fi
# A stream holds an upstream socket in the gateway, and over HTTP/1.1 a caller's socket too: this
# process's file limit (20 000 on these machines) bounds STREAMS to under 10 000 there.
ulimit -n "$(ulimit -Hn)"
start_upstream "$UPSTREAM_PORT" "$GAP_MS" 30000
[ "$CALLERS" = h2 ] && export GATEWAY_HTTP2=true
gateway_up

status() { # label
    local threads rss hwm upstream callers files
    threads=$(awk '/^Threads:/ {print $2}' /proc/$gw/status)
    rss=$(awk '/^VmRSS:/ {print $2}' /proc/$gw/status); hwm=$(awk '/^VmHWM:/ {print $2}' /proc/$gw/status)
    upstream=$(ss -Htn state established "( dport = :$UPSTREAM_PORT )" | wc -l)
    callers=$(ss -Htn state established "( sport = :$GATEWAY_PORT )" | wc -l)
    files=$(ls /proc/$gw/fd | wc -l)
    echo "$(date +%T) $1: rss ${rss} kB, peak ${hwm} kB, threads ${threads}, upstream sockets ${upstream}," \
        "caller sockets ${callers}, open files ${files}"
}
status "idle"

if [ "$CALLERS" = h2 ]; then
    echo "== $STREAMS concurrent streams over HTTP/2, $STREAMS_PER_CONNECTION on each connection"
    # The body chat.lua sends for HTTP/1.1.
    echo '{"model":"openai/gpt-4o-mini","stream":true,"messages":[{"role":"user","content":"Say hello."}],"max_tokens":16}' \
        > "$work/body.json"
    # Every stream starts at once and runs to its end (20 events, GAP_MS apart).
    taskset -c "$LOAD_CPU" h2load -n "$STREAMS" -c $((STREAMS / STREAMS_PER_CONNECTION)) -m "$STREAMS_PER_CONNECTION" \
        -T 120 -N 120 -d "$work/body.json" -H "Authorization: Bearer $KEY" -H "Content-Type: application/json" \
        "$URL" > "$work/load.out" 2>&1 &
else
    echo "== $STREAMS concurrent streams over HTTP/1.1 for ${HOLD_S}s (each about $((GAP_MS * 20 / 1000))s long)"
    CHAT_MODEL=openai/gpt-4o-mini CHAT_KEY=$KEY CHAT_STREAM=true taskset -c "$LOAD_CPU" wrk -t2 -c"$STREAMS" \
        -d"${HOLD_S}s" --timeout 60s -s "$harness_dir/chat.lua" "$URL" > "$work/load.out" &
fi
load_pid=$!
# Bounded: streams last GAP_MS * 20 once started; 60 looks are 5 minutes.
for _ in $(seq 60); do
    sleep 5
    kill -0 $load_pid 2>/dev/null || break
    status "holding"
done
wait $load_pid || true
grep -E "requests in|Socket errors|Non-2xx|^requests:|^status codes:|time for request:|time to 1st byte:" \
    "$work/load.out" || true
sleep $((GAP_MS * 3 / 1000 + 2))
status "after the streams"

echo "== $ABORTS streams cut by the caller after 200 ms (it closes the connection)"
curl_protocol=--http1.1
[ "$CALLERS" = h2 ] && curl_protocol=--http2-prior-knowledge
seq "$ABORTS" | xargs -P 100 -I{} curl "$curl_protocol" -s -o /dev/null --max-time 0.2 -H "Authorization: Bearer $KEY" \
    -H "Content-Type: application/json" \
    -d '{"model":"openai/gpt-4o-mini","stream":true,"messages":[]}' "$URL" || true
sleep $((GAP_MS * 3 / 1000 + 2))
status "after the aborts"

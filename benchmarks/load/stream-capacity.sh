#!/usr/bin/env bash
# How many streams bin/gateway holds at once on its shipped settings, and what each costs: a fake
# upstream (capacity/slow_upstream.py) holds every stream open HOLD_S seconds after its first
# event; a client (capacity/open_streams.py) opens each of STREAMS at once on a connection of its
# own and reads it to its end. Reports, per run: streams held at once, answered in full, refused;
# RSS idle, RSS under LOAD_CONNECTIONS keep-alive callers of plain requests (capacity/keep_alive_load.py),
# RSS at rest after that, RSS while all are held, (RSS held - RSS idle) / N, (RSS held - RSS at
# rest) / N, and the peak RSS.
#   STREAMS ("1000 5000")  one run per count, one after the other, on one gateway
#   LOAD_CONNECTIONS (32), LOAD_S (20)  the load before the streams (LOAD_S=0: none)
#   HOLD_S (60)            how long the upstream holds each stream
#   DETAIL (0)             1: the heap histogram's top while held (and the native memory summary
#                          when GATEWAY_JAVA_OPTS has -XX:NativeMemoryTracking=summary); the AOT
#                          cache is then off, as a JVM recording one crashed when asked for NMT
#   GATEWAY_PORT (18090), UPSTREAM_PORT (18091), GATEWAY_HOME (distribution/target/gateway)
# GATEWAY_JAVA_OPTS and GATEWAY_MAX_CONCURRENT_REQUESTS are passed on when set, for comparisons;
# unset, the gateway runs as shipped. Needs python3 and curl. Loopback only; every wait is bounded;
# it stops what it started.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
STREAMS=${STREAMS:-1000 5000} HOLD_S=${HOLD_S:-60} DETAIL=${DETAIL:-0}
LOAD_CONNECTIONS=${LOAD_CONNECTIONS:-32} LOAD_S=${LOAD_S:-20}
GATEWAY_PORT=${GATEWAY_PORT:-18090} UPSTREAM_PORT=${UPSTREAM_PORT:-18091}
GATEWAY_HOME=${GATEWAY_HOME:-$repo/distribution/target/gateway}
KEY=sk-gw-capacity-0123456789abcdef
die() { echo "${0##*/}: $*" >&2; exit 1; }
[ -x "$GATEWAY_HOME/bin/gateway" ] || die "no distribution in $GATEWAY_HOME: build it first (./mvnw -q package -DskipTests)"
command -v python3 > /dev/null || die "python3 is missing"
# The interpreter itself, not a wrapper (pyenv's shims are scripts): what is started here is what is stopped.
python=$(python3 -c 'import sys; print(sys.executable)')
[ "$DETAIL" = 1 ] && export GATEWAY_AOT_CACHE=off
# Each stream is two sockets in the gateway (caller and upstream) and one in each helper.
ulimit -n "$(ulimit -Hn)"
[ "$(ulimit -n)" -gt $((2 * $(echo "$STREAMS" | tr ' ' '\n' | sort -n | tail -1) + 500)) ] \
    || die "open files limited to $(ulimit -n): too few for STREAMS=$STREAMS"

work=$(mktemp -d)
started=()
cleanup() {
    local pid
    for pid in "${started[@]}"; do kill "$pid" 2> /dev/null || true; done
    for pid in "${started[@]}"; do
        for _ in $(seq 150); do kill -0 "$pid" 2> /dev/null || break; sleep 0.2; done
        kill -KILL "$pid" 2> /dev/null || true
    done
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

rss_kb() { awk -v field="$2:" '$1 == field { print $2 }' "/proc/$1/status"; }
# wait_for TRIES COMMAND...: COMMAND every 0.2 s until it succeeds, TRIES times at most.
wait_for() {
    local tries=$1
    shift
    for _ in $(seq "$tries"); do "$@" > /dev/null 2>&1 && return 0; sleep 0.2; done
    return 1
}

"$python" "$here/capacity/slow_upstream.py" "$UPSTREAM_PORT" "$HOLD_S" > "$work/upstream.log" 2>&1 &
started+=($!)
wait_for 50 grep -q ready "$work/upstream.log" || { cat "$work/upstream.log" >&2; die "the fake upstream did not start"; }

export GATEWAY_DATABASE_URL=jdbc:sqlite:$work/gateway.db GATEWAY_ACCESS_LOG=off
"$GATEWAY_HOME/bin/gateway" migrate > "$work/migrate.log" 2>&1 || { cat "$work/migrate.log" >&2; die "migrate failed"; }
GATEWAY_PORT=$GATEWAY_PORT OPENAI_BASE_URL=http://127.0.0.1:$UPSTREAM_PORT/v1 OPENAI_API_KEY=sk-capacity \
    GATEWAY_MASTER_KEY=$KEY "$GATEWAY_HOME/bin/gateway" > "$work/gateway.log" 2>&1 &
launcher=$!
started+=("$launcher")
wait_for 300 curl -sf "http://127.0.0.1:$GATEWAY_PORT/observe/health/ready" \
    || { cat "$work/gateway.log" >&2; die "the gateway did not become ready"; }
# The JVM: the launcher itself (exec) or, on a run that records an AOT cache, its child.
gw=$(pgrep -P "$launcher" java || echo "$launcher")

chat() {
    curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' \
        -d "{\"model\":\"openai/gpt-4o-mini\",\"stream\":$1,\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}" \
        "http://127.0.0.1:$GATEWAY_PORT/api/v1/chat/completions"
}
# A few requests of each kind first, so that idle means "after its first requests", not "just started".
for _ in $(seq 20); do chat false > /dev/null; done
sleep 2
idle=$(rss_kb "$gw" VmRSS)
echo "gateway: ${GATEWAY_JAVA_OPTS:-shipped JVM options}, request limit ${GATEWAY_MAX_CONCURRENT_REQUESTS:-default}"
echo "idle: rss ${idle} kB"

if [ "$LOAD_S" -gt 0 ]; then
    "$python" "$here/capacity/keep_alive_load.py" "$GATEWAY_PORT" "$KEY" "$LOAD_CONNECTIONS" "$LOAD_S" \
        > "$work/load.out" 2>&1 &
    load=$!
    started+=("$load")
    loaded=0
    for _ in $(seq $((LOAD_S + 10))); do
        kill -0 "$load" 2> /dev/null || break
        rss=$(rss_kb "$gw" VmRSS)
        [ "$rss" -gt "$loaded" ] && loaded=$rss
        sleep 1
    done
    wait "$load" || true
    echo "$LOAD_CONNECTIONS connections of plain requests for ${LOAD_S}s: $(cat "$work/load.out"); rss at most ${loaded} kB"
    sleep 2
fi
# At rest after its first load, its young generation resident: the base the streams add to.
rested=$(rss_kb "$gw" VmRSS)
echo "at rest after it: rss ${rested} kB"

for n in $STREAMS; do
    "$python" "$here/capacity/open_streams.py" "$GATEWAY_PORT" "$KEY" "$n" $((HOLD_S + 120)) > "$work/client.out" 2>&1 &
    client=$!
    started+=("$client")
    wait_for $(((HOLD_S + 120) * 5)) grep -q '^open' "$work/client.out" || true
    # Sampled while every stream is held (each is held HOLD_S from its first event): the highest of five.
    held=0
    for _ in 1 2 3 4 5; do
        sleep 2
        rss=$(rss_kb "$gw" VmRSS)
        [ "$rss" -gt "$held" ] && held=$rss
    done
    if [ "$DETAIL" = 1 ]; then
        jcmd "$gw" GC.class_histogram 2> /dev/null | head -n 18 || true
        jcmd "$gw" VM.native_memory summary 2> /dev/null | grep -E '^-|committed' | head -n 40 || true
    fi
    wait_for $(((HOLD_S + 130) * 5)) grep -q '^{' "$work/client.out" || true
    wait "$client" || true
    echo "$n streams: $(grep '^open' "$work/client.out" || echo 'open ?') at once;" \
        "$(grep '^{' "$work/client.out" || echo 'no summary')"
    echo "$n streams: rss held ${held} kB; a stream: $(((held - idle) / n)) kB over idle," \
        "$(((held - rested) / n)) kB over at rest"
    grep -m1 'At the limit' "$work/gateway.log" || true
done
echo "peak rss: $(rss_kb "$gw" VmHWM) kB"

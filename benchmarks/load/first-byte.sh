#!/usr/bin/env bash
# A stream's first byte, for builds side by side, from more streams than ab.sh's 20 a round: on a
# machine whose speed moves by a fifth from one minute to the next, ab.sh's ratio of the first
# byte spreads over ±10 % a round, too wide to tell two builds apart by a few percent (issue 50).
#
#   benchmarks/load/first-byte.sh HOME [HOME...]
#
# Each HOME an unpacked distribution. Per round, each build in turn (the order reversed every other
# round), alone on PROXY_CPU with its shipped options and AOT cache: started, warmed up as ab.sh's
# rounds are (WARMUP_S of load at 32 connections, then 5 s on one connection: the streams follow
# kept-alive traffic, so only their own code is cold), then STREAMS streams one at a time, each on a
# new connection (curl, from LOAD_CPU), their first bytes timed. Builds are never up at once, so
# that no build's idle threads or place in the start order weigh on another's streams.
# Prints, per build, the median first byte over all its streams, of the first FIRST_N streams after
# a start and of the rest; and each build's ratio to the first build's, per round (min-max) and of
# the pooled medians.
# Settings (environment): ROUNDS (8), STREAMS (40), FIRST_N (20), WARMUP_S (10), and the harness's
# ports and CPUs.
set -euo pipefail
source "$(dirname "$0")/../harness/lib.sh"
[ $# -ge 1 ] || die "usage: ${0##*/} HOME [HOME...] (unpacked distributions)"
ROUNDS=${ROUNDS:-8} STREAMS=${STREAMS:-40} FIRST_N=${FIRST_N:-20} WARMUP_S=${WARMUP_S:-10}
UPSTREAM_PORT=${UPSTREAM_PORT:-18080} GATEWAY_PORT=${GATEWAY_PORT:-18180}
KEY=sk-gw-bench-0123456789abcdef MODEL=openai/gpt-4o-mini
distributions "$@"

# measure BUILD_INDEX: one start of that build; one "build round stream seconds" line a stream.
measure() {
    local url=http://127.0.0.1:$GATEWAY_PORT/api/v1/chat/completions database status first all s
    GATEWAY_HOME=${homes[$1]}
    database=jdbc:sqlite:$work/db-$round-$1.db
    migrate_database "$database"
    start_gateway "$GATEWAY_PORT" "$UPSTREAM_PORT" "$database" "$KEY"
    run_wrk "$url" "$WARMUP_S" 32 "$MODEL" "$KEY" "$work/wrk.json"
    time_one_connection "$url" 5 "$MODEL" "$KEY" "$work/one.json"
    for s in $(seq "$STREAMS"); do
        read -r status first all < <(chat_request true "$url" "$MODEL" "$KEY" /dev/null)
        [ "$status" = 200 ] || die "a stream to ${homes[$1]} answered $status"
        echo "$1 $round $s $first" >> "$work/streams.txt"
    done
    retire "$GATEWAY_PID"
    log "round $round: ${homes[$1]} done"
}

start_upstream "$UPSTREAM_PORT" 10
: > "$work/streams.txt"
for round in $(seq "$ROUNDS"); do
    if [ $((round % 2)) = 1 ]; then
        for i in "${!homes[@]}"; do measure "$i"; done
    else
        for ((i = ${#homes[@]} - 1; i >= 0; i--)); do measure "$i"; done
    fi
done

# The awk programs' median of v[1..k] (sorts v).
median='function median(v, k) { asort(v); return (k % 2) ? v[(k + 1) / 2] : (v[k / 2] + v[k / 2 + 1]) / 2 }'
echo "| build | first byte, ms: median (all) | streams 1-$FIRST_N | streams $((FIRST_N + 1))-$STREAMS |"
echo "| --- | --- | --- | --- |"
for i in "${!homes[@]}"; do
    awk -v b="$i" -v h="${homes[i]}" -v n="$FIRST_N" "$median"'
        $1 == b { all[++a] = $4; if ($3 <= n) early[++e] = $4; else late[++l] = $4 }
        END { printf "| %s | %.3f | %.3f | %.3f |\n", h, median(all, a) * 1000, median(early, e) * 1000,
              l ? median(late, l) * 1000 : 0 }' "$work/streams.txt"
done
if [ ${#homes[@]} -gt 1 ]; then
    echo
    echo "| build | / first build's: pooled medians | each round's medians, median (min-max) |"
    echo "| --- | --- | --- |"
    for i in $(seq 1 $((${#homes[@]} - 1))); do
        awk -v b="$i" -v h="${homes[i]}" "$median"'
            $1 == 0 { a[++na] = $4; ra[$2] = ra[$2] " " $4 } $1 == b { x[++nx] = $4; rb[$2] = rb[$2] " " $4 }
            END {
                for (r in rb) if (r in ra) {
                    ka = split(ra[r], va, " "); kb = split(rb[r], vb, " ")
                    ratio[++n] = median(vb, kb) / median(va, ka)
                }
                pooled = median(x, nx) / median(a, na)
                m = median(ratio, n)
                printf "| %s | %.3f | %.3f (%.3f-%.3f) |\n", h, pooled, m, ratio[1], ratio[n]
            }' "$work/streams.txt"
    done
fi

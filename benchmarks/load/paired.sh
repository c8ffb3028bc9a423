#!/usr/bin/env bash
# Two builds measured as a pair: both up at once on the gateway's one CPU, every figure taken from
# both in the same seconds, so that the machine's speed, which on a shared host moves by a fifth
# from one minute to the next, moves both builds' figures alike (issue 50). ab.sh's alternate
# rounds measure one build minutes after the other, and their ratios spread over ±10 % a round;
# a pair's ratios hold within a few percent, so a regression of 5 % shows in one run.
#
#   benchmarks/load/paired.sh A B      (or PAIRED=1 benchmarks/ab.sh A B, which also takes revisions)
#
# A and B are unpacked distributions. First each records its AOT cache alone, under run.sh's kinds
# of load (RECORD_CACHE=0 keeps the caches there). Then per round, both started on PROXY_CPU with
# their shipped options (A first in odd rounds, B first in even ones), and in ab.sh's order:
#   warm-up  wrk at 32 connections on each, at once, for WARMUP_S (each has about half the CPU, so
#            twice ab.sh's 10 s);
#   +p50/+p99  one connection each and one to the fake upstream (direct), one request at a time in
#            turn for DURATION_S (harness/one_connection.py): each build's percentile less direct's;
#   req/s    wrk at 32 connections on each, at once, for DURATION_S: each build, in a session of
#            its own (launch_gateway), gets half the one CPU, so B's req/s over A's is A's CPU a
#            request over B's, as on a CPU of its own; jit_ms_32 is what its JIT compiled meanwhile;
#   first byte  STREAMS streams a build, one at a time, A's and B's in turn, each on a new connection;
#   peak RSS the JVM's peak resident memory at the end of the round (both loaded alike).
# In each turn of one request or stream to each, the order of the two is reversed every other turn,
# so that each build meets the other's leftover work (its writers, its collections) as often as the
# other meets its own.
# Prints each figure's median over the rounds, per build, and B's ratio to A per round (median,
# min-max), and how long a fixed loop took on each CPU before and after (core_ms, the host's speed);
# writes RESULT_FILE (JSON) and the same name ending .md.
# Settings (environment): ROUNDS (6), WARMUP_S (20), DURATION_S (15), STREAMS (40), RECORD_CACHE (1),
# RESULT_FILE (bench-results/paired-<time>.json), and the harness's ports and CPUs (B takes the port
# after GATEWAY_PORT). About 12 minutes with the defaults.
set -euo pipefail
source "$(dirname "$0")/../harness/lib.sh"
[ $# = 2 ] || die "usage: ${0##*/} A B (unpacked distributions)"
ROUNDS=${ROUNDS:-6} WARMUP_S=${WARMUP_S:-20} DURATION_S=${DURATION_S:-15} STREAMS=${STREAMS:-40}
RESULT_FILE=${RESULT_FILE:-$repo/bench-results/paired-$(date -u +%Y%m%dT%H%M).json}
UPSTREAM_PORT=${UPSTREAM_PORT:-18080} GATEWAY_PORT=${GATEWAY_PORT:-18180}
KEY=sk-gw-bench-0123456789abcdef MODEL=openai/gpt-4o-mini
distributions "$@"
paired_share_note
names=(A B)
urls=("http://127.0.0.1:$GATEWAY_PORT/api/v1/chat/completions"
    "http://127.0.0.1:$((GATEWAY_PORT + 1))/api/v1/chat/completions")
mkdir -p "$(dirname "$RESULT_FILE")"
# The jq programs' median (null of none).
jq_median='def median: sort | if length == 0 then null elif length % 2 == 1 then .[length / 2 | floor]
    else (.[length / 2 - 1] + .[length / 2]) / 2 end;'

# start BUILD_INDEX: that build on its port, with a new database; sets pids[BUILD_INDEX].
start() {
    local database=jdbc:sqlite:$work/db-$round-$1.db
    GATEWAY_HOME=${homes[$1]} GATEWAY_LOG=$work/gateway-$1.log
    migrate_database "$database"
    start_gateway $((GATEWAY_PORT + $1)) "$UPSTREAM_PORT" "$database" "$KEY"
    pids[$1]=$GATEWAY_PID
}

# measure_round: one start of both builds and every figure from them, in ab.sh's order (a warm-up at
# 32 connections, one connection, 32 connections, streams); one JSON object on stdout.
measure_round() {
    local first=$((1 - round % 2)) i s status first_byte _ errors jit_before=() jit_ms=() order
    pids=()
    start "$first"
    start $((1 - first))
    wrk_at_once "$WARMUP_S" 32 "$MODEL" "$KEY" warm "${urls[@]}"
    time_one_connection "http://127.0.0.1:$UPSTREAM_PORT/v1/chat/completions,${urls[0]},${urls[1]}" \
        "$DURATION_S" "$MODEL" "$KEY" "$work/one.json"
    for i in 0 1; do jit_before[i]=$(jit_ns "${pids[i]}"); done
    wrk_at_once "$DURATION_S" 32 "$MODEL" "$KEY" load "${urls[@]}"
    for i in 0 1; do jit_ms[i]=$(( ($(jit_ns "${pids[i]}") - jit_before[i]) / 1000000 )); done
    errors=$(jq -s 'map(.non_2xx + .socket_errors) | add' "$work"/load-[01].json)
    [ "$errors" = 0 ] || die "round $round: $errors requests failed under load"
    # A's and B's streams in turn, the pair's order reversed every other time, as one_connection.py's.
    : > "$work/streams.txt"
    for s in $(seq "$STREAMS"); do
        order="0 1"
        [ $((s % 2)) = 1 ] || order="1 0"
        for i in $order; do
            read -r status first_byte _ < <(chat_request true "${urls[i]}" "$MODEL" "$KEY" /dev/null)
            [ "$status" = 200 ] || die "round $round: a stream to ${names[i]} answered $status"
            echo "$i $first_byte" >> "$work/streams.txt"
        done
    done
    jq -nc --argjson round "$round" --arg first "${names[first]}" --argjson jit "[${jit_ms[0]}, ${jit_ms[1]}]" \
        --argjson rss "[$(rss_kb "$(jvm_pid "${pids[0]}")" VmHWM), $(rss_kb "$(jvm_pid "${pids[1]}")" VmHWM)]" \
        --slurpfile load <(cat "$work"/load-0.json "$work"/load-1.json) --slurpfile one "$work/one.json" \
        --rawfile streams "$work/streams.txt" '
        '"$jq_median"'
        ($streams | split("\n") | map(select(length > 0) | split(" "))) as $s |
        $one[0] as [$direct, $a, $b] |
        {round: $round, first: $first, direct: {p50_ms: $direct.p50_ms, p99_ms: $direct.p99_ms}} + ([0, 1] | map(. as $i |
            {(["A", "B"][$i]): {rps_32: $load[$i].rps, jit_ms_32: $jit[$i],
                p50_ms_1: [$a, $b][$i].p50_ms, p99_ms_1: [$a, $b][$i].p99_ms,
                plus_p50_ms_1: ([$a, $b][$i].p50_ms - $direct.p50_ms),
                plus_p99_ms_1: ([$a, $b][$i].p99_ms - $direct.p99_ms),
                stream_ttfb_ms: ($s | map(select(.[0] == ($i | tostring)) | .[1] | tonumber * 1000) | median),
                peak_rss_mb: ($rss[$i] / 1024)}}) | add)'
    retire "${pids[0]}"
    retire "${pids[1]}"
}

start_upstream "$UPSTREAM_PORT" 10
# How fast the host was: a pair's ratios move with it (the build with the larger working set loses
# more on a slow, shared host), so runs are compared only with runs on a host about as fast.
core_before="$(core_ms "$PROXY_CPU") $(core_ms "$LOAD_CPU")"
if [ "${RECORD_CACHE:-1}" = 1 ]; then
    for home in "${homes[@]}"; do GATEWAY_HOME=$home record_cache "$GATEWAY_PORT" "$UPSTREAM_PORT" "$KEY" "$MODEL"; done
fi
: > "$work/rounds.json"
for round in $(seq "$ROUNDS"); do
    measure_round >> "$work/rounds.json"
    log "round $round: $(jq -c '{first} + ({A, B} | map_values({rps_32, jit_ms_32, plus_p50_ms_1, stream_ttfb_ms}))' \
        <(tail -n1 "$work/rounds.json"))"
done
core_after="$(core_ms "$PROXY_CPU") $(core_ms "$LOAD_CPU")"

jq -s --arg a "${homes[0]}" --arg b "${homes[1]}" --arg time "$(date -u +%FT%TZ)" \
    --arg core_before "$core_before" --arg core_after "$core_after" '
    '"$jq_median"'
    def r3: if . == null then null else . * 1000 | round / 1000 end;
    . as $rounds |
    def cores: split(" ") | map(tonumber);
    {time: $time, a: $a, b: $b, method: "paired",
     core_ms: {before: ($core_before | cores), after: ($core_after | cores)}, rounds: $rounds,
     figures: (["rps_32", "jit_ms_32", "plus_p50_ms_1", "plus_p99_ms_1", "stream_ttfb_ms", "peak_rss_mb"] | map(. as $k |
        ($rounds | map(select(.A[$k] > 0) | .B[$k] / .A[$k]) | sort) as $ratios |
        {($k): {a_median: ($rounds | map(.A[$k]) | median | r3), b_median: ($rounds | map(.B[$k]) | median | r3),
                b_over_a: ($ratios | median | r3), b_over_a_min: ($ratios[0] | r3),
                b_over_a_max: ($ratios[-1] | r3)}}) | add)}' "$work/rounds.json" > "$RESULT_FILE"

how="$ROUNDS rounds, both builds up at once (paired.sh); a fixed loop took ${core_before// / and } ms on the"
how="$how gateways' and the load's CPU before, ${core_after// / and } ms after"
jq -r --arg how "$how" -f "$harness_dir/ab-table.jq" "$RESULT_FILE" | tee "${RESULT_FILE%.json}.md"
echo "JSON: $RESULT_FILE"

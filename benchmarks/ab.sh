#!/usr/bin/env bash
# Two builds of the gateway, measured alternately in one run: the check before a merge that
# touches the hot path. Each round runs run.sh's gateway row for A, then B (the next round B, then
# A, so that a machine that speeds up or slows down during the run favours neither), and the end
# prints each figure per build and B's ratio to A per round, with the rounds' spread.
#
#   benchmarks/ab.sh A B
#
# A and B are each an unpacked distribution (a folder: distribution/target/gateway of a build,
# copied aside before building the other) or a git revision of this repository (a5ecbdb, main,
# HEAD): a revision's distribution is built once, in a worktree of its own, and kept under
# $AIGW_BENCH_CACHE/builds/<commit> (the JDK that ./mvnw finds builds it). So
# "benchmarks/ab.sh main HEAD" checks a branch before its merge. The gateway gets one CPU
# (PROXY_CPU), as run.sh gives it.
# PAIRED=1 measures the two builds as a pair instead (load/paired.sh, which takes its own settings):
# both up at once, every figure taken from both in the same seconds, so that the machine's changes
# of speed, which spread these alternate rounds' ratios over ±10 %, move both builds alike.
# Settings (environment): ROUNDS (4), CONNECTIONS ("1 32"), WARMUP_S (10), DURATION_S (15),
# STREAM_N (20), RECORD_CACHE (1: each build records its AOT cache before its first round),
# RESULT_FILE (bench-results/ab-<time>.json) and run.sh's ports and CPUs. About 2.5 minutes a
# round and build with the defaults.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
[ $# = 2 ] || { echo "usage: ${0##*/} A B (each an unpacked distribution or a git revision)" >&2; exit 2; }
builds=${AIGW_BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/aigw-bench}/builds

# distribution FOLDER_OR_REVISION: prints the unpacked distribution to measure, building a
# revision's first if it has none yet. A build that fails leaves nothing behind but its log.
distribution() {
    if [ -d "$1" ]; then (cd "$1" && pwd); return; fi
    local commit tree
    commit=$(git -C "$repo" rev-parse --verify --quiet "$1^{commit}") \
        || { echo "${0##*/}: $1 is neither a folder nor a revision of $repo" >&2; return 2; }
    if [ ! -x "$builds/$commit/bin/gateway" ]; then
        tree=$builds/tree-$commit
        echo "== building $1 ($commit) into $builds/$commit" >&2
        rm -rf "$tree" && git -C "$repo" worktree add --detach "$tree" "$commit" > /dev/null 2>&1
        (cd "$tree" && ./mvnw -q package -DskipTests > "$builds/build-$commit.log" 2>&1) \
            || { git -C "$repo" worktree remove --force "$tree"; echo "${0##*/}: $1 did not build: $builds/build-$commit.log" >&2; return 2; }
        rm -rf "${builds:?}/$commit" && cp -r "$tree/distribution/target/gateway" "$builds/$commit"
        git -C "$repo" worktree remove --force "$tree"
    fi
    echo "$builds/$commit"
}
mkdir -p "$builds"
a_home=$(distribution "$1")
b_home=$(distribution "$2")
for home in "$a_home" "$b_home"; do
    [ -x "$home/bin/gateway" ] || { echo "${0##*/}: no distribution in $home" >&2; exit 2; }
done
if [ "${PAIRED:-}" = 1 ]; then
    exec "$here/load/paired.sh" "$a_home" "$b_home"
fi
ROUNDS=${ROUNDS:-4}
RESULT_FILE=${RESULT_FILE:-$repo/bench-results/ab-$(date -u +%Y%m%dT%H%M).json}
runs=$(mktemp -d)
trap 'rm -rf "$runs"' EXIT
mkdir -p "$(dirname "$RESULT_FILE")"

# run BUILD HOME ROUND RECORD: one gateway row of run.sh; its JSON in $runs/BUILD-ROUND.json.
run() {
    echo "== round $3: build $1 ($2)" >&2
    ROWS=gateway GATEWAY_HOME=$2 CONNECTIONS=${CONNECTIONS:-1 32} WARMUP_S=${WARMUP_S:-10} \
        COLD_STARTS=0 RECORD_CACHE=$4 RESULT_FILE=$runs/$1-$3.json "$here/run.sh" > /dev/null
}

record=${RECORD_CACHE:-1}
for round in $(seq "$ROUNDS"); do
    if [ $((round % 2)) = 1 ]; then
        run A "$a_home" "$round" "$record"; run B "$b_home" "$round" "$record"
    else
        run B "$b_home" "$round" 0; run A "$a_home" "$round" 0
    fi
    record=0
done

# Each run's figures, then per figure: each build's median over the rounds, and B / A per round
# with the smallest and largest of those ratios.
jq -n --arg a "$a_home" --arg b "$b_home" --argjson rounds "$ROUNDS" --arg time "$(date -u +%FT%TZ)" '
    def median: sort | if length == 0 then null elif length % 2 == 1 then .[length / 2 | floor]
        else (.[length / 2 - 1] + .[length / 2]) / 2 end;
    def r3: if . == null then null else . * 1000 | round / 1000 end;
    def figures: .rows.gateway as $g | {
        rps_32: ($g.load | map(select(.connections == 32)) | first.rps),
        jit_ms_32: ($g.load | map(select(.connections == 32)) | first.jit_ms),
        p50_ms_1: $g.one_connection.p50_ms, p99_ms_1: $g.one_connection.p99_ms,
        stream_ttfb_ms: $g.stream.ttfb_ms, peak_rss_mb: (($g.rss_peak_kb // 0) / 1024 | r3)};
    [inputs | {build: (input_filename | capture("/(?<b>[AB])-(?<r>[0-9]+)\\.json$")), f: figures}] as $runs |
    ($runs | map(select(.build.b == "A"))) as $A | ($runs | map(select(.build.b == "B"))) as $B |
    {time: $time, a: $a, b: $b, rounds: $rounds,
     runs: ($runs | map({build: .build.b, round: (.build.r | tonumber)} + .f)),
     figures: (["rps_32", "jit_ms_32", "p50_ms_1", "p99_ms_1", "stream_ttfb_ms", "peak_rss_mb"] | map(. as $k |
        [range(1; $rounds + 1) as $i | ($A | map(select(.build.r == ($i | tostring))) | first.f[$k]) as $x |
            ($B | map(select(.build.r == ($i | tostring))) | first.f[$k]) as $y |
            if $x == null or $y == null or $x == 0 then empty else $y / $x end] as $ratios |
        {($k): {a_median: ($A | map(.f[$k]) | median | r3), b_median: ($B | map(.f[$k]) | median | r3),
                b_over_a: ($ratios | median | r3), b_over_a_min: ($ratios | min | r3),
                b_over_a_max: ($ratios | max | r3)}}) | add)}' "$runs"/[AB]-*.json > "$RESULT_FILE"

jq -r --arg how "$ROUNDS rounds, A B then B A alternately" -f "$here/harness/ab-table.jq" "$RESULT_FILE" | tee "${RESULT_FILE%.json}.md"
echo "JSON: $RESULT_FILE"

#!/usr/bin/env bash
# The gateway's own CPU time per request under load, for builds side by side: a figure that holds
# on a machine busy with other work, where requests per second do not. Throughput on one CPU is
# the inverse of CPU time per request, so a build that spends 10 % more CPU a request loses about
# 10 % of its one-core throughput; the figure answers "which build costs more", as a bisect needs,
# not how fast either is (caches shared with other work still move it a little: compare builds
# in the same run, alternately).
#
#   benchmarks/load/cpu-per-request.sh HOME [HOME...]
#
# Each HOME an unpacked distribution. Per round, each build in turn (the order reversed every other
# round): started on PROXY_CPU with the shipped options, warmed up WARMUP_S at CONNECTIONS, then
# its CPU time (utime + stime of the process, /proc/PID/stat) read around DURATION_S of load.
# TOGETHER=1 runs the builds at once instead: all on PROXY_CPU, each under its own wrk, warmed up
# and measured over the same seconds. The machine's speed, which on a shared host moves by a fifth
# from one minute to the next, then moves every build's figures alike, and each round's ratio to the
# first build holds within a few percent where one build after the other spreads by a fifth (issue
# 50). Each build gets an equal share of the one CPU (each in a session of its own: launch_gateway),
# so its compilers and warm-up run slower than alone: give it a longer WARMUP_S. It measures cost,
# not latency: ab.sh stays the check of p50, p99 and a stream's first byte. Each build starts with
# its shipped options, its AOT cache included: one without a cache (a copied folder has none: the
# cache's name holds the folder) records it in its first round, under whatever load that round gives
# it, and a cache recorded while builds shared the CPU left its build a fifth slower in the rounds
# after (issue 50). To compare the code alone, run with GATEWAY_AOT_CACHE=off.
# PROFILE_DIR=DIR also profiles each build over its measured seconds with async-profiler (CPU
# samples every millisecond, kernel and native frames included; setup.sh fetches it) and leaves
# DIR/ROUND-N.collapsed, one a build and round, with DIR/requests.txt naming each one's build and
# request count; stacks.py turns them into microseconds a request.
# Settings (environment): ROUNDS (3), CONNECTIONS (32), WARMUP_S (15; 30 with TOGETHER),
# DURATION_S (20), TOGETHER, PROFILE_DIR, and the harness's ports and CPUs (with TOGETHER the builds
# take GATEWAY_PORT and the ports after it). Prints one line per run, the medians and, with two
# builds or more, each build's ratio to the first per round.
set -euo pipefail
source "$(dirname "$0")/../harness/lib.sh"
[ $# -ge 1 ] || die "usage: ${0##*/} HOME [HOME...] (unpacked distributions)"
TOGETHER=${TOGETHER:-}
[ -z "$TOGETHER" ] || paired_share_note
ROUNDS=${ROUNDS:-3} CONNECTIONS=${CONNECTIONS:-32} DURATION_S=${DURATION_S:-20}
default_warmup=15
[ -z "$TOGETHER" ] || default_warmup=30
WARMUP_S=${WARMUP_S:-$default_warmup}
UPSTREAM_PORT=${UPSTREAM_PORT:-18080} GATEWAY_PORT=${GATEWAY_PORT:-18180}
KEY=sk-gw-bench-0123456789abcdef
ticks=$(getconf CLK_TCK)
profiler="" profiled=0
if [ -n "${PROFILE_DIR:-}" ]; then
    profiler=$(ls "$AIGW_BENCH_CACHE"/async-profiler/lib/libasyncProfiler.so 2> /dev/null) \
        || die "no async-profiler in $AIGW_BENCH_CACHE: run benchmarks/setup.sh"
    mkdir -p "$PROFILE_DIR"
    : > "$PROFILE_DIR/requests.txt"
fi
distributions "$@"

# cpu_ticks PID: the user and system time so far of the process and those it started (bin/gateway
# runs the JVM as its child while it records the AOT cache), in clock ticks, its JIT compiler
# threads excepted.
cpu_ticks() {
    local pids=$1 next=$1 child total=0
    while [ -n "$next" ]; do
        next=$(for child in $next; do pgrep -P "$child" || true; done | tr '\n' ' ')
        pids="$pids $next"
    done
    for child in $pids; do
        for task in /proc/"$child"/task/*; do
            # The JIT's compiler threads are left out: on a busy machine they run late, so how much
            # of their work falls in the measured seconds varies from run to run, and it says
            # nothing of what a request costs once the code is compiled.
            case $(cat "$task/comm" 2> /dev/null) in *Compiler*) continue ;; esac
            total=$((total + $(awk '{ print $14 + $15 }' "$task/stat" 2> /dev/null || echo 0)))
        done
    done
    echo "$total"
}

# profile start|stop PID FILE: async-profiler in the JVM of PID (bin/gateway's shell or its java child).
profile() {
    local jvm
    jvm=$(jvm_pid "$2")
    # The agent's options reach it only as one quoted word.
    "$(dirname "$(readlink "/proc/$jvm/exe")")/jcmd" "$jvm" JVMTI.agent_load "$profiler" \
        "\"$1,event=cpu,interval=1ms,threads,file=$3,collapsed\"" > /dev/null
}

# measure HOME... (in that order): the builds started, warmed up and measured at once, each on a
# port of its own; one result line a build.
measure() {
    local i pids=() urls=() profiles=() before=() after=() requests errors us
    for i in $(seq 0 $(($# - 1))); do
        GATEWAY_HOME=${*:i+1:1} GATEWAY_LOG=$work/gateway-$i.log
        database=jdbc:sqlite:$work/db-$round-$i-$RANDOM.db
        migrate_database "$database"
        start_gateway $((GATEWAY_PORT + i)) "$UPSTREAM_PORT" "$database" "$KEY"
        pids+=("$GATEWAY_PID")
        urls+=("http://127.0.0.1:$((GATEWAY_PORT + i))/api/v1/chat/completions")
    done
    wrk_at_once "$WARMUP_S" "$CONNECTIONS" openai/gpt-4o-mini "$KEY" warm "${urls[@]}"
    for i in "${!pids[@]}"; do before+=("$(cpu_ticks "${pids[i]}")"); done
    if [ -n "$profiler" ]; then
        for i in "${!pids[@]}"; do
            profiled=$((profiled + 1))
            profiles+=("$round-$profiled.collapsed")
            profile start "${pids[i]}" "$PROFILE_DIR/${profiles[i]}"
        done
    fi
    wrk_at_once "$DURATION_S" "$CONNECTIONS" openai/gpt-4o-mini "$KEY" wrk "${urls[@]}"
    for i in "${!pids[@]}"; do after+=("$(cpu_ticks "${pids[i]}")"); done
    if [ -n "$profiler" ]; then
        for i in "${!pids[@]}"; do
            profile stop "${pids[i]}" "$PROFILE_DIR/${profiles[i]}"
            echo "${profiles[i]} $(jq .requests "$work/wrk-$i.json") ${*:i+1:1}" >> "$PROFILE_DIR/requests.txt"
        done
    fi
    for i in "${!pids[@]}"; do
        retire "${pids[i]}"
        requests=$(jq .requests "$work/wrk-$i.json")
        errors=$(jq '.non_2xx + .socket_errors' "$work/wrk-$i.json")
        us=$(awk -v t=$((after[i] - before[i])) -v hz="$ticks" -v n="$requests" 'BEGIN { printf "%.1f", t / hz * 1e6 / n }')
        echo "${*:i+1:1} $round $us $(jq .rps "$work/wrk-$i.json") $errors" | tee -a "$work/results.txt" >&2
    done
}

start_upstream "$UPSTREAM_PORT" 10
: > "$work/results.txt"
for round in $(seq "$ROUNDS"); do
    order=("${homes[@]}")
    if [ $((round % 2)) = 0 ]; then
        order=()
        for ((i = ${#homes[@]} - 1; i >= 0; i--)); do order+=("${homes[i]}"); done
    fi
    if [ -n "$TOGETHER" ]; then
        measure "${order[@]}"
    else
        for home in "${order[@]}"; do measure "$home"; done
    fi
done
echo "| build | CPU µs per request (median of $ROUNDS) | each round | req/s (median) | errors |"
echo "| --- | --- | --- | --- | --- |"
for home in "${homes[@]}"; do
    awk -v h="$home" '$1 == h { us[++n] = $3; rps[n] = $4; err += $5; all = all (all ? " " : "") $3 }
        END {
            asort(us); asort(rps)
            m = (n % 2) ? us[(n + 1) / 2] : (us[n / 2] + us[n / 2 + 1]) / 2
            r = (n % 2) ? rps[(n + 1) / 2] : (rps[n / 2] + rps[n / 2 + 1]) / 2
            printf "| %s | %.1f | %s | %.0f | %d |\n", h, m, all, r, err
        }' "$work/results.txt"
done
# Each build's ratio to the first, round by round (runs of one round compared with each other).
if [ ${#homes[@]} -gt 1 ]; then
    echo
    echo "| build | CPU µs a request / first build's, median (min-max) | req/s / first build's, median (min-max) |"
    echo "| --- | --- | --- |"
    for home in "${homes[@]:1}"; do
        awk -v a="${homes[0]}" -v b="$home" '
            $1 == a { ua[$2] = $3; ra[$2] = $4 } $1 == b { ub[$2] = $3; rb[$2] = $4 }
            function median(v, n) { asort(v); return (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }
            END {
                for (r in ub) if (r in ua && ua[r] > 0 && ra[r] > 0) { n++; cu[n] = ub[r] / ua[r]; cr[n] = rb[r] / ra[r] }
                if (!n) exit
                asort(cu); asort(cr)
                printf "| %s | %.3f (%.3f-%.3f) | %.3f (%.3f-%.3f) |\n", b, median(cu, n), cu[1], cu[n], median(cr, n), cr[1], cr[n]
            }' "$work/results.txt"
    done
fi

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
# Settings (environment): ROUNDS (3), CONNECTIONS (32), WARMUP_S (15), DURATION_S (20), and the
# harness's ports and CPUs. Prints one line per run and the medians.
set -euo pipefail
source "$(dirname "$0")/../harness/lib.sh"
[ $# -ge 1 ] || die "usage: ${0##*/} HOME [HOME...] (unpacked distributions)"
ROUNDS=${ROUNDS:-3} CONNECTIONS=${CONNECTIONS:-32} WARMUP_S=${WARMUP_S:-15} DURATION_S=${DURATION_S:-20}
UPSTREAM_PORT=${UPSTREAM_PORT:-18080} GATEWAY_PORT=${GATEWAY_PORT:-18180}
KEY=sk-gw-bench-0123456789abcdef
ticks=$(getconf CLK_TCK)
homes=()
for home in "$@"; do
    [ -x "$home/bin/gateway" ] || die "no distribution in $home"
    homes+=("$(cd "$home" && pwd)")
done

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

start_upstream "$UPSTREAM_PORT" 10
: > "$work/results.txt"
for round in $(seq "$ROUNDS"); do
    order=("${homes[@]}")
    if [ $((round % 2)) = 0 ]; then
        order=()
        for ((i = ${#homes[@]} - 1; i >= 0; i--)); do order+=("${homes[i]}"); done
    fi
    for home in "${order[@]}"; do
        GATEWAY_HOME=$home
        database=jdbc:sqlite:$work/db-$round-$RANDOM.db
        migrate_database "$database"
        start_gateway "$GATEWAY_PORT" "$UPSTREAM_PORT" "$database" "$KEY"
        url=http://127.0.0.1:$GATEWAY_PORT/api/v1/chat/completions
        run_wrk "$url" "$WARMUP_S" "$CONNECTIONS" openai/gpt-4o-mini "$KEY" "$work/warm.json"
        before=$(cpu_ticks "$GATEWAY_PID")
        run_wrk "$url" "$DURATION_S" "$CONNECTIONS" openai/gpt-4o-mini "$KEY" "$work/wrk.json"
        after=$(cpu_ticks "$GATEWAY_PID")
        retire "$GATEWAY_PID"
        requests=$(jq .requests "$work/wrk.json")
        errors=$(jq '.non_2xx + .socket_errors' "$work/wrk.json")
        us=$(awk -v t=$((after - before)) -v hz="$ticks" -v n="$requests" 'BEGIN { printf "%.1f", t / hz * 1e6 / n }')
        echo "$home $round $us $(jq .rps "$work/wrk.json") $errors" | tee -a "$work/results.txt" >&2
    done
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

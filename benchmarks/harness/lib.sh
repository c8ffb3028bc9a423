# Shared by ../run.sh and ../load/*.sh (source it, under set -euo pipefail): the tools setup.sh put
# in the cache folder, the fake upstream, nginx as a proxy, Portkey and the gateway, each started
# on 127.0.0.1 and pinned to a CPU, and stopped again when the script exits.
# Sets: harness_dir, repo, AIGW_BENCH_CACHE, work (a temporary folder), PROXY_CPU, LOAD_CPU.

harness_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$harness_dir/../.." && pwd)
AIGW_BENCH_CACHE=${AIGW_BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/aigw-bench}
PATH=$AIGW_BENCH_CACHE/bin:$PATH
# The proxy under test gets CPU 0 to itself; the load (wrk, curl) and the fake upstream share CPU 1.
PROXY_CPU=${PROXY_CPU:-0}
LOAD_CPU=${LOAD_CPU:-1}
GATEWAY_HOME=${GATEWAY_HOME:-$repo/distribution/target/gateway}
PORTKEY_JS=$AIGW_BENCH_CACHE/portkey/node_modules/@portkey-ai/gateway/build/start-server.js

die() { echo "${0##*/}: $*" >&2; exit 1; }
log() { echo "== $*" >&2; }

for tool in nginx wrk jq curl taskset; do
    command -v "$tool" > /dev/null || die "$tool is missing: run benchmarks/setup.sh first"
done

work=$(mktemp -d)
started=()
# stop PID: TERM, then up to 60 s for it to exit (a JVM writes its AOT cache as it exits), then KILL.
stop() {
    kill "$1" 2> /dev/null || return 0
    local _
    for _ in $(seq 300); do
        kill -0 "$1" 2> /dev/null || return 0
        sleep 0.2
    done
    kill -KILL "$1" 2> /dev/null || true
}
stop_started() {
    local i
    for ((i = ${#started[@]} - 1; i >= 0; i--)); do stop "${started[i]}"; done
    started=()
    rm -rf "$work"
}
trap stop_started EXIT
trap 'exit 130' INT TERM

port_free() { ! (exec 3<> "/dev/tcp/127.0.0.1/$1") 2> /dev/null; }
need_port() { port_free "$1" || die "port $1 is taken; set $2 to a free one"; }

# distributions HOME...: sets homes to each HOME's absolute path; fails on one that holds no
# unpacked distribution.
distributions() {
    local home
    homes=()
    for home in "$@"; do
        [ -x "$home/bin/gateway" ] || die "no distribution in $home"
        homes+=("$(cd "$home" && pwd)")
    done
}

# wait_ready URL PID: up to 30 s for URL to answer 2xx while PID lives.
wait_ready() {
    local _
    for _ in $(seq 300); do
        kill -0 "$2" 2> /dev/null || return 1
        curl -sf -o /dev/null --max-time 1 "$1" && return 0
        sleep 0.1
    done
    return 1
}

# rss_kb PID FIELD: VmRSS (now) or VmHWM (the process's peak) in kB, or nothing once it has gone.
rss_kb() { awk -v field="$2:" '$1 == field { print $2 }' "/proc/$1/status" 2> /dev/null || true; }

# jvm_pid PID: the JVM of a gateway started here, PID itself or, while bin/gateway records its AOT
# cache (it then runs the JVM as its child), that child.
jvm_pid() {
    local pid
    for pid in "$1" $(pgrep -P "$1" || true); do
        [ "$(basename "$(readlink "/proc/$pid/exe")")" != java ] || echo "$pid"
    done | tail -n1
}

# render TEMPLATE OUT NAME=VALUE...: TEMPLATE with each @NAME@ replaced by its VALUE (a value may
# span lines), written to OUT.
render() {
    local template=$1 out=$2
    shift 2
    cp "$template" "$out"
    local pair name
    for pair in "$@"; do
        name=${pair%%=*}
        VALUE=${pair#*=} awk -v key="@$name@" '{
            while ((i = index($0, key)) > 0) $0 = substr($0, 1, i - 1) ENVIRON["VALUE"] substr($0, i + length(key))
            print
        }' "$out" > "$out.next"
        mv "$out.next" "$out"
    done
}

# stream_events GAP_MS: the fake upstream's stream, as echo-module directives: a role chunk, 18
# content chunks and a finish chunk, then [DONE], GAP_MS apart, each flushed as it is written.
stream_events() {
    local gap_s chunk i
    gap_s=$(awk -v ms="$1" 'BEGIN { printf "%.3f", ms / 1000 }')
    chunk='{"id":"chatcmpl-aigw-bench","object":"chat.completion.chunk","created":1700000000,"model":"gpt-4o-mini","choices":[{"index":0,"delta":%s,"logprobs":null,"finish_reason":%s}]}'
    for i in $(seq 0 20); do
        if [ "$i" -gt 0 ] && [ "$1" -gt 0 ]; then echo "            echo_sleep $gap_s;"; fi
        case $i in
            0) printf "            echo 'data: $chunk';\n" '{"role":"assistant","content":""}' null ;;
            19) printf "            echo 'data: $chunk';\n" '{}' '"stop"' ;;
            20) echo "            echo 'data: [DONE]';" ;;
            *) printf "            echo 'data: $chunk';\n" "{\"content\":\"tok$i \"}" null ;;
        esac
        echo "            echo;"
        echo "            echo_flush;"
    done
}

# start_upstream PORT GAP_MS [WORKER_CONNECTIONS]: the fake upstream on LOAD_CPU.
start_upstream() {
    need_port "$1" UPSTREAM_PORT
    local dir=$work/upstream
    mkdir -p "$dir"
    render "$harness_dir/upstream.conf.template" "$dir/nginx.conf" "RUN_DIR=$dir" "PORT=$1" \
        "MODULES=$(nginx_modules)" "WORKER_CONNECTIONS=${3:-4096}" "STREAM_EVENTS=$(stream_events "$2")"
    taskset -c "$LOAD_CPU" nginx -p "$dir" -c "$dir/nginx.conf" -e "$dir/error.log" > "$dir/out.log" 2>&1 &
    started+=($!)
    wait_ready "http://127.0.0.1:$1/v1/models" $! || { cat "$dir"/*.log >&2; die "the fake upstream did not start"; }
}

# nginx_modules: where the echo module is (setup.sh records it).
nginx_modules() { cat "$AIGW_BENCH_CACHE/nginx-modules"; }

# start_nginx_proxy PORT UPSTREAM_PORT: nginx as a proxy on PROXY_CPU; sets NGINX_PROXY_MASTER and
# NGINX_PROXY_PID, its worker, the process that carries the requests.
start_nginx_proxy() {
    need_port "$1" PROXY_PORT
    local dir=$work/nginx-proxy
    mkdir -p "$dir"
    render "$harness_dir/proxy.conf.template" "$dir/nginx.conf" "RUN_DIR=$dir" "PORT=$1" "UPSTREAM_PORT=$2"
    taskset -c "$PROXY_CPU" nginx -p "$dir" -c "$dir/nginx.conf" -e "$dir/error.log" > "$dir/out.log" 2>&1 &
    NGINX_PROXY_MASTER=$!
    started+=("$NGINX_PROXY_MASTER")
    wait_ready "http://127.0.0.1:$1/v1/models" "$NGINX_PROXY_MASTER" \
        || { cat "$dir"/*.log >&2; die "nginx as a proxy did not start"; }
    NGINX_PROXY_PID=$(pgrep -P "$NGINX_PROXY_MASTER" | head -n1)
}

# start_portkey PORT: the Portkey gateway (node) on PROXY_CPU; sets PORTKEY_PID.
start_portkey() {
    [ -f "$PORTKEY_JS" ] || die "Portkey is not installed in $AIGW_BENCH_CACHE: run benchmarks/setup.sh first"
    need_port "$1" PORTKEY_PORT
    taskset -c "$PROXY_CPU" node "$PORTKEY_JS" --port="$1" --headless > "$work/portkey.log" 2>&1 &
    PORTKEY_PID=$!
    started+=("$PORTKEY_PID")
    wait_ready "http://127.0.0.1:$1/" "$PORTKEY_PID" || { cat "$work/portkey.log" >&2; die "Portkey did not start"; }
}

# migrate_database URL: brings a new database's schema up to date, as an install's first start
# does; a measured start is then any later one, which finds nothing to migrate.
migrate_database() {
    GATEWAY_DATABASE_URL=$1 "$GATEWAY_HOME/bin/gateway" migrate > "$work/migrate.log" 2>&1 \
        || { cat "$work/migrate.log" >&2; die "the database could not be migrated"; }
}

# launch_gateway PORT UPSTREAM_PORT DATABASE_URL KEY: bin/gateway on PROXY_CPU, so the JVM sizes
# itself for the one CPU it gets, with its shipped settings but for where the OpenAI provider
# points; stdout (the access log) goes to $GATEWAY_LOG ($work/gateway.log unless set: gateways up
# at once each need their own). Sets GATEWAY_PID; does not wait.
# Each in a session of its own: where the kernel groups tasks by session (autogroup), two gateways
# on one CPU then share it half and half, as two processes, not thread by thread, which gave the
# build with more threads ready to run (a poller thread, a second carrier) the larger share
# (issue 50). paired_share_note says whether this kernel does.
launch_gateway() {
    need_port "$1" GATEWAY_PORT
    GATEWAY_PORT=$1 OPENAI_BASE_URL=http://127.0.0.1:$2/v1 OPENAI_API_KEY=sk-aigw-bench \
        GATEWAY_DATABASE_URL=$3 GATEWAY_MASTER_KEY=$4 \
        setsid taskset -c "$PROXY_CPU" "$GATEWAY_HOME/bin/gateway" > "${GATEWAY_LOG:-$work/gateway.log}" 2>&1 &
    GATEWAY_PID=$!
    started+=("$GATEWAY_PID")
}

# paired_share_note: a warning on stderr where the kernel does not group tasks by session, so that
# gateways up at once on one CPU share it by thread.
paired_share_note() {
    [ "$(cat /proc/sys/kernel/sched_autogroup_enabled 2> /dev/null)" = 1 ] \
        || log "this kernel shares a CPU by thread (no sched_autogroup): the build with more threads gets more of it"
}

# start_gateway PORT UPSTREAM_PORT DATABASE_URL KEY: launch_gateway, then up to 30 s until ready.
start_gateway() {
    launch_gateway "$@"
    wait_ready "http://127.0.0.1:$1/observe/health/ready" "$GATEWAY_PID" \
        || { cat "${GATEWAY_LOG:-$work/gateway.log}" >&2; die "the gateway did not become ready"; }
}

# retire PID: stops one of the processes started here (and waits for it: a gateway writes its AOT
# cache as it exits), which then is no longer stopped at the end.
retire() {
    stop "$1"
    local kept=() pid
    for pid in "${started[@]}"; do [ "$pid" = "$1" ] || kept+=("$pid"); done
    started=("${kept[@]}")
}

# jit_ns PID: the CPU time so far of the JIT's compiler threads in the JVM of PID (jvm_pid). A step
# measured while they still compile (a build with more code to compile, or one whose AOT cache holds
# fewer profiles) has that much less of the one CPU for requests.
jit_ns() {
    cpu_ns_by_kind "$(jvm_pid "$1")" | awk '$1 == "compilers" { ns = $2 } END { print ns + 0 }'
}

# record_cache PORT UPSTREAM_PORT KEY MODEL: a first start of the distribution at GATEWAY_HOME, given
# the kinds of load measured (kept-alive connections, new ones, streams), then stopped: bin/gateway
# writes its AOT cache as it exits, as a user's first start after an install does.
record_cache() {
    log "$GATEWAY_HOME: recording the AOT cache"
    rm -f "$GATEWAY_HOME"/lib/gateway-jdk-*.aot
    local database=jdbc:sqlite:$work/record-$RANDOM.db url=http://127.0.0.1:$1/api/v1/chat/completions _
    migrate_database "$database"
    start_gateway "$1" "$2" "$database" "$3"
    run_wrk "$url" 20 32 "$4" "$3" "$work/wrk.json"
    run_wrk "$url" 5 1 "$4" "$3" "$work/wrk.json"
    run_wrk "$url" 10 256 "$4" "$3" "$work/wrk.json"
    run_wrk "$url" 5 4 "$4" "$3" "$work/wrk.json" "Connection: close"
    for _ in $(seq 20); do chat_request true "$url" "$4" "$3" /dev/null > /dev/null; done
    retire "$GATEWAY_PID"
}

# first_answer_ms PORT KEY FROM_NS: polls GET /api/v1/models every 5 ms from LOAD_CPU, up to 10 s;
# prints the milliseconds from FROM_NS (date +%s%N) to its first 200, or fails.
first_answer_ms() {
    local from=$3 _
    for _ in $(seq 2000); do
        if [ "$(taskset -c "$LOAD_CPU" curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $2" \
            "http://127.0.0.1:$1/api/v1/models")" = 200 ]; then
            echo $(( ($(date +%s%N) - from) / 1000000 ))
            return 0
        fi
        sleep 0.005
    done
    return 1
}

# run_wrk URL SECONDS CONNECTIONS MODEL KEY SUMMARY [HEADER...]: one bounded wrk run of chat
# requests from LOAD_CPU, two threads at most; its JSON summary goes to SUMMARY.
run_wrk() {
    local url=$1 seconds=$2 connections=$3 model=$4 key=$5 summary=$6
    shift 6
    CHAT_MODEL=$model CHAT_KEY=$key WRK_SUMMARY=$summary taskset -c "$LOAD_CPU" \
        wrk -t"$(( connections < 2 ? connections : 2 ))" -c"$connections" -d"${seconds}s" --timeout 5s \
        -s "$harness_dir/chat.lua" "$url" -- "$@" > /dev/null
}

# wrk_at_once SECONDS CONNECTIONS MODEL KEY NAME URL...: run_wrk on every URL at once, each with
# CONNECTIONS; URL i's summary (from 0) in $work/NAME-i.json.
wrk_at_once() {
    local seconds=$1 connections=$2 model=$3 key=$4 name=$5 i loads=()
    shift 5
    for ((i = 1; i <= $#; i++)); do
        run_wrk "${!i}" "$seconds" "$connections" "$model" "$key" "$work/$name-$((i - 1)).json" &
        loads+=($!)
    done
    wait "${loads[@]}"
}

# time_one_connection URL SECONDS MODEL KEY SUMMARY [HEADER...]: run_wrk's request on one kept-alive
# connection from LOAD_CPU for SECONDS, each request timed on its own (one_connection.py); its JSON
# summary (requests, rps, p50/p90/p99/max ms, non_2xx, failed) goes to SUMMARY.
time_one_connection() {
    local url=$1 seconds=$2 model=$3 key=$4 summary=$5
    shift 5
    printf '{"model":"%s","messages":[{"role":"user","content":"Say hello."}],"max_tokens":16}' "$model" \
        > "$work/one-connection-body.json"
    taskset -c "$LOAD_CPU" python3 "$harness_dir/one_connection.py" "$url" "$seconds" "$work/one-connection-body.json" \
        "Content-Type: application/json" "Authorization: Bearer $key" "$@" > "$summary"
}

# chat_request STREAM URL MODEL KEY OUT [HEADER...]: one chat request from LOAD_CPU on a new
# connection, streamed when STREAM is true, up to 10 s, its body to OUT; prints "status
# seconds-to-first-byte seconds-in-all" (status 000 when nothing answered).
chat_request() {
    local stream=$1 url=$2 model=$3 key=$4 out=$5 header headers=()
    shift 5
    for header in "$@"; do headers+=(-H "$header"); done
    taskset -c "$LOAD_CPU" curl -s -N --max-time 10 -o "$out" -w '%{http_code} %{time_starttransfer} %{time_total}\n' \
        -H "Authorization: Bearer $key" -H 'Content-Type: application/json' "${headers[@]}" \
        -d "{\"model\":\"$model\",\"stream\":$stream,\"messages\":[{\"role\":\"user\",\"content\":\"Say hello.\"}]}" \
        "$url" || true
}

# core_ms CPU: how long a fixed loop takes on CPU. These machines' cores change speed for minutes
# at a time, and a run's ratios set one core against the other, so a run records both.
core_ms() {
    local from
    from=$(date +%s%N)
    taskset -c "$1" awk 'BEGIN { for (i = 0; i < 2e7; i++) s += i }'
    echo $(( ($(date +%s%N) - from) / 1000000 ))
}

# cpu_ns_by_kind PID: the JVM's CPU time so far in ns by kind of thread, one "kind ns" line each:
# main (the launcher's threads, named java), carriers (of the virtual threads), pollers (that wake
# them), writers (usage records, access log), compilers (the JIT's) and rest. From schedstat, exact;
# /proc's tick counts go wrong for work that lines up with the timer's ticks, as a paced caller's does.
cpu_ns_by_kind() {
    local task
    for task in /proc/"$1"/task/*; do
        echo "$(cat "$task/comm" 2> /dev/null)|$(cut -d' ' -f1 "$task/schedstat" 2> /dev/null)"
    done | awk -F'|' '
        $2 == "" { next }
        $1 == "java" {kind = "main"} $1 ~ /^ForkJoinPool/ {kind = "carriers"} $1 ~ /Poller/ {kind = "pollers"}
        $1 ~ /^aigw-writer/ {kind = "writers"} $1 ~ /^C[12] / {kind = "compilers"}
        {ns[kind == "" ? "rest" : kind] += $2; kind = ""}
        END {for (k in ns) print k, ns[k]}' | sort
}

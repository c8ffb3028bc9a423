# Shared by the load scripts here (source it): starts the fake upstream of ../../../shared/bench and
# the unpacked distribution's gateway, pinned as the harness pins them, and stops both on exit.
# Sets: here, repo, bench, work (a temporary folder), gw (the gateway's pid), KEY.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
bench=${BENCH_DIR:-$(cd "$repo/../shared/bench" && pwd)}
KEY=sk-gw-bench-0123456789abcdef
work=$(mktemp -d)
started=()
stop_started() {
    if [ -n "${gw:-}" ] && ! kill -0 "$gw" 2>/dev/null; then
        echo "the gateway had exited before the end; the end of its log:" >&2
        tail -30 "$work/gateway.log" >&2
    fi
    for p in "${started[@]}"; do kill "$p" 2>/dev/null || true; done
    rm -rf "$work"
}
trap stop_started EXIT

# start_upstream GAP_MS [NGINX_CONNECTIONS]: the fake upstream on 127.0.0.1:18080, CPU 1.
start_upstream() {
    mkdir -p "$work/nginx"
    sed -e "s#@RUN_DIR@#$work/nginx#g" -e "s#@BENCH_DIR@#$bench#g" -e "s#@PORT@#18080#g" \
        -e "s#@CHUNK_DELAY_MS@#$1#g" -e "s#worker_connections 4096#worker_connections ${2:-4096}#" \
        "$bench/upstream/nginx.conf.template" > "$work/nginx/nginx.conf"
    taskset -c 1 nginx -p "$work/nginx" -c "$work/nginx/nginx.conf" > "$work/nginx.log" 2>&1 &
    started+=($!)
}

# start_native_proxy: nginx as a reverse proxy on 127.0.0.1:8090, one worker pinned to CPU 0 as the
# gateway is, keep-alive connections to the fake upstream, streams not buffered: the yardstick for
# what the machine charges any proxy placed where the harness places one.
start_native_proxy() {
    mkdir -p "$work/proxy"
    cat > "$work/proxy/nginx.conf" <<EOF
daemon off;
worker_processes 1;
pid $work/proxy/nginx.pid;
error_log $work/proxy/error.log warn;
events { worker_connections 4096; }
http {
    access_log off;
    upstream fake { server 127.0.0.1:18080; keepalive 256; }
    server {
        listen 127.0.0.1:8090 backlog=4096;
        location / {
            proxy_pass http://fake;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_buffering off;
        }
    }
}
EOF
    taskset -c 0 nginx -p "$work/proxy" -c "$work/proxy/nginx.conf" > "$work/proxy.log" 2>&1 &
    started+=($!)
    sleep 1
}

# wrk_for SECONDS CONNECTIONS [HEADER...]: one bounded wrk run of chat requests against the gateway
# (or WRK_URL), on CPU 1 with two threads at most, with the extra request headers given; its
# summary lands in $work/wrk.json. Needs BENCH_MODEL and BENCH_KEY.
wrk_for() {
    BENCH_RESULT=$work/wrk.json taskset -c 1 wrk -t"$(( $2 < 2 ? $2 : 2 ))" -c"$2" -d"$1s" --timeout 5s \
        -s "$bench/wrk/chat.lua" "${WRK_URL:-http://127.0.0.1:8080/api/v1/chat/completions}" -- "${@:3}" > /dev/null
}

# start_gateway: bin/gateway on 127.0.0.1:8080, CPU 0, its own SQLite file; waits until ready.
# GATEWAY_HOME picks another unpacked distribution (another build, to compare two side by side).
start_gateway() {
    local gateway=${GATEWAY_HOME:-$repo/distribution/target/gateway}/bin/gateway
    local database="jdbc:sqlite:$work/gateway.db"
    # A new database, brought up to date first as bin/gateway's first start does: the measured
    # start is then any later one, which loads no migration tool (Flyway and the Jackson it uses
    # are about 940 classes, which a start with a migration due loads from their jars).
    GATEWAY_DATABASE_URL=$database "$gateway" migrate > "$work/migrate.log" 2>&1 || {
        echo "the database could not be migrated:" >&2
        cat "$work/migrate.log" >&2
        exit 1
    }
    GATEWAY_PORT=8080 GATEWAY_MASTER_KEY=$KEY GATEWAY_ACCESS_LOG=${GATEWAY_ACCESS_LOG:-off} OPENAI_API_KEY=sk-x \
        OPENAI_BASE_URL=http://127.0.0.1:18080/v1 GATEWAY_DATABASE_URL=$database \
        taskset -c 0 "$gateway" > "$work/gateway.log" 2>&1 &
    gw=$!
    started+=($gw)
    for _ in $(seq 300); do curl -s -o /dev/null http://127.0.0.1:8080/observe/health/ready && return; sleep 0.1; done
    echo "the gateway did not become ready; its log:" >&2
    cat "$work/gateway.log" >&2
    exit 1
}

# cpu_ns_by_kind PID: the JVM's CPU time so far in ns by kind of thread, one "kind ns" line each:
# main (the launcher's threads, named java), carriers (of the virtual threads), pollers (that wake
# them), writers (usage records, access log), compilers (the JIT's) and rest. From schedstat, exact;
# /proc's tick counts go wrong for work that lines up with the timer's ticks, as a paced caller's does.
cpu_ns_by_kind() {
    for task in /proc/"$1"/task/*; do
        echo "$(cat "$task/comm" 2> /dev/null)|$(cut -d' ' -f1 "$task/schedstat" 2> /dev/null)"
    done | awk -F'|' '
        $2 == "" { next }
        $1 == "java" {kind = "main"} $1 ~ /^ForkJoinPool/ {kind = "carriers"} $1 ~ /Poller/ {kind = "pollers"}
        $1 ~ /^aigw-writer/ {kind = "writers"} $1 ~ /^C[12] / {kind = "compilers"}
        {ns[kind == "" ? "rest" : kind] += $2; kind = ""}
        END {for (k in ns) print k, ns[k]}' | sort
}

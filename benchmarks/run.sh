#!/usr/bin/env bash
# The side-by-side measurement of BENCHMARKS.md. One fake upstream (nginx, on CPU 1 with the load)
# and four rows, each given the same load in turn:
#   direct   the fake upstream itself, no proxy: the ceiling
#   nginx    nginx as a reverse proxy on CPU 0: what this machine charges any proxy (the yardstick)
#   portkey  the Portkey gateway on CPU 0, the peer
#   gateway  distribution/target/gateway/bin/gateway on CPU 0, shipped settings, its OpenAI
#            provider pointed at the fake upstream
# and, when ROWS names them, the gateway row's variants, each set beside the gateway row:
#   limits   the same gateway called with a workspace key that has rpm and tpm limits (never
#            reached), counted in memory
#   redis    the same, its counters in the Redis at REDIS_URL
#   baseline the distribution at BASELINE_HOME (another build, e.g. before a change), as the gateway
# Each row: one checked request, a warm-up, wrk at each of CONNECTIONS, one connection again with
# each request timed (when CONNECTIONS has 1), then streamed requests one at a time with curl. Then
# the gateway is started again COLD_STARTS times, to its first answer.
# Writes RESULT_FILE (JSON) and the same name ending .md (the tables and each target met or not).
# Before it: benchmarks/setup.sh once, and ./mvnw -q package -DskipTests. Loopback only; every
# loop is bounded; it stops what it started. About 9 minutes with the defaults.
#
# Settings (environment):
#   CONNECTIONS ("1 32 256")  WARMUP_S (60, at the largest of CONNECTIONS)  DURATION_S (15 a step)
#   STREAM_N (20)  STREAM_GAP_MS (10, between the upstream's events)  COLD_STARTS (3)
#   ROWS ("direct nginx portkey gateway")
#   RECORD_CACHE (1: first record the distribution's AOT cache under the kinds of load measured, as
#                 a user's first start after an install does; 0: keep the one there)
#   RESULT_FILE (bench-results/harness-<commit>-<time>.json)
#   UPSTREAM_PORT (18080)  PROXY_PORT (18090)  PORTKEY_PORT (18787)  GATEWAY_PORT (18180)
#   GATEWAY_HOME (another unpacked distribution)  PROXY_CPU (0)  LOAD_CPU (1)
#   BASELINE_HOME (the baseline row's distribution)  REDIS_URL (redis://127.0.0.1:6379)
set -euo pipefail
source "$(dirname "$0")/harness/lib.sh"

CONNECTIONS=${CONNECTIONS:-1 32 256}
WARMUP_S=${WARMUP_S:-60} DURATION_S=${DURATION_S:-15}
STREAM_N=${STREAM_N:-20} STREAM_GAP_MS=${STREAM_GAP_MS:-10} COLD_STARTS=${COLD_STARTS:-3}
ROWS=${ROWS:-direct nginx portkey gateway}
RECORD_CACHE=${RECORD_CACHE:-1}
REDIS_URL=${REDIS_URL:-redis://127.0.0.1:6379}
UPSTREAM_PORT=${UPSTREAM_PORT:-18080} PROXY_PORT=${PROXY_PORT:-18090}
PORTKEY_PORT=${PORTKEY_PORT:-18787} GATEWAY_PORT=${GATEWAY_PORT:-18180}
commit=$(git -C "$repo" rev-parse --short HEAD 2> /dev/null || echo unknown)
RESULT_FILE=${RESULT_FILE:-$repo/bench-results/harness-$commit-$(date -u +%Y%m%dT%H%M).json}
KEY=sk-gw-bench-0123456789abcdef
UPSTREAM=http://127.0.0.1:$UPSTREAM_PORT/v1
MODEL=gpt-4o-mini

[ "$(nproc)" -ge 2 ] || die "the proxy and the load need a CPU each; this machine has $(nproc)"
if [[ " $ROWS " =~ " "(gateway|limits|redis)" " ]] && [ ! -x "$GATEWAY_HOME/bin/gateway" ]; then
    die "no distribution in $GATEWAY_HOME: build it first (./mvnw -q package -DskipTests)"
fi
if [[ " $ROWS " == *" baseline "* ]] && [ ! -x "${BASELINE_HOME:-}/bin/gateway" ]; then
    die "the baseline row needs BASELINE_HOME, an unpacked distribution (distribution/target/gateway of another build)"
fi
largest=$(printf '%s\n' $CONNECTIONS | sort -n | tail -n1)
mkdir -p "$work/rows" "$(dirname "$RESULT_FILE")"

# measure NAME URL MODEL KEY PID [HEADER...]: the row's load and streams; PID (or "") is the process
# whose memory is read. Writes $work/rows/NAME.json.
measure() {
    local name=$1 url=$2 model=$3 key=$4 pid=$5
    shift 5
    local out=$work/rows/$name.json check connections status first all whole jit_before jit_ms _
    log "$name: $url"
    read -r check _ < <(chat_request false "$url" "$model" "$key" "$work/check.out" "$@")
    if [ "$check" != 200 ] || ! grep -q '"chat.completion"' "$work/check.out"; then
        log "$name: the check request failed (HTTP $check); no figures for it"
        jq -n --arg name "$name" --arg url "$url" --arg error "HTTP $check: $(head -c 300 "$work/check.out")" \
            '{name: $name, url: $url, error: $error}' > "$out"
        return
    fi
    local rss_idle=${pid:+$(rss_kb "$pid" VmRSS)}
    run_wrk "$url" "$WARMUP_S" "$largest" "$model" "$key" "$work/warm-up.json" "$@"
    for connections in $CONNECTIONS; do
        jit_before=${pid:+$(jit_ns "$pid")}
        run_wrk "$url" "$DURATION_S" "$connections" "$model" "$key" "$work/wrk.json" "$@"
        jit_ms=${pid:+$(( ($(jit_ns "$pid") - jit_before) / 1000000 ))}
        jq --argjson c "$connections" --arg jit "$jit_ms" '{connections: $c, jit_ms: ($jit | tonumber? // null)} + .' \
            "$work/wrk.json" > "$work/step-$connections.json"
        log "$name, $connections connections: $(jq -c '{rps, p50_ms, p99_ms, non_2xx, socket_errors}' "$work/wrk.json")"
    done
    # One connection again, each request timed on its own, after the largest step as wrk's
    # one-connection step is.
    echo '{}' > "$work/one.json"
    if [[ " $CONNECTIONS " == *" 1 "* ]]; then
        time_one_connection "$url" "$DURATION_S" "$model" "$key" "$work/one.json" "$@"
        log "$name, 1 connection timed per request: $(jq -c '{rps, p50_ms, p99_ms, non_2xx, failed}' "$work/one.json")"
    fi
    # A stream is whole when it answered 200 with the upstream's 21 events, [DONE] last.
    : > "$work/streams.txt"
    for _ in $(seq "$STREAM_N"); do
        read -r status first all < <(chat_request true "$url" "$model" "$key" "$work/stream.out" "$@")
        whole=false
        if [ "$status" = 200 ] && [ "$(grep -c '^data: ' "$work/stream.out")" = 21 ] \
            && [ "$(grep '^data: ' "$work/stream.out" | tail -n1)" = 'data: [DONE]' ]; then whole=true; fi
        echo "$status $first $all $whole" >> "$work/streams.txt"
    done
    log "$name streams: $(grep -c ' true$' "$work/streams.txt") of $STREAM_N whole"
    jq -n --arg name "$name" --arg url "$url" --arg model "$model" \
        --arg rss_idle "$rss_idle" --arg rss_peak "${pid:+$(rss_kb "$pid" VmHWM)}" \
        --slurpfile steps <(cat "$work"/step-*.json) --slurpfile one "$work/one.json" \
        --rawfile streams "$work/streams.txt" '
        def median: sort | if length == 0 then null elif length % 2 == 1 then .[length / 2 | floor]
            else (.[length / 2 - 1] + .[length / 2]) / 2 end;
        ($streams | split("\n") | map(select(length > 0) | split(" "))) as $s |
        ($s | map(select(.[0] == "200"))) as $answered |
        {name: $name, url: $url, model: $model,
         rss_idle_kb: ($rss_idle | tonumber? // null), rss_peak_kb: ($rss_peak | tonumber? // null),
         load: ($steps | sort_by(.connections)), one_connection: ($one[0] | if . == {} then null else . end),
         stream: {requests: ($s | length), whole: ($s | map(select(.[3] == "true")) | length),
                  ttfb_ms: ($answered | map(.[1] | tonumber * 1000) | median),
                  total_ms: ($answered | map(.[2] | tonumber * 1000) | median)}}' > "$out"
    rm -f "$work"/step-*.json
}

# limited_key DATABASE_URL: a new workspace key whose rpm and tpm limits the load never reaches, so
# every request is reserved and settled; printed alone on stdout.
limited_key() {
    GATEWAY_DATABASE_URL=$1 "$GATEWAY_HOME/bin/gateway" keys create --name bench-limits \
        --rpm 1000000000 --tpm 1000000000000 2> "$work/keys.log" \
        || { cat "$work/keys.log" >&2; die "the limited key could not be created"; }
}

# gateway_row NAME: the gateway row or one of its variants (limits, redis, baseline), then its
# cold starts, added to the row's JSON as cold_start_ms.
gateway_row() {
    local name=$1 database=jdbc:sqlite:$work/$1.db key=$KEY home=$GATEWAY_HOME
    [ "$name" = baseline ] && GATEWAY_HOME=$BASELINE_HOME
    [ "$RECORD_CACHE" = 1 ] && [ "$name" != limits ] && [ "$name" != redis ] && record_cache "$GATEWAY_PORT" "$UPSTREAM_PORT" "$KEY" "openai/$MODEL"
    migrate_database "$database"
    case $name in limits | redis) key=$(limited_key "$database") ;; esac
    if [ "$name" = redis ]; then
        GATEWAY_REDIS_URL=$REDIS_URL start_gateway "$GATEWAY_PORT" "$UPSTREAM_PORT" "$database" "$KEY"
    else
        start_gateway "$GATEWAY_PORT" "$UPSTREAM_PORT" "$database" "$KEY"
    fi
    measure "$name" "http://127.0.0.1:$GATEWAY_PORT/api/v1/chat/completions" "openai/$MODEL" "$key" "$GATEWAY_PID"
    retire "$GATEWAY_PID"
    if [ "$name" = gateway ] || [ "$name" = baseline ]; then
        cold_starts "$database" > "$work/cold-starts-$name.txt"
        log "$name cold starts: $(tr '\n' ' ' < "$work/cold-starts-$name.txt")ms"
        jq --slurpfile cold "$work/cold-starts-$name.txt" '.cold_start_ms = $cold' "$work/rows/$name.json" > "$work/row.json"
        mv "$work/row.json" "$work/rows/$name.json"
    fi
    GATEWAY_HOME=$home
}

# cold_starts DATABASE_URL: COLD_STARTS launches of bin/gateway, each to its first answered
# GET /api/v1/models; one number of milliseconds a line.
cold_starts() {
    local from _
    for _ in $(seq "$COLD_STARTS"); do
        from=$(date +%s%N)
        launch_gateway "$GATEWAY_PORT" "$UPSTREAM_PORT" "$1" "$KEY"
        first_answer_ms "$GATEWAY_PORT" "$KEY" "$from" || { cat "$work/gateway.log" >&2; die "the gateway did not answer"; }
        retire "$GATEWAY_PID"
    done
}

core_before="$(core_ms "$PROXY_CPU") $(core_ms "$LOAD_CPU")"
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
start_upstream "$UPSTREAM_PORT" "$STREAM_GAP_MS"
for row in $ROWS; do
    case $row in
        direct)
            measure direct "$UPSTREAM/chat/completions" "$MODEL" sk-unused "" ;;
        nginx)
            start_nginx_proxy "$PROXY_PORT" "$UPSTREAM_PORT"
            measure nginx "http://127.0.0.1:$PROXY_PORT/v1/chat/completions" "$MODEL" sk-unused "$NGINX_PROXY_PID"
            retire "$NGINX_PROXY_MASTER" ;;
        portkey)
            start_portkey "$PORTKEY_PORT"
            measure portkey "http://127.0.0.1:$PORTKEY_PORT/v1/chat/completions" "$MODEL" sk-unused "$PORTKEY_PID" \
                "x-portkey-provider: openai" "x-portkey-custom-host: $UPSTREAM"
            retire "$PORTKEY_PID" ;;
        gateway | limits | redis | baseline)
            gateway_row "$row" ;;
        *) die "unknown row $row (ROWS takes direct, nginx, portkey, gateway, limits, redis, baseline)" ;;
    esac
done
core_after="$(core_ms "$PROXY_CPU") $(core_ms "$LOAD_CPU")"
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

java_home=$("$GATEWAY_HOME/bin/find-java" 21 2> /dev/null || true)
jq -n --arg time "$(date -u +%FT%TZ)" --arg commit "$commit" \
    --argjson dirty "$(git -C "$repo" diff --quiet HEAD -- gateway-spi gateway-runtime plugins distribution 2> /dev/null \
        && echo false || echo true)" \
    --arg cpu "$(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo)" --argjson cpus "$(nproc)" \
    --arg kernel "$(uname -r)" --arg core_before "$core_before" --arg core_after "$core_after" \
    --arg load_before "$load_before" --arg load_after "$load_after" \
    --arg java "$([ -n "$java_home" ] && "$java_home/bin/java" -version 2>&1 | head -n1)" \
    --arg aot "$(ls "$GATEWAY_HOME"/lib/gateway-jdk-*.aot 2> /dev/null | xargs -r -n1 basename)" \
    --arg nginx "$(nginx -v 2>&1 | sed 's/.*: nginx\///')" --arg wrk "$(wrk -v 2>&1 | awk 'NR == 1 {print $2}' || true)" \
    --arg python "$(python3 --version 2>&1 | awk '{print $2}')" \
    --arg node "$(node --version 2> /dev/null)" \
    --arg portkey "$(jq -r .version "$AIGW_BENCH_CACHE/portkey/node_modules/@portkey-ai/gateway/package.json" 2> /dev/null)" \
    --argjson connections "$(printf '%s\n' $CONNECTIONS | jq -s .)" --argjson warmup "$WARMUP_S" \
    --argjson duration "$DURATION_S" --argjson gap "$STREAM_GAP_MS" --argjson proxy_cpu "$PROXY_CPU" \
    --argjson load_cpu "$LOAD_CPU" \
    --argjson cold "$(cat "$work/cold-starts-gateway.txt" 2> /dev/null | jq -s .)" \
    --slurpfile rows <(for row in $ROWS; do cat "$work/rows/$row.json"; done) \
    -f "$harness_dir/summary.jq" > "$RESULT_FILE"
jq -r -f "$harness_dir/table.jq" "$RESULT_FILE" > "${RESULT_FILE%.json}.md"
cat "${RESULT_FILE%.json}.md"
echo "JSON: $RESULT_FILE"

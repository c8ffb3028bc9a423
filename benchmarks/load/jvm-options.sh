#!/usr/bin/env bash
# Compares JVM options (collector, heap, ...) side by side under the same load: for each variant a
# fresh gateway, a warm-up (WARM_S at WARM_CONNECTIONS, then 10 s at 1), then 1, 32 and 256
# connections, and per variant the latencies, collections and peak RSS. Loopback only, bounded,
# stops what it started.
#   benchmarks/load/jvm-options.sh "label|JVM options" ...
#   WARM_S (30)  WARM_CONNECTIONS (32)  RUN_S (15)  CONNECTIONS ("1 32 256")
# The peak RSS under run.sh's load (its warm-up is 60 s at 256 connections):
#   WARM_S=60 WARM_CONNECTIONS=256 benchmarks/load/jvm-options.sh "label|options" ...
#   GATEWAY_AOT_CACHE (off: every variant starts alike; or a file)
# Example: benchmarks/load/jvm-options.sh "serial|-XX:+UseSerialGC -Xmx96m" "g1|-XX:+UseG1GC -Xmx96m"
# The one-connection tail with no collector at all (Epsilon keeps every byte allocated: about 7 GB
# for these steps, touched up front so the page faults are not measured; every allocation then lands
# in fresh memory, out of the caches, so this bounds what the collections cost rather than isolating it):
#   WARM_S=6 CONNECTIONS=1 benchmarks/load/jvm-options.sh "serial|<bin/gateway's options>" \
#       "no-gc|-XX:+UnlockExperimentalVMOptions -XX:+UseEpsilonGC -Xms8g -Xmx8g -XX:+AlwaysPreTouch"
set -euo pipefail
source "$(dirname "$0")/common.sh"
WARM_S=${WARM_S:-30} WARM_CONNECTIONS=${WARM_CONNECTIONS:-32} RUN_S=${RUN_S:-15} CONNECTIONS=${CONNECTIONS:-1 32 256}
export GATEWAY_AOT_CACHE=${GATEWAY_AOT_CACHE:-off}
jstat=$("$GATEWAY_HOME/bin/find-java" 21)/bin/jstat
start_upstream "$UPSTREAM_PORT" 10

load() { # SECONDS CONNECTIONS: one wrk run; prints its summary
    wrk_for "$1" "$2"
    jq -c '{rps: (.rps | floor), p50_ms, p90_ms, p99_ms, max_ms, non_2xx, socket_errors}' "$work/wrk.json"
}
collections() { # young and full collections so far, and the seconds they took
    "$jstat" -gcutil "$gw" 2>/dev/null | awk 'NR == 2 {print "young " $7 " (" $8 " s), full " $9 " (" $10 " s), concurrent " $11 " (" $12 " s)"}'
}

for variant in "$@"; do
    export GATEWAY_JAVA_OPTS="${variant#*|}"
    echo "== ${variant%%|*}: $GATEWAY_JAVA_OPTS"
    gateway_up
    load "$WARM_S" "$WARM_CONNECTIONS" > /dev/null
    load 10 1 > /dev/null
    for connections in $CONNECTIONS; do
        echo "  $connections: $(load "$RUN_S" "$connections")"
    done
    echo "  collections: $(collections)"
    echo "  peak RSS: $(( $(rss_kb "$gw" VmHWM) / 1024 )) MB"
    gateway_down
done

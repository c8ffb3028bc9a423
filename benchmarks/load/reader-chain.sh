#!/usr/bin/env bash
# Does one full collection under keep-alive load leave the old generation filling? Starts the
# gateway (AOT cache off, the serial collector and a 64 MB heap unless GATEWAY_JAVA_OPTS says
# otherwise), keeps CONNS (32) keep-alive connections busy for 45 s, forces a full collection 10 s
# in, then prints the old generation and the collections every 5 s. Helidon's own reader of a
# caller's connection makes the old generation grow after it (see the transport package doc):
# GATEWAY_TRANSPORT_RESTARTING_READER=false runs that path, with the same build, to compare.
# Run ../setup.sh once and build the distribution first. Loopback only, bounded, stops what it started.
set -euo pipefail
source "$(dirname "$0")/common.sh"
export GATEWAY_AOT_CACHE=off
export GATEWAY_JAVA_OPTS=${GATEWAY_JAVA_OPTS:-"-XX:+UseSerialGC -Xmx64m -XX:ReservedCodeCacheSize=48m -Xss512k"}
java_bin=$("$GATEWAY_HOME/bin/find-java" 21)/bin
start_upstream "$UPSTREAM_PORT" 10
gateway_up
wrk_for 45 "${CONNS:-32}" &
load_pid=$!
sleep 10
"$java_bin/jcmd" "$gw" GC.run > /dev/null
for i in $(seq 7); do
    sleep 5
    "$java_bin/jstat" -gc "$gw" | awk -v t=$((i * 5)) 'NR == 2 {printf "+%ss: old generation %.1f MB, young %s (%s s), full %s (%s s)\n", t, $8 / 1024, $13, $14, $15, $16}'
done
wait $load_pid
jq -c '{rps: (.rps | floor), p50_ms, p99_ms}' "$work/wrk.json"
echo "peak RSS: $(rss_kb "$gw" VmHWM) kB"

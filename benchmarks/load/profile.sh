#!/usr/bin/env bash
# Where does the gateway's time go? The gateway under a steady wrk load, with a JFR recording of
# the measured part, then the hottest methods and the samples grouped by the first frame of ours.
# Loopback only, bounded, stops what it started.
#   CONNS (32)  WARMUP_S (30)  PROFILE_S (20)  JFR_OUT (a file to keep the recording in)
#   CLOSE=1: every request on a new connection (Connection: close), as a curl user would make
set -euo pipefail
source "$(dirname "$0")/common.sh"
CONNS=${CONNS:-32} WARMUP_S=${WARMUP_S:-30} PROFILE_S=${PROFILE_S:-20}
start_upstream "$UPSTREAM_PORT" 10
gateway_up
java_bin=$(dirname "$(readlink -f "/proc/$gw/exe")")

wrk_for "$WARMUP_S" "$CONNS" ${CLOSE:+"Connection: close"}
sed 's/control="method-sampling-java-interval">[0-9]* ms/control="method-sampling-java-interval">1 ms/' \
    "$java_bin/../lib/jfr/profile.jfc" > "$work/profile.jfc"
"$java_bin/jcmd" "$gw" JFR.start name=load settings="$work/profile.jfc" > /dev/null
wrk_for "$PROFILE_S" "$CONNS" ${CLOSE:+"Connection: close"}
"$java_bin/jcmd" "$gw" JFR.dump name=load filename="$work/load.jfr" > /dev/null
echo "wrk: $(cat "$work/wrk.json")"
echo "rss: $(rss_kb "$gw" VmRSS) kB"
"$java_bin/jfr" view --width 160 hot-methods "$work/load.jfr" | head -40
"$java_bin/jfr" print --events jdk.ExecutionSample --stack-depth 96 "$work/load.jfr" |
    awk '/jdk.ExecutionSample/ { if (s != "") print s; s = "(none of ours)"; found = 0; next }
         /line:/ && !found && $1 ~ /^io\.aigw/ { s = $1; found = 1 }
         END { print s }' | sort | uniq -c | sort -rn | head -25
"$java_bin/jfr" view --width 160 gc "$work/load.jfr" | tail -5 || true
[ -z "${JFR_OUT:-}" ] || cp "$work/load.jfr" "$JFR_OUT"

# Shared by the load scripts here (source it): ../harness/lib.sh on fixed ports, the fake upstream
# on 127.0.0.1:18080 and the gateway on 127.0.0.1:8080 with one workspace key and the access log off
# (GATEWAY_ACCESS_LOG turns it on). Run ../setup.sh once and build the distribution first.
# Sets: here, repo, work, KEY, URL (the gateway's chat completions), gw (the gateway's pid).
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/../harness/lib.sh"
KEY=sk-gw-bench-0123456789abcdef
UPSTREAM_PORT=${UPSTREAM_PORT:-18080} GATEWAY_PORT=${GATEWAY_PORT:-8080}
URL=http://127.0.0.1:$GATEWAY_PORT/api/v1/chat/completions
DATABASE=jdbc:sqlite:$work/gateway.db
export GATEWAY_ACCESS_LOG=${GATEWAY_ACCESS_LOG:-off}
[ -x "$GATEWAY_HOME/bin/gateway" ] || die "no distribution in $GATEWAY_HOME: build it first (./mvnw -q package -DskipTests)"

# gateway_up: bin/gateway on a database of its own, migrated once, and ready; sets gw.
gateway_up() {
    [ -f "$work/gateway.db" ] || migrate_database "$DATABASE"
    start_gateway "$GATEWAY_PORT" "$UPSTREAM_PORT" "$DATABASE" "$KEY"
    gw=$GATEWAY_PID
}

# gateway_down: stops the gateway and waits for it.
gateway_down() {
    retire "$gw"
    gw=
}

# wrk_for SECONDS CONNECTIONS [HEADER...]: one wrk run of chat requests through the gateway; its
# summary lands in $work/wrk.json.
wrk_for() {
    run_wrk "$URL" "$1" "$2" openai/gpt-4o-mini "$KEY" "$work/wrk.json" "${@:3}"
}

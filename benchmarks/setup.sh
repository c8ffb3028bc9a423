#!/usr/bin/env bash
# Installs what benchmarks/run.sh and benchmarks/load/*.sh need into a cache folder outside the
# repository, ${AIGW_BENCH_CACHE:-~/.cache/aigw-bench}; safe to run again (it fetches only what is
# missing or changed):
#   nginx 1.22 with its echo module (the fake upstream, and nginx as a proxy) and wrk 4.1, from
#   Debian's packages, unpacked into the cache (no system service is installed or started);
#   Portkey, the peer gateway, from npm at the version benchmarks/harness/portkey/package.json pins;
#   async-profiler's agent (for cpu-per-request.sh's PROFILE_DIR), from Maven Central through ./mvnw.
# It also needs jq, curl, taskset, python3 and node (18 or newer) on the PATH; on Debian or Ubuntu it
# installs the missing ones with apt-get (as root, or through sudo).
set -euo pipefail

harness_dir=$(cd "$(dirname "$0")/harness" && pwd)
cache=${AIGW_BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/aigw-bench}
root=$cache/root
mkdir -p "$cache/bin" "$cache/debs"

die() { echo "setup: $*" >&2; exit 1; }
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
command -v apt-get > /dev/null && debian=yes || debian=""

# Tools used from the system.
missing=()
command -v jq > /dev/null || missing+=(jq)
command -v curl > /dev/null || missing+=(curl)
command -v taskset > /dev/null || missing+=(util-linux)
command -v pgrep > /dev/null || missing+=(procps)
command -v python3 > /dev/null || missing+=(python3)
command -v node > /dev/null && command -v npm > /dev/null || missing+=(nodejs npm)
if [ ${#missing[@]} -gt 0 ]; then
    [ -n "$debian" ] || die "install these first: ${missing[*]}"
    echo "setup: apt-get install ${missing[*]}"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
fi
node_major=$(node --version | sed 's/^v\([0-9]*\).*/\1/')
[ "$node_major" -ge 18 ] || die "Portkey needs node 18 or newer; this one is $(node --version)"

# nginx, its echo module and wrk, unpacked from the distribution's packages: the versions stay
# those of the packages, whatever else the machine runs, and nothing listens on port 80 afterwards
# (Debian's nginx package starts a system nginx when installed).
# wrk links LuaJIT, which a machine seldom has; nginx's libraries (PCRE2, OpenSSL, zlib) it has.
packages=(nginx libnginx-mod-http-echo wrk libluajit2-5.1-2)
if [ ! -x "$root/usr/sbin/nginx" ] || [ ! -x "$root/usr/bin/wrk" ] \
    || [ ! -f "$root/usr/lib/nginx/modules/ngx_http_echo_module.so" ]; then
    if [ -n "$debian" ]; then
        rm -f "$cache"/debs/*.deb
        echo "setup: apt-get download ${packages[*]} into $cache/debs"
        (cd "$cache/debs" && apt-get download "${packages[@]}" > download.log 2>&1) \
            || { cat "$cache/debs/download.log" >&2; die "apt-get download failed (apt-get update first?)"; }
        rm -rf "$root"
        for deb in "$cache"/debs/*.deb; do dpkg-deb -x "$deb" "$root"; done
    elif command -v nginx > /dev/null && command -v wrk > /dev/null; then
        # Elsewhere: the system's own, if its nginx has the echo module.
        modules=$(nginx -V 2>&1 | tr ' ' '\n' | sed -n 's/^--modules-path=//p')
        [ -f "$modules/ngx_http_echo_module.so" ] || die "nginx's echo module is not in $modules"
        mkdir -p "$root/usr/sbin" "$root/usr/bin" "$root/usr/lib/nginx"
        ln -sf "$(command -v nginx)" "$root/usr/sbin/nginx"
        ln -sf "$(command -v wrk)" "$root/usr/bin/wrk"
        ln -sfn "$modules" "$root/usr/lib/nginx/modules"
    else
        die "not a Debian-like system: install nginx with its echo module and wrk, then run this again"
    fi
fi
# Commands on the PATH that lib.sh puts first; exec keeps the PID of a pinned process its own.
cat > "$cache/bin/nginx" << EOF
#!/bin/sh
exec "$root/usr/sbin/nginx" "\$@"
EOF
cat > "$cache/bin/wrk" << EOF
#!/bin/sh
LD_LIBRARY_PATH="$root/usr/lib/x86_64-linux-gnu:$root/usr/lib/aarch64-linux-gnu\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}" \\
    exec "$root/usr/bin/wrk" "\$@"
EOF
chmod +x "$cache/bin/nginx" "$cache/bin/wrk"
echo "$root/usr/lib/nginx/modules" > "$cache/nginx-modules"
# "wrk -v" exits 1 after printing its version.
nginx_version=$("$cache/bin/nginx" -v 2>&1 || true)
wrk_version=$("$cache/bin/wrk" -v 2>&1 | head -n1 || true)
[[ $nginx_version == "nginx version"* ]] || die "nginx does not run: $nginx_version"
[[ $wrk_version == wrk* ]] || die "wrk does not run: $wrk_version"

# Portkey, pinned. Its @hono/node-server is held at 1.13.8: with newer ones every streamed answer
# fails with "TypeError: immutable" (Portkey-AI/gateway issues 1389 and 1550).
portkey=$cache/portkey
mkdir -p "$portkey"
if ! cmp -s "$harness_dir/portkey/package.json" "$portkey/package.json" \
    || [ ! -f "$portkey/node_modules/@portkey-ai/gateway/build/start-server.js" ]; then
    echo "setup: npm install Portkey into $portkey"
    cp "$harness_dir/portkey/package.json" "$portkey/package.json"
    rm -f "$portkey/package-lock.json"
    (cd "$portkey" && npm install --no-audit --no-fund --loglevel=error)
fi

# async-profiler, as its Maven artifact ships it: one jar holding the agent for each platform. Linux
# only, as the harness is (taskset).
profiler_version=4.2
profiler=$cache/async-profiler
case "$(uname -s)/$(uname -m)" in
    Linux/x86_64) profiler_platform=linux-x64 ;;
    Linux/aarch64) profiler_platform=linux-arm64 ;;
    *) profiler_platform="" ;;
esac
if [ -n "$profiler_platform" ] && ! grep -qx "$profiler_version" "$profiler/version" 2> /dev/null; then
    echo "setup: async-profiler $profiler_version into $profiler"
    rm -rf "$profiler" && mkdir -p "$profiler/lib"
    "$harness_dir/../../mvnw" -q dependency:copy -Dartifact=tools.profiler:async-profiler:$profiler_version \
        -DoutputDirectory="$profiler" -Dmdep.stripVersion=true > "$profiler/fetch.log" 2>&1 \
        || { cat "$profiler/fetch.log" >&2; die "could not fetch async-profiler"; }
    python3 -c 'import sys, zipfile; sys.stdout.buffer.write(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]))' \
        "$profiler/async-profiler.jar" "$profiler_platform/libasyncProfiler.so" > "$profiler/lib/libasyncProfiler.so"
    echo "$profiler_version" > "$profiler/version"
fi

echo "setup: ok in $cache: ${nginx_version#*: }, wrk $(echo "$wrk_version" | awk '{print $2}')," \
    "Portkey $(jq -r .version "$portkey/node_modules/@portkey-ai/gateway/package.json"), node $(node --version)"

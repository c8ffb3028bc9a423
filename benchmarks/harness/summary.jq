# run.sh's result: the settings and versions it passes in, the rows as measure wrote them, the
# ratios between rows, and each target of BENCHMARKS.md with the figure measured and whether it is
# met (null when the run did not measure it).

def rounded: if . == null then null else . * 1000 | round / 1000 end;
def ratio($a; $b): if $a == null or $b == null or $b == 0 then null else $a / $b | rounded end;
def minus($a; $b): if $a == null or $b == null then null else $a - $b | rounded end;
def row($name): $rows | map(select(.name == $name)) | first // {};
def step($name; $c): (row($name).load // []) | map(select(.connections == $c)) | first // {};
def one($name): row($name).one_connection // {};
def errors($name): row($name) as $r |
    if $r.load == null then null
    else ($r.load | map(.non_2xx + .socket_errors) | add) + ($r.stream.requests - $r.stream.whole)
        + (one($name) | (.failed // 0) + (.non_2xx // 0)) end;
def kb_to_mb: if . == null then null else . / 1024 | . * 10 | round / 10 end;
# atmost/atleast: the target's verdict, null when there is no figure.
def atmost($limit): if . == null then null else . <= $limit end;
def atleast($limit): if . == null then null else . >= $limit end;

{
  time: $time,
  build: {commit: $commit, uncommitted_changes: $dirty, aot_cache: (if $aot == "" then null else $aot end)},
  machine: {cpus: $cpus, cpu: $cpu, kernel: $kernel,
            # The same fixed loop on PROXY_CPU and on LOAD_CPU, before and after the run.
            core_loop_ms: {before: ($core_before | split(" ") | map(tonumber)),
                           after: ($core_after | split(" ") | map(tonumber))},
            # /proc/loadavg's 1, 5 and 15 minute figures: other work on the machine.
            load_average: {before: ($load_before | split(" ") | map(tonumber)),
                           after: ($load_after | split(" ") | map(tonumber))},
            # The kinds BENCHMARKS.md reports, told apart by what the fake upstream alone does at
            # 32 connections.
            kind: (step("direct"; 32).rps as $d |
                   if $d == null then null elif $d < 50000 then "slow" elif $d < 90000 then "middle" else "fast" end)},
  versions: {java: $java, nginx: $nginx, wrk: $wrk, python: $python, node: $node, portkey: $portkey},
  settings: {connections: $connections, warmup_s: $warmup, warmup_connections: ($connections | max),
             duration_s: $duration, stream_gap_ms: $gap, proxy_cpu: $proxy_cpu, load_cpu: $load_cpu},
  rows: ($rows | map({(.name): del(.name)}) | add),
  gateway_cold_start_ms: $cold,
  ratios: {
    load: [$connections[] as $c | step("direct"; $c) as $d | step("nginx"; $c) as $n |
           step("portkey"; $c) as $p | step("gateway"; $c) as $g |
      {connections: $c,
       nginx_over_direct: ratio($n.rps; $d.rps), portkey_over_direct: ratio($p.rps; $d.rps),
       gateway_over_direct: ratio($g.rps; $d.rps), gateway_over_nginx: ratio($g.rps; $n.rps),
       gateway_over_portkey: ratio($g.rps; $p.rps),
       added_p50_ms: {nginx: minus($n.p50_ms; $d.p50_ms), portkey: minus($p.p50_ms; $d.p50_ms),
                      gateway: minus($g.p50_ms; $d.p50_ms)},
       added_p99_ms: {nginx: minus($n.p99_ms; $d.p99_ms), portkey: minus($p.p99_ms; $d.p99_ms),
                      gateway: minus($g.p99_ms; $d.p99_ms)}}],
    # One connection, each request timed (one_connection.py): the latency targets' figures.
    one_connection: (one("direct") as $d | $rows | map(select(.name != "direct") | one(.name) as $x |
      {(.name): {over_direct: ratio($x.rps; $d.rps), added_p50_ms: minus($x.p50_ms; $d.p50_ms),
                 added_p99_ms: minus($x.p99_ms; $d.p99_ms)}}) | add // {}),
    stream_added_ttfb_ms: (row("direct").stream.ttfb_ms as $d |
      {nginx: null, portkey: null, gateway: null} +
      ($rows | map(select(.name != "direct") | {(.name): minus(.stream.ttfb_ms; $d)}) | add)),
    # The gateway row's variants (limits, redis, baseline) beside it: what each costs or saves.
    beside_gateway: ($rows | map(select(.name | IN("direct", "nginx", "portkey", "gateway") | not)) | map(.name as $n |
      {(.name): {load: [$connections[] as $c | step($n; $c) as $x | step("gateway"; $c) as $g |
                        {connections: $c, over_gateway: ratio($x.rps; $g.rps),
                         p50_minus_gateway_ms: minus($x.p50_ms; $g.p50_ms),
                         p99_minus_gateway_ms: minus($x.p99_ms; $g.p99_ms)}],
                 one_connection: {p50_minus_gateway_ms: minus(one($n).p50_ms; one("gateway").p50_ms),
                                  p99_minus_gateway_ms: minus(one($n).p99_ms; one("gateway").p99_ms)},
                 ttfb_minus_gateway_ms: minus(.stream.ttfb_ms; row("gateway").stream.ttfb_ms),
                 peak_rss_mb: (.rss_peak_kb | kb_to_mb)}}) | add // {})
  }
}
| .ratios as $r | ($r.load | map({(.connections | tostring): .}) | add // {}) as $at |
.targets = [
  {target: "32 connections ≥ 10 × Portkey", unit: "×",
   gateway: $at["32"].gateway_over_portkey, met: ($at["32"].gateway_over_portkey | atleast(10))},
  {target: "32 connections ≥ ¼ of direct", unit: "of direct",
   gateway: $at["32"].gateway_over_direct, nginx: $at["32"].nginx_over_direct,
   met: ($at["32"].gateway_over_direct | atleast(0.25))},
  {target: "zero errors", unit: "errors", gateway: errors("gateway"), portkey: errors("portkey"),
   met: (errors("gateway") | if . == null then null else . == 0 end)},
  {target: "added p50 at 1 connection ≤ 0.3 ms", unit: "ms",
   gateway: $r.one_connection.gateway.added_p50_ms, nginx: $r.one_connection.nginx.added_p50_ms,
   portkey: $r.one_connection.portkey.added_p50_ms,
   met: ($r.one_connection.gateway.added_p50_ms | atmost(0.3))},
  {target: "added p99 at 1 connection ≤ 1 ms", unit: "ms",
   gateway: $r.one_connection.gateway.added_p99_ms, nginx: $r.one_connection.nginx.added_p99_ms,
   portkey: $r.one_connection.portkey.added_p99_ms,
   met: ($r.one_connection.gateway.added_p99_ms | atmost(1))},
  {target: "added streaming TTFB ≤ 1 ms", unit: "ms",
   gateway: $r.stream_added_ttfb_ms.gateway, nginx: $r.stream_added_ttfb_ms.nginx,
   met: ($r.stream_added_ttfb_ms.gateway | atmost(1))},
  {target: "peak RSS ≤ 150 MB", unit: "MB",
   gateway: (row("gateway").rss_peak_kb | kb_to_mb), portkey: (row("portkey").rss_peak_kb | kb_to_mb),
   met: (row("gateway").rss_peak_kb | kb_to_mb | atmost(150))},
  {target: "cold start ≤ 1 s", unit: "s (slowest start)",
   gateway: ($cold | if length == 0 then null else max / 1000 end),
   met: ($cold | if length == 0 then null else max <= 1000 end)}
]

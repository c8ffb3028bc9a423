"""One caller on one keep-alive connection, one request after another, for a fixed time.

Prints the latency percentiles without wrk's coordinated-omission correction, then every request
slower than a threshold as "<monotonic start s> <latency ms>", so that tail.sh can set each slow
request beside what ran on the gateway's core at that moment (perf's sched_switch events carry the
same CLOCK_MONOTONIC time).

Usage: one-connection.py PORT PATH KEY MODEL SECONDS [THRESHOLD_MS]
"""
import sys
import time

from chat_caller import chat_request, connect

port, path, key, model, seconds = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5])
threshold_ms = float(sys.argv[6]) if len(sys.argv) > 6 else 1.0

request = chat_request(port, path, key, model)
connection = connect(port)


def read_answer(pending):
    """Reads one answer with a Content-Length; returns the bytes after it."""
    while True:
        end = pending.find(b"\r\n\r\n")
        if end >= 0:
            head = pending[:end].lower()
            if not head.startswith(b"http/1.1 200"):
                sys.exit("unexpected answer: " + pending[:200].decode(errors="replace"))
            at = head.find(b"content-length:")
            if at < 0:
                sys.exit("an answer without Content-Length: " + head[:200].decode(errors="replace"))
            line_end = head.find(b"\r\n", at)
            length = int(head[at + 15:line_end if line_end > 0 else len(head)])
            if len(pending) >= end + 4 + length:
                return pending[end + 4 + length:]
        chunk = connection.recv(65536)
        if not chunk:
            sys.exit("the gateway closed the connection")
        pending += chunk


latencies, slow = [], []
pending = b""
stop = time.monotonic() + seconds
while time.monotonic() < stop:
    started = time.monotonic()
    connection.sendall(request)
    pending = read_answer(pending)
    latency_ms = (time.monotonic() - started) * 1000
    latencies.append(latency_ms)
    if latency_ms > threshold_ms:
        slow.append((started, latency_ms))

latencies.sort()
n = len(latencies)
print(f"requests {n}, {n / seconds:.0f} req/s; latency ms p50 {latencies[n // 2]:.3f} p90 {latencies[int(n * .9)]:.3f}"
      f" p99 {latencies[int(n * .99)]:.3f} max {latencies[-1]:.3f}; over {threshold_ms} ms: {len(slow)},"
      f" {sum(ms for _, ms in slow):.1f} ms in all")
for started, latency_ms in slow:
    print(f"{started:.6f} {latency_ms:.3f}")

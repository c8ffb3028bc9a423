"""A caller that opens a new connection for each request, one after another, while others load the
gateway; or, with "keep", one that sends its requests on one kept-alive connection, for comparison.

Prints the latency percentiles, the slowest request and how many took over 100 ms.

Usage: new-connection.py PORT PATH KEY MODEL REQUESTS new|keep
"""
import sys
import time

from chat_caller import chat_request, connect

port, path, key, model, count, mode = (int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]),
                                       sys.argv[6])

request = chat_request(port, path, key, model)


def exchange(connection):
    """Sends the request and reads one answer with a Content-Length."""
    connection.sendall(request)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = connection.recv(65536)
        if not chunk:
            raise ConnectionError("the gateway closed the connection")
        data += chunk
    head, rest = data.split(b"\r\n\r\n", 1)
    length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:"))
    while len(rest) < length:
        rest += connection.recv(65536)


kept = connect(port) if mode == "keep" else None
latencies = []
for _ in range(count):
    started = time.perf_counter()
    if kept:
        exchange(kept)
    else:
        with connect(port) as connection:
            exchange(connection)
    latencies.append((time.perf_counter() - started) * 1000)
    time.sleep(0.05)
latencies.sort()
print(f"{mode} connection a request, {count} requests: p50 {latencies[count // 2]:.2f} ms, p99 "
      f"{latencies[int(count * 0.99)]:.2f} ms, max {latencies[-1]:.2f} ms, over 100 ms: "
      f"{sum(1 for latency in latencies if latency > 100)}")

"""A caller that opens a new connection for each request, one after another, while others load the
gateway; or, with "keep", one that sends its requests on one kept-alive connection, for comparison.

Prints the latency percentiles, the slowest request and how many took over 100 ms.

Usage: new-connection.py PORT PATH KEY MODEL REQUESTS new|keep
"""
import json
import socket
import sys
import time

port, path, key, model, count, mode = (int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]),
                                       sys.argv[6])

# The same body as the harness's wrk script.
body = json.dumps({"model": model, "messages": [{"role": "user", "content": "Say hello."}], "max_tokens": 16},
                  separators=(",", ":")).encode()
request = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Bearer {key}\r\n"
           f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n").encode() + body


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


def connect():
    connection = socket.create_connection(("127.0.0.1", port))
    connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return connection


kept = connect() if mode == "keep" else None
latencies = []
for _ in range(count):
    started = time.perf_counter()
    if kept:
        exchange(kept)
    else:
        with connect() as connection:
            exchange(connection)
    latencies.append((time.perf_counter() - started) * 1000)
    time.sleep(0.05)
latencies.sort()
print(f"{mode} connection a request, {count} requests: p50 {latencies[count // 2]:.2f} ms, p99 "
      f"{latencies[int(count * 0.99)]:.2f} ms, max {latencies[-1]:.2f} ms, over 100 ms: "
      f"{sum(1 for latency in latencies if latency > 100)}")

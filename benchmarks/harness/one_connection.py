#!/usr/bin/env python3
"""One kept-alive HTTP/1.1 connection, one request at a time, each timed on its own.

    one_connection.py URL SECONDS BODY_FILE [HEADER ...] > summary.json

Sends BODY_FILE as a POST to URL, with the headers given ("Name: value"), again and again for
SECONDS; prints a JSON summary: requests, rps, p50_ms, p90_ms, p99_ms, max_ms, non_2xx (answers
with a status of 400 or more, as wrk counts them) and failed (the connection broke; it is opened
again). run.sh times the one-connection latency targets with it: wrk's one-connection percentiles
disagree with the gateway's own timing of each request on the gateway's rows (BENCHMARKS.md).
"""
import json
import socket
import sys
import time
from urllib.parse import urlsplit


def read_answer(sock, buffered):
    """Reads one answer (Content-Length or chunked); returns its status and the bytes after it."""
    while b"\r\n\r\n" not in buffered:
        buffered += receive(sock)
    head, rest = buffered.split(b"\r\n\r\n", 1)
    lines = head.split(b"\r\n")
    status = int(lines[0].split(b" ", 2)[1])
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(b":")
        headers[name.strip().lower()] = value.strip()
    if b"content-length" in headers:
        length = int(headers[b"content-length"])
        while len(rest) < length:
            rest += receive(sock)
        return status, rest[length:]
    if headers.get(b"transfer-encoding", b"").lower() == b"chunked":
        while True:
            while b"\r\n" not in rest:
                rest += receive(sock)
            size_line, rest = rest.split(b"\r\n", 1)
            size = int(size_line.split(b";")[0], 16)
            if size == 0:
                while b"\r\n" not in rest:  # no trailers are expected: the empty line ends the answer
                    rest += receive(sock)
                return status, rest.split(b"\r\n", 1)[1]
            while len(rest) < size + 2:
                rest += receive(sock)
            rest = rest[size + 2:]
    raise ConnectionError("an answer with neither Content-Length nor chunked encoding")


def receive(sock):
    data = sock.recv(65536)
    if not data:
        raise ConnectionError("closed by the server")
    return data


def connect(host, port):
    sock = socket.create_connection((host, port), timeout=5)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def main():
    url, seconds, body_file = urlsplit(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
    with open(body_file, "rb") as f:
        body = f.read()
    host, port = url.hostname, url.port or 80
    head = f"POST {url.path or '/'} HTTP/1.1\r\nHost: {url.netloc}\r\nContent-Length: {len(body)}\r\n"
    head += "".join(header + "\r\n" for header in sys.argv[4:])
    request = (head + "\r\n").encode() + body
    latencies, non_2xx, failed = [], 0, 0
    sock, buffered = connect(host, port), b""
    clock = time.perf_counter_ns
    started = time.monotonic()
    while time.monotonic() - started < seconds:
        sent = clock()
        try:
            sock.sendall(request)
            status, buffered = read_answer(sock, buffered)
        except (OSError, ValueError, IndexError):  # ConnectionError is an OSError
            failed += 1
            sock.close()
            sock, buffered = connect(host, port), b""
            continue
        latencies.append((clock() - sent) / 1e6)
        non_2xx += status >= 400
    elapsed = time.monotonic() - started
    sock.close()
    latencies.sort()

    def percentile(p):
        return round(latencies[min(len(latencies) - 1, int(len(latencies) * p / 100))], 3) if latencies else None

    json.dump({"requests": len(latencies), "rps": round(len(latencies) / elapsed, 1), "p50_ms": percentile(50),
               "p90_ms": percentile(90), "p99_ms": percentile(99),
               "max_ms": round(latencies[-1], 3) if latencies else None,
               "non_2xx": non_2xx, "failed": failed}, sys.stdout)
    print()


if __name__ == "__main__":
    main()

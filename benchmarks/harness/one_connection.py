#!/usr/bin/env python3
"""One kept-alive HTTP/1.1 connection, one request at a time, each timed on its own.

    one_connection.py URL[,URL...] SECONDS BODY_FILE [HEADER ...] > summary.json

Sends BODY_FILE as a POST to URL, with the headers given ("Name: value"), again and again for
SECONDS; prints a JSON summary: requests, rps, p50_ms, p90_ms, p99_ms, max_ms, non_2xx (answers
with a status of 400 or more, as wrk counts them) and failed (the connection broke; it is opened
again). run.sh times the one-connection latency targets with it: wrk's one-connection percentiles
disagree with the gateway's own timing of each request on the gateway's rows (BENCHMARKS.md).

With several URLs (comma-separated), each gets a kept-alive connection of its own and the requests
take them in turn, one at a time: each URL's requests meet the machine as it is at that moment, so
a machine that speeds up or slows down moves every URL's figures alike. The first URL leads each
turn and the others follow in their order, reversed every other turn: with two servers sharing a
CPU, each then follows the other as often as it is followed by it, and neither is always the one
that meets the other's work left over from its last request. It then prints a JSON array, one
summary a URL, in their order.
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


class Target:
    """One URL: its kept-alive connection, its request and its timings."""

    def __init__(self, url, body, headers):
        url = urlsplit(url)
        self.host, self.port = url.hostname, url.port or 80
        head = f"POST {url.path or '/'} HTTP/1.1\r\nHost: {url.netloc}\r\nContent-Length: {len(body)}\r\n"
        head += "".join(header + "\r\n" for header in headers)
        self.request = (head + "\r\n").encode() + body
        self.latencies, self.non_2xx, self.failed = [], 0, 0
        self.sock, self.buffered = connect(self.host, self.port), b""

    def send_one(self, clock):
        sent = clock()
        try:
            self.sock.sendall(self.request)
            status, self.buffered = read_answer(self.sock, self.buffered)
        except (OSError, ValueError, IndexError):  # ConnectionError is an OSError
            self.failed += 1
            self.sock.close()
            self.sock, self.buffered = connect(self.host, self.port), b""
            return
        self.latencies.append((clock() - sent) / 1e6)
        self.non_2xx += status >= 400

    def summary(self, elapsed):
        self.sock.close()
        latencies = sorted(self.latencies)

        def percentile(p):
            return round(latencies[min(len(latencies) - 1, int(len(latencies) * p / 100))], 3) if latencies else None

        return {"requests": len(latencies), "rps": round(len(latencies) / elapsed, 1), "p50_ms": percentile(50),
                "p90_ms": percentile(90), "p99_ms": percentile(99),
                "max_ms": round(latencies[-1], 3) if latencies else None,
                "non_2xx": self.non_2xx, "failed": self.failed}


def main():
    urls, seconds, body_file = sys.argv[1].split(","), float(sys.argv[2]), sys.argv[3]
    with open(body_file, "rb") as f:
        body = f.read()
    targets = [Target(url, body, sys.argv[4:]) for url in urls]
    clock = time.perf_counter_ns
    turns = [targets, targets[:1] + targets[:0:-1]]
    started = time.monotonic()
    turn = 0
    while time.monotonic() - started < seconds:
        for target in turns[turn % 2]:
            target.send_one(clock)
        turn += 1
    elapsed = time.monotonic() - started
    summaries = [target.summary(elapsed) for target in targets]
    json.dump(summaries[0] if len(summaries) == 1 else summaries, sys.stdout)
    print()


if __name__ == "__main__":
    main()

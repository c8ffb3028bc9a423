"""Requests one at a time on one keep-alive connection, each after the same pause, for after-idle.sh.

Prints the median and p90 time to the answer's first byte, in ms. A pause of 0 is back to back.

Usage: after-idle.py PORT PATH KEY MODEL REQUESTS PAUSE_S
"""
import sys
import time

from chat_caller import chat_request, connect

port, path, key, model, count, pause = (int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]),
                                        float(sys.argv[6]))
request = chat_request(port, path, key, model)
connection = connect(port)


def answer_bytes(head):
    """The length of an answer from its head (status line and headers), which must be a 200."""
    lines = head.lower().split(b"\r\n")
    if not lines[0].startswith(b"http/1.1 200"):
        sys.exit("unexpected answer: " + head[:200].decode(errors="replace"))
    for line in lines:
        if line.startswith(b"content-length:"):
            return len(head) + 4 + int(line[15:])
    sys.exit("an answer without Content-Length: " + head[:200].decode(errors="replace"))


first_bytes = []
for _ in range(count):
    if pause:
        time.sleep(pause)
    started = time.monotonic()
    connection.sendall(request)
    received = connection.recv(65536)
    first_bytes.append((time.monotonic() - started) * 1000)
    while b"\r\n\r\n" not in received:
        received += connection.recv(65536)
    total = answer_bytes(received.split(b"\r\n\r\n", 1)[0])
    while len(received) < total:
        received += connection.recv(65536)

first_bytes.sort()
print(f"median {first_bytes[len(first_bytes) // 2]:.3f} p90 {first_bytes[int(len(first_bytes) * 0.9)]:.3f}")

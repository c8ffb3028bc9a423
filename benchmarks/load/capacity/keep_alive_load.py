#!/usr/bin/env python3
"""C keep-alive HTTP/1.1 connections, each sending plain (not streamed) chat completions back to
back for S seconds; prints one JSON summary of the statuses. Python 3 standard library only;
loopback only. Not a throughput measurement: it keeps the gateway busy while its memory is read.

usage: keep_alive_load.py PORT KEY C S"""
import asyncio
import collections
import json
import sys
import time

BODY = b'{"model":"openai/gpt-4o-mini","messages":[{"role":"user","content":"Say hello."}]}'


async def caller(port, key, until, results):
    request = (b"POST /api/v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + key
               + b"\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(BODY) + BODY)
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        while time.monotonic() < until:
            writer.write(request)
            status = (await reader.readline()).split(b" ")[1].decode()
            length = 0
            while True:
                line = await reader.readline()
                if line in (b"\r\n", b""):
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            await reader.readexactly(length)
            results[status] += 1
        writer.close()
    except (ConnectionError, OSError, asyncio.IncompleteReadError, IndexError, ValueError) as e:
        results[type(e).__name__] += 1


async def main(port, key, connections, seconds):
    results = collections.Counter()
    until = time.monotonic() + seconds
    await asyncio.gather(*(caller(port, key, until, results) for _ in range(connections)))
    print(json.dumps(dict(results)), flush=True)


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]), sys.argv[2].encode(), int(sys.argv[3]), float(sys.argv[4])))

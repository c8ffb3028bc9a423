#!/usr/bin/env python3
"""Opens N streamed chat completions through the gateway at once, one HTTP/1.1 connection each,
and reads every one to its end. Prints "open N" once every stream has its first event (or the
wait for them ran out), then, when all have ended, one JSON summary: how many were answered in
full, the statuses of the rest. Python 3 standard library only; loopback only.

usage: open_streams.py PORT KEY N TIMEOUT_SECONDS"""
import asyncio
import collections
import json
import sys

BODY = b'{"model":"openai/gpt-4o-mini","stream":true,"messages":[{"role":"user","content":"Say hello."}]}'


async def read_chunked(reader, first_event):
    body = b""
    while True:
        size = int((await reader.readline()).split(b";")[0], 16)
        data = await reader.readexactly(size + 2)
        if size == 0:
            return body
        body += data[:-2]
        if not first_event.done() and b"\n\n" in body:
            first_event.set_result(True)


async def stream(port, key, first_event, results, connects):
    status = "no answer"
    try:
        async with connects:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"POST /api/v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
                     + key + b"\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(BODY) + BODY)
        await writer.drain()
        status = (await reader.readline()).split(b" ")[1].decode()
        headers = {}
        while True:
            line = await reader.readline()
            if line in (b"\r\n", b""):
                break
            name, _, value = line.decode("latin-1").partition(":")
            headers[name.strip().lower()] = value.strip()
        if headers.get("transfer-encoding") == "chunked":
            body = await read_chunked(reader, first_event)
        else:
            body = await reader.readexactly(int(headers.get("content-length", "0")))
        if status == "200" and not body.endswith(b"data: [DONE]\n\n"):
            status = "200 cut short"
        writer.close()
    except (ConnectionError, OSError, asyncio.IncompleteReadError, ValueError, IndexError) as e:
        status = status + " then " + type(e).__name__
    finally:
        if not first_event.done():
            first_event.set_result(False)
        results[status] += 1


async def main(port, key, n, timeout):
    results = collections.Counter()
    connects = asyncio.Semaphore(100)
    firsts = [asyncio.get_running_loop().create_future() for _ in range(n)]
    tasks = [asyncio.create_task(stream(port, key, firsts[i], results, connects)) for i in range(n)]
    done, _ = await asyncio.wait(firsts, timeout=timeout)
    opened = sum(1 for f in done if f.result())
    print("open %d" % opened, flush=True)
    _, pending = await asyncio.wait(tasks, timeout=timeout)
    for task in pending:
        task.cancel()
    results["unfinished"] += len(pending)
    print(json.dumps({"streams": n, "open_at_once": opened, "answered_in_full": results.get("200", 0),
                      "other": {k: v for k, v in results.items() if k != "200" and v}}), flush=True)


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]), sys.argv[2].encode(), int(sys.argv[3]), float(sys.argv[4])))

#!/usr/bin/env python3
"""A fake OpenAI upstream for stream-capacity.sh: each streamed chat completion sends its first
event at once, holds the stream open HOLD seconds, then sends the rest and [DONE]; a plain one is
answered at once. Python 3 standard library only; loopback only.

usage: slow_upstream.py PORT HOLD_SECONDS
Prints "ready" once listening; "GET /stats" answers how many streams are open and served."""
import asyncio
import json
import sys

CHUNK = ('data: {"id":"chatcmpl-capacity","object":"chat.completion.chunk","created":1700000000,'
         '"model":"gpt-4o-mini","choices":[{"index":0,"delta":%s,"finish_reason":%s}]}\n\n')
USAGE = ('data: {"id":"chatcmpl-capacity","object":"chat.completion.chunk","created":1700000000,'
         '"model":"gpt-4o-mini","choices":[],"usage":{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5}}\n\n')
PLAIN = json.dumps({"id": "chatcmpl-capacity", "object": "chat.completion", "created": 1700000000,
                    "model": "gpt-4o-mini", "choices": [{"index": 0, "message": {"role": "assistant",
                    "content": "hello"}, "finish_reason": "stop"}],
                    "usage": {"prompt_tokens": 3, "completion_tokens": 1, "total_tokens": 4}}).encode()
stats = {"open": 0, "served": 0, "peak": 0}


def chunk(size):
    return b"%x\r\n%s\r\n" % (len(size), size)


async def read_body(reader, headers):
    if "content-length" in headers:
        return await reader.readexactly(int(headers["content-length"]))
    body = b""
    if headers.get("transfer-encoding", "").lower() == "chunked":
        while True:
            size = int((await reader.readline()).split(b";")[0], 16)
            body += await reader.readexactly(size + 2)
            if size == 0:
                return body
    return body


async def serve(reader, writer, hold):
    try:
        while True:
            request = await reader.readline()
            if not request:
                return
            headers = {}
            while True:
                line = await reader.readline()
                if line in (b"\r\n", b"\n", b""):
                    break
                name, _, value = line.decode("latin-1").partition(":")
                headers[name.strip().lower()] = value.strip()
            body = await read_body(reader, headers)
            if request.startswith(b"GET /stats"):
                answer = json.dumps(stats).encode()
                writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s"
                             % (len(answer), answer))
            elif b'"stream":true' in body.replace(b" ", b""):
                stats["open"] += 1
                stats["peak"] = max(stats["peak"], stats["open"])
                try:
                    writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                                 b"Transfer-Encoding: chunked\r\n\r\n")
                    writer.write(chunk((CHUNK % ('{"role":"assistant","content":""}', "null")).encode()))
                    await writer.drain()
                    await asyncio.sleep(hold)
                    writer.write(chunk((CHUNK % ('{"content":"hello"}', "null")).encode()))
                    writer.write(chunk((CHUNK % ("{}", '"stop"')).encode()))
                    writer.write(chunk(USAGE.encode()))
                    writer.write(chunk(b"data: [DONE]\n\n"))
                    writer.write(b"0\r\n\r\n")
                    await writer.drain()
                    stats["served"] += 1
                finally:
                    stats["open"] -= 1
            else:
                writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s"
                             % (len(PLAIN), PLAIN))
                await writer.drain()
    except (ConnectionError, asyncio.IncompleteReadError):
        pass
    finally:
        writer.close()


async def main(port, hold):
    server = await asyncio.start_server(lambda r, w: serve(r, w, hold), "127.0.0.1", port, backlog=4096)
    print("ready", flush=True)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]), float(sys.argv[2])))

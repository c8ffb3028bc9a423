"""What the load scripts' own callers share: the harness's chat request and a connection to send it on."""
import json
import socket


def chat_request(port, path, key, model):
    """The request the harness's wrk script sends, as bytes: the same body and headers."""
    body = json.dumps({"model": model, "messages": [{"role": "user", "content": "Say hello."}], "max_tokens": 16},
                      separators=(",", ":")).encode()
    return (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Bearer {key}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n").encode() + body


def connect(port):
    """A new connection to 127.0.0.1:PORT, with Nagle's algorithm off as wrk has it."""
    connection = socket.create_connection(("127.0.0.1", port))
    connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return connection

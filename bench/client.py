#!/usr/bin/env python3
"""Sends exactly N HTTP/1.1 requests over one keep-alive connection, one at a time, and
checks that every response is a 200. Used by bench.py where an exact request count
matters (instructions per request under callgrind), so the server's counters can be
divided by N.

    client.py HOST PORT N METHOD PATH [BODY] [KEY]
Prints "sent=N non200=M"; exits 1 if any response was not a 200.
"""
import socket
import sys


def build_request(host, port, method, path, body, key):
    head = [f"{method} {path} HTTP/1.1", f"Host: {host}:{port}"]
    if key:
        head.append(f"Authorization: Bearer {key}")
    data = body.encode() if body else b""
    if body:
        head.append("Content-Type: application/json")
        head.append(f"Content-Length: {len(data)}")
    return ("\r\n".join(head) + "\r\n\r\n").encode() + data


def main(argv):
    host, port, count, method, path = argv[1], int(argv[2]), int(argv[3]), argv[4], argv[5]
    body = argv[6] if len(argv) > 6 else ""
    key = argv[7] if len(argv) > 7 else ""
    request = build_request(host, port, method, path, body, key)
    sock = socket.create_connection((host, port))
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    buf = b""
    non200 = 0
    for _ in range(count):
        sock.sendall(request)
        while b"\r\n\r\n" not in buf:
            chunk = sock.recv(65536)
            if not chunk:
                raise SystemExit("client: connection closed by the server")
            buf += chunk
        head, _, buf = buf.partition(b"\r\n\r\n")
        lines = head.split(b"\r\n")
        if not lines[0].startswith(b"HTTP/1.1 200 "):
            non200 += 1
        length = 0
        for line in lines[1:]:
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value.strip())
        while len(buf) < length:
            chunk = sock.recv(65536)
            if not chunk:
                raise SystemExit("client: connection closed mid-body")
            buf += chunk
        buf = buf[length:]
    sock.close()
    print(f"sent={count} non200={non200}")
    return 1 if non200 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

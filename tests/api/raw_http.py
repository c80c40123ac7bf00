"""One raw HTTP/1.1 keep-alive connection that knows the fate of each request: answered
(status, headers, body), Unanswered (closed before any byte of the response) or Truncated
(closed inside it). Used by the shutdown tests and the chaos suite's load clients."""
import socket


class Unanswered(Exception):
    """The connection ended before any byte of the response."""


class Truncated(Exception):
    """The connection ended inside a response."""


class Conn:
    """One keep-alive connection, one request at a time."""

    def __init__(self, port, timeout=10.0):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.sock.settimeout(timeout)
        self.buf = b""

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass

    def _recv(self):
        try:
            chunk = self.sock.recv(65536)
        except (ConnectionResetError, BrokenPipeError):
            chunk = b""
        if not chunk:
            if self.buf:
                raise Truncated(self.buf[:300])
            raise Unanswered()
        self.buf += chunk

    def exchange(self, request):
        """(status, headers, body) of the complete response to `request`."""
        try:
            self.sock.sendall(request)
        except (ConnectionResetError, BrokenPipeError):
            raise Unanswered()
        return self.read()

    def read(self):
        while b"\r\n\r\n" not in self.buf:
            self._recv()
        head, rest = self.buf.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ")[1])
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        n = int(headers.get("content-length", "0"))
        while len(self.buf) - len(head) - 4 < n:
            self._recv()
        body = self.buf[len(head) + 4:len(head) + 4 + n]
        self.buf = self.buf[len(head) + 4 + n:]
        return status, headers, body

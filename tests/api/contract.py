"""Contract mode of the black-box suite: the shared server's HTTP goes
through Prism (`prism proxy --errors`), which checks every request and response against the
OpenAPI document the server itself serves at /v1/openapi.json.

    client ──► Prism (validates request, then response) ──► recorder ──► toolcalc

Enable with TOOLCALC_CONTRACT=1 (`make contract-test`). What each outcome means:

- The response carries our X-Request-ID: Prism relayed it. Any `sl-violations` header (an
  error or a warning, on the request or the response) fails the test at once. Prism
  re-serialises JSON bodies (`0.50` would reach the test as `0.5`), so the bytes the server
  really sent are taken from the recorder, matched by X-Request-ID, and checked to be the
  same JSON as what Prism relayed: byte-level assertions keep their meaning.
- No X-Request-ID: Prism answered itself. A 5xx (a response that broke the document, or an
  upstream failure) fails the test. A 4xx means the request is outside the document (no such
  path or method, a missing key where the document requires one, a body or parameter the
  schema refuses) — which the negative tests do on purpose. The request is then sent to the
  server directly, and the server must refuse it too (non-2xx): a request the document
  forbids but the server accepts is a contract mismatch and fails the test. OPTIONS
  (CORS preflight, not part of the document) is exempt from that rule.
- A request whose body the test gives as raw bytes (`raw=`) goes to the server directly:
  Prism parses and re-serialises JSON, so it cannot relay bytes such as `2e3`, `-0` or a
  duplicate key faithfully.

Tests that do not use the shared `api` fixture (dedicated servers), and the raw-socket and
load modules, are skipped in this mode: they talk to a server below or beside HTTP semantics
that a proxy relays, and the direct run covers them.
"""
import json
import os
import socket
import subprocess
import threading
import time
from pathlib import Path

import requests

REPO = Path(__file__).resolve().parents[2]
ENABLED = os.environ.get("TOOLCALC_CONTRACT", "") not in ("", "0")
PRISM = os.environ.get("TOOLCALC_PRISM") or str(REPO / "node_modules" / ".bin" / "prism")

SKIPPED_MODULES = {
    "test_transport.py": "raw sockets to the server (HTTP framing below what Prism relays)",
    "test_load.py": "load run against the server itself",
}
NOT_SHARED_REASON = ("contract mode relays the shared server only; this test starts or "
                     "drives its own server (covered by the direct run)")


class Stats:
    relayed = 0       # responses Prism validated against the document
    refused = 0       # requests outside the document, answered by the server directly
    refused_by = {}   # Prism's reason (problem type) -> count
    raw_direct = 0    # raw-byte requests sent directly
    violations = []   # (request, detail) of every violation seen


class RecordingRelay:
    """A TCP relay between Prism and the server that keeps each response's raw body,
    keyed by its X-Request-ID."""

    def __init__(self, upstream_port):
        self.upstream_port = upstream_port
        self.bodies = {}
        self.lock = threading.Lock()
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.port = self.sock.getsockname()[1]
        self.closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while not self.closed:
            try:
                client, _ = self.sock.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(("127.0.0.1", self.upstream_port), timeout=30)
            except OSError:
                client.close()
                continue
            threading.Thread(target=self._pipe, args=(client, upstream), daemon=True).start()
            threading.Thread(target=self._responses, args=(upstream, client), daemon=True).start()

    @staticmethod
    def _pipe(src, dst):
        try:
            while True:
                chunk = src.recv(65536)
                if not chunk:
                    break
                dst.sendall(chunk)
        except OSError:
            pass
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def _responses(self, upstream, client):
        buf = b""
        try:
            while True:
                while b"\r\n\r\n" not in buf:
                    chunk = upstream.recv(65536)
                    if not chunk:
                        if buf:
                            client.sendall(buf)
                        raise EOFError
                    buf += chunk
                head, rest = buf.split(b"\r\n\r\n", 1)
                lines = head.decode("latin-1").split("\r\n")
                status = int(lines[0].split(" ", 2)[1])
                headers = {}
                for line in lines[1:]:
                    name, _, value = line.partition(":")
                    headers[name.strip().lower()] = value.strip()
                length = 0 if status in (204, 304) or status < 200 else \
                    int(headers.get("content-length", "0"))
                while len(rest) < length:
                    chunk = upstream.recv(65536)
                    if not chunk:
                        break
                    rest += chunk
                body, buf = rest[:length], rest[length:]
                rid = headers.get("x-request-id")
                if rid:
                    with self.lock:
                        self.bodies[rid] = body
                client.sendall(head + b"\r\n\r\n" + body)
        except (OSError, EOFError, ValueError, IndexError):
            pass
        for s in (upstream, client):
            try:
                s.close()
            except OSError:
                pass

    def take(self, request_id):
        with self.lock:
            return self.bodies.pop(request_id, None)

    def close(self):
        self.closed = True
        self.sock.close()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PrismProxy:
    """`prism proxy --errors` on the document the server serves, in front of a recorder."""

    def __init__(self, server, workdir):
        self.server = server
        self.workdir = Path(workdir)
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.proc = None
        self.relay = None
        self.port = None
        self.log = None
        self.session = requests.Session()

    def start(self, timeout=90):
        if not os.access(PRISM, os.X_OK):
            raise AssertionError(f"Prism not found at {PRISM}: run `npm ci` (make node-deps)")
        doc = requests.get(self.server.url("/v1/openapi.json"), timeout=10)
        assert doc.status_code == 200, doc.text
        spec = self.workdir / "openapi.json"
        spec.write_bytes(doc.content)
        self.relay = RecordingRelay(self.server.port)
        self.port = free_port()
        self.log = open(self.workdir / "prism.log", "w")
        upstream = f"http://127.0.0.1:{self.relay.port}{self.server.base_path}"
        self.proc = subprocess.Popen(
            [PRISM, "proxy", "--errors", "--cors=false", "--host", "127.0.0.1", "--port",
             str(self.port), str(spec), upstream],
            stdout=self.log, stderr=subprocess.STDOUT, cwd=str(REPO))
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"Prism exited {self.proc.returncode}: {self.log_text()}")
            try:
                r = requests.get(self.url("/v1/health"), timeout=2)
                if "X-Request-ID" in r.headers:
                    return self
            except requests.RequestException:
                pass
            time.sleep(0.25)
        self.stop()
        raise AssertionError(f"Prism did not start within {timeout} s: {self.log_text()}")

    def log_text(self):
        try:
            return (self.workdir / "prism.log").read_text()[-4000:]
        except OSError:
            return ""

    def url(self, path):
        return f"http://127.0.0.1:{self.port}{self.server.base_path}{path}"

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        if self.relay:
            self.relay.close()
        if self.log:
            self.log.close()

    def send(self, method, path, direct, **kw):
        """One request through Prism, judged as the module docstring says."""
        what = f"{method} {path}"
        r = self.session.request(method, self.url(path), timeout=15, **kw)
        violations = r.headers.get("sl-violations")
        if "X-Request-ID" not in r.headers:  # Prism answered itself
            if violations or r.status_code >= 500:
                Stats.violations.append((what, violations or r.text))
                raise AssertionError(f"Prism: {what} → {r.status_code}, the server's response "
                                     f"breaks the OpenAPI document: {violations or r.text}")
            Stats.refused += 1
            try:
                reason = r.json().get("type", "").rsplit("#", 1)[-1] or str(r.status_code)
            except ValueError:
                reason = f"{r.status_code} (body not relayed)"
            Stats.refused_by[reason] = Stats.refused_by.get(reason, 0) + 1
            d = direct()
            if d.status_code < 300 and method != "OPTIONS":
                Stats.violations.append((what, "accepted by the server, refused by the document"))
                raise AssertionError(
                    f"contract mismatch: the document refuses {what} (Prism {r.status_code}: "
                    f"{r.text[:600]}) but the server answered {d.status_code}")
            return d
        if violations:
            Stats.violations.append((what, violations))
            raise AssertionError(f"Prism reports violations on {what}: {violations}")
        raw = self.relay.take(r.headers["X-Request-ID"])
        assert raw is not None, f"no recorded response for {r.headers['X-Request-ID']}"
        if (raw or r.content) and "json" in r.headers.get("Content-Type", ""):
            assert json.loads(raw) == r.json(), \
                f"Prism relayed other JSON than the server sent: {r.text} vs {raw!r}"
        elif raw or r.content:  # text (/llms.txt): relayed byte for byte
            assert raw == r.content, f"Prism relayed other bytes than the server sent: {r.text}"
        r._content = raw
        Stats.relayed += 1
        return r

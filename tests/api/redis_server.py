"""A real redis-server for the black-box tests: on a free loopback port, in a
temporary directory, with the AOF on as in production (appendonly yes, appendfsync
everysec: deploy/redis.conf). Installed by `scripts/install-deps.sh test` when missing. A minimal RESP client (the
standard library only) talks to it.
"""
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def ensure_installed():
    """redis-server on PATH, running `scripts/install-deps.sh test` (idempotent) if it is not."""
    path = shutil.which("redis-server") or ("/usr/bin/redis-server"
                                             if os.access("/usr/bin/redis-server", os.X_OK)
                                             else None)
    if path:
        return path
    subprocess.run([str(REPO / "scripts" / "install-deps.sh"), "test"], check=True)
    path = shutil.which("redis-server") or "/usr/bin/redis-server"
    if not os.access(path, os.X_OK):
        raise RuntimeError("redis-server is still missing after scripts/install-deps.sh test")
    return path


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class RespError(Exception):
    pass


class Resp:
    """One connection speaking RESP2: command(*args) -> str | int | list | None."""

    def __init__(self, port, db=0, timeout=10.0):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.buf = b""
        if db:
            self.command("SELECT", db)

    def close(self):
        self.sock.close()

    def command(self, *args):
        out = [b"*%d\r\n" % len(args)]
        for a in args:
            b = a if isinstance(a, bytes) else str(a).encode()
            out.append(b"$%d\r\n%s\r\n" % (len(b), b))
        self.sock.sendall(b"".join(out))
        return self._read()

    def _line(self):
        while b"\r\n" not in self.buf:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("redis closed the connection")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\r\n", 1)
        return line

    def _read(self):
        line = self._line()
        kind, rest = line[:1], line[1:]
        if kind == b"+":
            return rest.decode()
        if kind == b"-":
            raise RespError(rest.decode())
        if kind == b":":
            return int(rest)
        if kind == b"$":
            n = int(rest)
            if n < 0:
                return None
            while len(self.buf) < n + 2:
                chunk = self.sock.recv(65536)
                if not chunk:
                    raise ConnectionError("redis closed the connection")
                self.buf += chunk
            data, self.buf = self.buf[:n], self.buf[n + 2:]
            return data.decode("latin-1")
        if kind == b"*":
            n = int(rest)
            return None if n < 0 else [self._read() for _ in range(n)]
        raise RespError(f"unexpected reply {line!r}")


class RedisServer:
    """start() / stop() (SIGTERM: Redis fsyncs its AOF and exits) / kill() / restart()
    on the same port and directory, so on the same AOF."""

    DATABASES = 4096  # one per data directory of the suite (support.store_config)

    def __init__(self, directory=None, extra_args=()):
        self.binary = ensure_installed()
        self.extra_args = list(extra_args)  # more redis-server options
        self._tmp = None if directory else tempfile.TemporaryDirectory(prefix="toolcalc-redis-")
        self.dir = Path(directory or self._tmp.name)
        self.port = free_port()
        self.proc = None

    @property
    def aof_files(self):
        return [p for p in self.dir.rglob("*") if p.is_file()]

    def url(self, db=0):
        return f"redis://127.0.0.1:{self.port}/{db}"

    def start(self):
        args = [self.binary, "--port", str(self.port), "--bind", "127.0.0.1",
                "--dir", str(self.dir), "--appendonly", "yes", "--appendfsync", "everysec",
                "--save", "", "--daemonize", "no", "--databases", str(self.DATABASES),
                "--loglevel", "warning", "--logfile", str(self.dir / "redis.log")
                ] + self.extra_args
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"redis-server exited {self.proc.returncode}: "
                                   f"{self.proc.stderr.read().decode(errors='replace')}")
            try:
                c = Resp(self.port, timeout=2)
                try:
                    if c.command("PING") == "PONG":
                        return self
                finally:
                    c.close()
            except (OSError, RespError):
                pass  # not listening yet, or still loading the AOF
            time.sleep(0.05)
        self.kill()
        raise RuntimeError(f"redis-server did not answer PING on port {self.port} within 15 s")

    def client(self, db=0):
        return Resp(self.port, db)

    def command(self, *args, db=0):
        c = self.client(db)
        try:
            return c.command(*args)
        finally:
            c.close()

    def stop(self, timeout=30):
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()

    def kill(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)

    def restart(self):
        self.stop()
        return self.start()

    def cleanup(self):
        self.stop()
        if self._tmp:
            self._tmp.cleanup()

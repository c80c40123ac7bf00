"""What the chaos suite shares: a toolcalc server started the way a test needs it (its own
data directory, store, environment, resource limits and log files), `toolcalc keys`,
load clients that know the fate of every request they send, the invariants checked after
each fault, and the figures each test records for docs/reliability.md.

The standard library only; the Redis helper of the black-box suite (tests/api) is reused.
"""
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests" / "api"))

from redis_server import RedisServer, Resp  # noqa: E402  (tests/api)
from support import keys_list_used as listed_usage  # noqa: E402
from raw_http import Conn, Truncated, Unanswered  # noqa: E402,F401  (tests/api)

BIN = os.environ.get("TOOLCALC_BIN") or str(REPO / "build" / "toolcalc")
LISTEN_RE = re.compile(r"listening on 127\.0\.0\.1:(\d+)")

BATTERY = "/v1/iot-mcu/mcu-deep-sleep-battery"
BATTERY_BODY = json.dumps({
    "battery_capacity_mah": 2000, "sleep_current_ua": 10, "wake_current_ma": 80,
    "wake_duration_ms": 250, "cycle_period_s": 60, "battery_efficiency_pct": 80,
}).encode()
BATTERY_RESULT = b'"daily_wakes":1440'

# `big`: never limited, carries the bulk of the load. `capped`: a quota the load runs
# through during a test, and a rate limit it meets, so that "never served beyond its
# limit or quota" is checked under every fault.
CAPPED_QUOTA = 400
CAPPED_RATE = 1500
PLANS_TOML = f"""\
[plans.big]
rate_per_minute = 100000000
monthly_quota = 1000000000

[plans.capped]
rate_per_minute = {CAPPED_RATE}
monthly_quota = {CAPPED_QUOTA}

[plans.anonymous]
rate_per_minute = 100000000
"""

FIGURES = Path(os.environ.get("CHAOS_FIGURES", REPO / "build" / "chaos-figures.jsonl"))


def record(fault, store, **figures):
    """One line of measured figures, printed (pytest -s) and appended to FIGURES."""
    row = {"fault": fault, "store": store, **figures}
    print(f"\nCHAOS {json.dumps(row)}")
    FIGURES.parent.mkdir(parents=True, exist_ok=True)
    with FIGURES.open("a") as f:
        f.write(json.dumps(row) + "\n")


# --- the server -------------------------------------------------------------------------

class Toolcalc:
    """`toolcalc serve` on a kernel-chosen loopback port. stdout (the access log) and
    stderr go to files, so that a test can put them on the file system it fills."""

    def __init__(self, work, data_dir, config, threads=2, env=None, prefix=(),
                 stdout_path=None, stderr_path=None):
        self.work = Path(work)
        self.data_dir = Path(data_dir)
        self.config = Path(config)
        self.threads = threads
        self.env = env
        self.prefix = list(prefix)
        self.stdout_path = Path(stdout_path or self.work / "server.out")
        self.stderr_path = Path(stderr_path or self.work / "server.err")
        self.proc = None
        self.port = None

    def start(self, timeout=20.0):
        args = self.prefix + [BIN, "serve", "--listen", "127.0.0.1:0", "--data",
                              str(self.data_dir), "--threads", str(self.threads),
                              "--config", str(self.config)]
        env = dict(os.environ, **(self.env or {}))
        # Appending: a restart keeps what the previous process wrote.
        with open(self.stdout_path, "ab") as out, open(self.stderr_path, "ab") as err:
            start_offset = err.tell()
            self.proc = subprocess.Popen(args, stdout=out, stderr=err, env=env)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            # "listening on …": an operational log line (stderr).
            with open(self.stderr_path, "rb") as f:
                f.seek(start_offset)
                m = LISTEN_RE.search(f.read().decode(errors="replace"))
            if m:
                self.port = int(m.group(1))
                return self
            if self.proc.poll() is not None:
                break
            time.sleep(0.02)
        self.kill()
        raise AssertionError(f"server did not start (rc={self.proc.returncode}):\n"
                             f"{self.stderr_path.read_text(errors='replace')[-3000:]}")

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def stop(self, timeout=20.0):
        if not self.alive():
            return self.proc.returncode if self.proc else None
        self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise AssertionError(f"server did not exit within {timeout} s of SIGTERM")

    def kill(self):
        if self.alive():
            self.proc.kill()
            self.proc.wait(timeout=10)

    def stderr_text(self):
        return self.stderr_path.read_text(errors="replace")


def write_config(path, store="sqlite", redis_url=None, extra=""):
    text = "[server]\naccess_log = true\nshutdown_grace_s = 5\n" + extra + "\n"
    if store == "redis":
        text += f'[store]\nbackend = "redis"\nurl = "{redis_url}"\ntimeout_ms = 500\n\n'
    text += PLANS_TOML
    Path(path).write_text(text)
    return Path(path)


def create_key(data_dir, config, plan, label):
    r = subprocess.run([BIN, "keys", "create", "--plan", plan, "--label", label, "--data",
                        str(data_dir), "--config", str(config)],
                       capture_output=True, text=True, timeout=30)
    assert r.returncode == 0, r.stderr
    key = r.stdout.strip()
    assert re.fullmatch(r"tc_live_[A-Za-z0-9]{32}", key), r.stdout
    return key


def keys_list_used(data_dir, config, key):
    """USED of `key` this month, as `toolcalc keys list` reads it from the store."""
    r = subprocess.run([BIN, "keys", "list", "--data", str(data_dir), "--config", str(config)],
                       capture_output=True, text=True, timeout=30)
    assert r.returncode == 0, r.stderr
    used = listed_usage(r.stdout)
    assert key[:12] in used, r.stdout
    return used[key[:12]]


# --- HTTP on raw sockets ------------------------------------------------------------------

def http_request(method, path, body=b"", key=None):
    head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    if key:
        head += f"Authorization: Bearer {key}\r\n"
    if body:
        head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
    return head.encode() + b"\r\n" + body


def request(port, method, path, body=b"", key=None, timeout=10.0):
    """One request on a new connection: (status, headers, body)."""
    c = Conn(port, timeout)
    try:
        return c.exchange(http_request(method, path, body, key))
    finally:
        c.close()


def me(port, key):
    status, _, body = request(port, "GET", "/v1/me", key=key)
    assert status == 200, body
    return json.loads(body)["result"]["quota"]


def wait_until_served(port_fn, key, timeout=30.0, interval=0.01, tally=None):
    """Seconds until an execute on a new connection is answered 200 (port_fn() gives the
    port, or None while there is no server). Every answer goes to `tally` when given."""
    t0 = time.monotonic()
    last = None
    while time.monotonic() - t0 < timeout:
        port = port_fn()
        if port:
            try:
                t_req = time.monotonic()
                status, headers, body = request(port, "POST", BATTERY, BATTERY_BODY, key,
                                                timeout=2)
                if tally is not None:
                    tally.add(status, headers, body, time.monotonic() - t_req)
                if status == 200 and BATTERY_RESULT in body:
                    return time.monotonic() - t0
                last = (status, body[:200])
            except (OSError, Unanswered, Truncated) as e:
                last = repr(e)
        time.sleep(interval)
    raise AssertionError(f"not served again within {timeout} s; last: {last}")


# --- load ---------------------------------------------------------------------------------

class Tally:
    """What the clients of one key saw. `ok` counts complete 200 executes with the expected
    result: the acknowledged executions. `unanswered` requests were sent but got no
    response (in flight at a fault): each may or may not have been counted."""

    def __init__(self):
        self.lock = threading.Lock()
        self.ok = 0
        self.statuses = {}
        self.codes = {}
        self.unanswered = 0
        self.truncated = []
        self.errors = []
        self.ok_per_window = {}  # X-RateLimit-Reset → 200s in that window
        self.max_latency = {}  # status → slowest answer (s)

    def add(self, status, headers, body, latency):
        with self.lock:
            self.statuses[status] = self.statuses.get(status, 0) + 1
            self.max_latency[status] = max(self.max_latency.get(status, 0.0), latency)
            if status == 200:
                if BATTERY_RESULT not in body:
                    self.errors.append(f"200 without the result: {body[:200]!r}")
                    return
                self.ok += 1
                reset = headers.get("x-ratelimit-reset")
                self.ok_per_window[reset] = self.ok_per_window.get(reset, 0) + 1
            else:
                try:
                    code = json.loads(body)["error"]["code"]
                except (ValueError, KeyError, TypeError):
                    code = f"unparsable {body[:100]!r}"
                self.codes[code] = self.codes.get(code, 0) + 1

    @property
    def answered(self):
        return sum(self.statuses.values())


class LoadClient(threading.Thread):
    """Executes in a loop, one request at a time per keep-alive connection, reconnecting
    after a failure, until stopped. Never retries a request: each one's fate is counted
    once (answered with its status, unanswered, or truncated)."""

    def __init__(self, port_fn, key, tally, stop, pause=0.0):
        super().__init__(daemon=True)
        self.port_fn = port_fn
        self.request = http_request("POST", BATTERY, BATTERY_BODY, key)
        self.tally = tally
        self.stop_event = stop
        self.pause = pause

    def run(self):
        conn = None
        while not self.stop_event.is_set():
            port = self.port_fn()
            if conn is None:
                if not port:
                    time.sleep(0.01)
                    continue
                try:
                    conn = Conn(port, timeout=10)
                except OSError:
                    time.sleep(0.01)  # refused: no server, or not listening yet
                    continue
            t0 = time.monotonic()
            try:
                status, headers, body = conn.exchange(self.request)
            except Unanswered:
                self.tally.unanswered += 1
                conn.close()
                conn = None
                continue
            except Truncated as e:
                self.tally.truncated.append(e.args[0])
                conn.close()
                conn = None
                continue
            except socket.timeout:
                self.tally.errors.append("no answer within 10 s")
                conn.close()
                conn = None
                continue
            except OSError as e:
                self.tally.unanswered += 1
                self.tally.errors.append(f"socket error after sending: {e!r}") \
                    if not isinstance(e, (ConnectionResetError, BrokenPipeError)) else None
                conn.close()
                conn = None
                continue
            self.tally.add(status, headers, body, time.monotonic() - t0)
            if headers.get("connection", "").lower() == "close":
                conn.close()
                conn = None
            if self.pause:
                time.sleep(self.pause)
        if conn:
            conn.close()


class Load:
    """`clients` load clients on the big key and `capped_clients` on the capped key."""

    def __init__(self, port_fn, big_key, capped_key=None, clients=6, capped_clients=2,
                 pause=0.0):
        self.stop_event = threading.Event()
        self.big = Tally()
        self.capped = Tally()
        self.threads = [LoadClient(port_fn, big_key, self.big, self.stop_event, pause)
                        for _ in range(clients)]
        if capped_key:
            self.threads += [LoadClient(port_fn, capped_key, self.capped, self.stop_event, pause)
                             for _ in range(capped_clients)]

    def __enter__(self):
        for t in self.threads:
            t.start()
        return self

    def stop(self):
        self.stop_event.set()
        for t in self.threads:
            t.join(timeout=20)
            assert not t.is_alive(), "a load client did not stop"

    def __exit__(self, *exc):
        self.stop()


# --- invariants ---------------------------------------------------------------------------

def check_counted(tally, used, what, may_count=0):
    """Every acknowledged execution counted exactly once: the store's count is at least the
    200s received and at most that plus the requests whose answer was lost (each counted
    at most once) plus `may_count`: refused requests that the store may have counted
    anyway (a Redis reply lost with the connection, or arriving after the timeout)."""
    assert tally.truncated == [], f"{what}: truncated responses {tally.truncated[:3]}"
    assert tally.errors == [], f"{what}: {tally.errors[:5]}"
    lost = max(0, tally.ok - used)
    assert lost == 0, (f"{what}: {tally.ok} executions acknowledged, {used} counted: "
                       f"{lost} lost")
    assert used <= tally.ok + tally.unanswered + may_count, (
        f"{what}: {used} counted for {tally.ok} acknowledged + {tally.unanswered} unanswered"
        f" + {may_count} refused that may count")
    return lost


def check_capped(tally, used):
    """The capped key was never served beyond its quota or its rate limit."""
    assert tally.ok <= CAPPED_QUOTA, f"capped key served {tally.ok} > quota {CAPPED_QUOTA}"
    assert used <= CAPPED_QUOTA, f"capped key counted {used} > quota {CAPPED_QUOTA}"
    worst = max(tally.ok_per_window.values() or [0])
    assert worst <= CAPPED_RATE, f"capped key: {worst} 200s in one window > {CAPPED_RATE}"

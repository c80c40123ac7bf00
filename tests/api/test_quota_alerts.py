"""Quota alerts (docs/operations.md, "Quota alerts") against a real receiver: a Python
http.server on loopback started by the test, on either store. A key with a webhook URL
gets one signed event per threshold (80, 90, 100 % of its monthly quota) per month: never
repeated, also after a restart and (Redis) across a fleet; retried with back-off while the
receiver is down, delivered when it comes back; never in a request's way, nor held up by
another key's receiver that never answers. Receivers on loopback, private, link-local …
addresses (in any spelling) are refused unless alerts.allow_private_receivers lists them:
when the URL is set, and again at connect time on the address resolved."""
import hashlib
import hmac
import json
import re
import secrets
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
import requests

import support
from support import (BATTERY, BATTERY_DEFAULTS, CONFIG_TOML, KEYS_AVAILABLE, NO_KEYS_REASON,
                     USE_REDIS, Client, Server, check_success, run_cli, store_config)

pytestmark = pytest.mark.skipif(not KEYS_AVAILABLE, reason=NO_KEYS_REASON)

# Fast checks and retries, so that a test takes seconds (the defaults are 1 s and 5 s).
# The receivers listen on loopback, which only the allow-list lets deliveries reach.
STRICT_ALERTS_TOML = CONFIG_TOML + """
[alerts]
check_interval_ms = 200
retry_initial_ms = 300
retry_max_ms = 1000
timeout_ms = 2000
"""
ALERTS_TOML = STRICT_ALERTS_TOML + """allow_private_receivers = ["127.0.0.0/8"]
"""
SIGNATURE_RE = re.compile(r"^t=(\d+),v1=([0-9a-f]{64})$")


class Receiver:
    """A webhook receiver on 127.0.0.1: records every POST, answers `status`. stop() and
    start() again keep the port (a receiver that is down and comes back)."""

    def __init__(self, status=204):
        self.status = status
        self.events = []  # (headers, body bytes)
        self.lock = threading.Lock()
        self.port = 0
        self.httpd = None

    def start(self):
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                with receiver.lock:
                    receiver.events.append((dict(self.headers), body))
                self.send_response(receiver.status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        ThreadingHTTPServer.allow_reuse_address = True
        self.httpd = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self.port = self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        return self

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}/hooks/toolcalc?source=test"

    def bodies(self):
        with self.lock:
            return [json.loads(b) for _, b in self.events]

    def wait_for(self, n, timeout=8.0):
        t0 = time.monotonic()
        while time.monotonic() - t0 < timeout:
            with self.lock:
                if len(self.events) >= n:
                    return True
            time.sleep(0.05)
        return False


@pytest.fixture
def receiver():
    r = Receiver().start()
    yield r
    try:
        r.stop()
    except Exception:
        pass


@pytest.fixture
def alerts_config(tmp_path):
    path = tmp_path / "alerts.toml"
    path.write_text(ALERTS_TOML)
    return path


def create_with_webhook(data, config, url, plan="quota10"):
    r = run_cli("keys", "create", "--plan", plan, "--label", "alerted", "--webhook-url", url,
                "--data", str(data), "--config", str(config))
    key, secret = r.stdout.splitlines()
    assert re.fullmatch(r"whsec_[0-9A-Za-z]{32}", secret)
    return key, secret


def check_signed(headers, body, secret):
    sig = headers.get("Toolcalc-Signature", "")
    m = SIGNATURE_RE.match(sig)
    assert m, sig
    t = int(m.group(1))
    assert abs(time.time() - t) < 30
    expected = hmac.new(secret.encode(), f"{t}.".encode() + body, hashlib.sha256).hexdigest()
    assert hmac.compare_digest(m.group(2), expected), "the signature does not verify"
    assert headers.get("Content-Type") == "application/json"


def run_executions(c, n):
    for _ in range(n):
        check_success(c.post(BATTERY, BATTERY_DEFAULTS), True)


def test_one_signed_event_per_threshold_never_repeated(start_server, tmp_path, alerts_config,
                                                       receiver):
    data = tmp_path / "alerts"
    key, secret = create_with_webhook(data, alerts_config, receiver.url)
    s = start_server(data_dir=data, config=alerts_config)
    c = Client(s, {"main": key}, accounts=True)
    run_executions(c, 7)
    time.sleep(0.8)
    assert receiver.bodies() == [], "70 % is below every threshold"

    t0 = time.monotonic()
    run_executions(c, 1)  # 8 of 10: 80 %
    assert time.monotonic() - t0 < 0.5, "the alert is not sent on the request's time"
    assert receiver.wait_for(1)
    headers, raw = receiver.events[0]
    check_signed(headers, raw, secret)
    event = json.loads(raw)
    period = time.strftime("%Y-%m", time.gmtime())
    assert list(event) == ["id", "type", "created", "data"]
    assert event["type"] == "quota.threshold_reached"
    assert event["id"] == headers["Toolcalc-Event-Id"]
    assert re.fullmatch(r"evt_quota_\d+_" + period + "_80", event["id"])
    assert event["data"] == {"key_prefix": key[:12], "label": "alerted", "period": period,
                             "threshold_pct": 80, "monthly_quota": 10, "used": 8,
                             "resets_at": event["data"]["resets_at"]}
    assert re.fullmatch(r"\d{4}-\d\d-01T00:00:00Z", event["data"]["resets_at"])

    run_executions(c, 1)  # 90 %
    assert receiver.wait_for(2)
    run_executions(c, 1)  # 100 %
    assert receiver.wait_for(3)
    time.sleep(1.0)
    bodies = receiver.bodies()
    assert [b["data"]["threshold_pct"] for b in bodies] == [80, 90, 100], bodies
    assert [b["data"]["used"] for b in bodies] == [8, 9, 10]
    for headers, raw in receiver.events:
        check_signed(headers, raw, secret)

    # A restart sends nothing again.
    c.session.close()
    assert s.stop() == 0
    s2 = start_server(data_dir=data, config=alerts_config)
    time.sleep(1.5)
    assert len(receiver.bodies()) == 3
    log = "\n".join(s2.stdout_lines + s2.stderr_lines + s.stdout_lines + s.stderr_lines)
    assert secret not in log and key not in log


def test_a_receiver_that_is_down_gets_the_event_when_it_comes_back(start_server, tmp_path,
                                                                   alerts_config, receiver):
    data = tmp_path / "down"
    key, secret = create_with_webhook(data, alerts_config, receiver.url)
    receiver.stop()
    s = start_server(data_dir=data, config=alerts_config)
    c = Client(s, {"main": key}, accounts=True)
    t0 = time.monotonic()
    run_executions(c, 8)
    assert time.monotonic() - t0 < 2.0, "a dead receiver does not slow requests down"
    # Attempts fail (connection refused) and are retried with back-off.
    deadline = time.monotonic() + 6
    failures = []
    while time.monotonic() < deadline and len(failures) < 2:
        failures = [ln for ln in s.stderr_lines if "quota alert delivery failed" in ln]
        time.sleep(0.1)
    assert len(failures) >= 2, s.stderr_lines
    attempts = [json.loads(ln)["attempt"] for ln in failures]
    assert attempts[:2] == ["1", "2"]
    assert json.loads(failures[1])["retry_in_ms"] == "600"  # 300 ms, doubled
    receiver.start()  # the same port
    assert receiver.wait_for(1, timeout=5)
    time.sleep(1.0)
    bodies = receiver.bodies()
    assert len(bodies) == 1 and bodies[0]["data"]["threshold_pct"] == 80
    check_signed(*receiver.events[0], secret)
    assert any("quota alert delivered" in ln for ln in s.stderr_lines)


def test_a_failing_receiver_is_retried_until_it_answers_2xx(start_server, tmp_path,
                                                                     alerts_config, receiver):
    data = tmp_path / "failing"
    receiver.status = 500
    key, _ = create_with_webhook(data, alerts_config, receiver.url)
    s = start_server(data_dir=data, config=alerts_config)
    run_executions(Client(s, {"main": key}, accounts=True), 9)
    assert receiver.wait_for(2, timeout=5), "a 500 is retried"
    receiver.status = 200
    assert receiver.wait_for(3, timeout=5)

    def delivered():
        return sorted(json.loads(ln)["threshold_pct"] for ln in s.stderr_lines
                      if "quota alert delivered" in ln)

    # The two events' retries fall due at whole seconds, not together: the second can
    # come a retry_max and a check interval after the first was delivered.
    deadline = time.monotonic() + 5
    while delivered() != ["80", "90"] and time.monotonic() < deadline:
        time.sleep(0.05)
    # The same two events (80 % and 90 %) sent again until each got a 2xx.
    assert delivered() == ["80", "90"]
    bodies = receiver.bodies()
    assert len(bodies) >= 3
    assert {b["data"]["threshold_pct"] for b in bodies} == {80, 90}
    assert len({b["id"] for b in bodies}) == 2


@pytest.mark.skipif(not USE_REDIS, reason="a fleet shares the Redis store")
def test_a_fleet_sends_each_event_once(tmp_path, alerts_config, receiver):
    data = tmp_path / "fleet"
    key, secret = create_with_webhook(data, alerts_config, receiver.url)
    # Three servers on the same Redis database (store_config maps the data directory to it),
    # each with a data directory of its own (its usage ledger).
    config = store_config(data, alerts_config)
    servers = [Server(tmp_path / f"instance{i}", config, own_store=True).start()
               for i in range(3)]
    try:
        clients = [Client(s, {"main": key}, accounts=True) for s in servers]
        for i in range(10):
            check_success(clients[i % 3].post(BATTERY, BATTERY_DEFAULTS), True)
        assert receiver.wait_for(3)
        time.sleep(1.5)
        bodies = receiver.bodies()
        assert sorted(b["data"]["threshold_pct"] for b in bodies) == [80, 90, 100], bodies
        for headers, raw in receiver.events:
            check_signed(headers, raw, secret)
    finally:
        for s in servers:
            s.kill()


class BlackHole:
    """A receiver on 127.0.0.1 that accepts connections and never reads or answers."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]
        self.accepted = []
        self.closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while not self.closed:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.accepted.append(conn)

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}/hook"

    def close(self):
        """Deliveries under way fail at once (the server then stops without waiting)."""
        self.closed = True
        for c in self.accepted:
            c.close()
        self.sock.close()


def wait_until(check, timeout):
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        if check():
            return True
        time.sleep(0.05)
    return check()


def test_a_receiver_that_never_answers_holds_up_no_other_key(start_server, tmp_path):
    # Deliveries to the black hole each take the whole timeout: 30 s. The other keys' events
    # must arrive within held_up_bound, a generous third of it; before, the single alert
    # thread sent the black hole's three events one after another (3 × 30 s) and did not
    # even raise the others' alerts meanwhile.
    held_up_bound = 10.0
    config = tmp_path / "hole.toml"
    config.write_text(ALERTS_TOML.replace("timeout_ms = 2000", "timeout_ms = 30000"))
    data = tmp_path / "hole"
    hole = BlackHole()
    first, second = Receiver().start(), Receiver().start()
    try:
        hole_key, _ = create_with_webhook(data, config, hole.url)
        key_b, secret_b = create_with_webhook(data, config, first.url)
        key_c, secret_c = create_with_webhook(data, config, second.url)
        s = start_server(data_dir=data, config=config)
        run_executions(Client(s, {"main": hole_key}, accounts=True), 10)  # 80, 90, 100 %
        assert wait_until(lambda: len(hole.accepted) >= 1, 5), "the black hole's delivery"
        t0 = time.monotonic()
        run_executions(Client(s, {"main": key_b}, accounts=True), 8)  # 80 %
        run_executions(Client(s, {"main": key_c}, accounts=True), 9)  # 80, 90 %
        assert first.wait_for(1, timeout=held_up_bound), s.stderr_lines[-10:]
        assert second.wait_for(2, timeout=held_up_bound - (time.monotonic() - t0))
        assert time.monotonic() - t0 < held_up_bound
        assert [b["data"]["key_prefix"] for b in first.bodies()] == [key_b[:12]]
        assert sorted(b["data"]["threshold_pct"] for b in second.bodies()) == [80, 90]
        check_signed(*first.events[0], secret_b)
        raised = [json.loads(ln) for ln in s.stderr_lines if "quota alert raised" in ln]
        assert {r["key_prefix"] for r in raised} == {hole_key[:12], key_b[:12], key_c[:12]}
        assert len(hole.accepted) <= 2, "at most alerts.per_receiver (2) at once to one receiver"
        # The server keeps serving, and no delivery to the black hole has completed.
        assert not any("quota alert delivered" in ln and hole_key[:12] in ln
                       for ln in s.stderr_lines)
    finally:
        hole.close()
        first.stop()
        second.stop()


# The ways of writing a loopback or other special-purpose address that were accepted and
# (the decimal one) delivered to a listener on 127.0.0.1.
REFUSED_HOSTS = ["127.0.0.1", "127.1", "0x7f000001", "2130706433", "0177.0.0.1", "0.0.0.0",
                 "[::1]", "[::]", "[::ffff:127.0.0.1]", "169.254.169.254", "10.0.0.1",
                 "172.16.0.1", "192.168.0.1", "100.64.0.1", "[fe80::1]", "[fd00::1]",
                 "[64:ff9b::a9fe:a9fe]", "localhost"]


def test_a_webhook_url_on_a_special_address_is_refused_when_set(start_server, tmp_path):
    config = tmp_path / "strict.toml"
    config.write_text(STRICT_ALERTS_TOML)
    data = tmp_path / "strict"
    for host in REFUSED_HOSTS:
        r = run_cli("keys", "create", "--plan", "quota10", "--webhook-url",
                    f"http://{host}:8080/hook", "--data", str(data), "--config", str(config),
                    check=False)
        assert r.returncode == 1 and "the receiver is refused" in r.stderr, (host, r.stderr)
        assert r.stdout == ""
    token = "adm_" + secrets.token_urlsafe(32)
    s = start_server(data_dir=data, config=config, env={"TOOLCALC_ADMIN_TOKEN": token})
    for host in REFUSED_HOSTS:
        r = requests.post(s.url("/admin/v1/keys"), json={"plan": "quota10",
                                                         "webhook_url": f"http://{host}/h"},
                          headers={"Authorization": f"Bearer {token}"}, timeout=10)
        assert r.status_code == 400, (host, r.text)
        e = r.json()["error"]
        assert e["code"] == "VALIDATION_ERROR" and e["field"] == "webhook_url", e
        assert "is refused" in e["message"] and "not a public address" in e["message"], e
    r = requests.get(s.url("/admin/v1/keys"), headers={"Authorization": f"Bearer {token}"},
                     timeout=10)
    assert r.json()["result"] == {"items": []}, "no key was created"
    # A public name is accepted (its addresses are checked when a delivery resolves it).
    r = requests.post(s.url("/admin/v1/keys"), json={"plan": "quota10",
                                                     "webhook_url": "https://hooks.example.com/h"},
                      headers={"Authorization": f"Bearer {token}"}, timeout=10)
    assert r.status_code == 201, r.text


def test_a_delivery_to_a_special_address_is_refused_at_connect_time(start_server, tmp_path,
                                                                    receiver):
    # The URLs are set under a config that allows loopback, then the server runs without
    # it (as if the name had been rebound): every form is refused when it is connected to,
    # the refusal is logged, and nothing reaches the listener.
    allowing = tmp_path / "allowing.toml"
    allowing.write_text(ALERTS_TOML)
    strict = tmp_path / "strict.toml"
    strict.write_text(STRICT_ALERTS_TOML)
    data = tmp_path / "rebound"
    forms = ["127.0.0.1", "127.1", "0x7f000001", "2130706433", "0177.0.0.1",
             "[::ffff:127.0.0.1]", "localhost"]
    hosts = {}  # key → the host of its URL
    for host in forms:
        key, _ = create_with_webhook(data, allowing,
                                     f"http://{host}:{receiver.port}/hooks/toolcalc")
        hosts[key] = host
    s = start_server(data_dir=data, config=strict)
    for key in hosts:
        run_executions(Client(s, {"main": key}, accounts=True), 8)  # 80 %
    refused = {}  # key prefix → the error of its first attempt

    def collect():
        for ln in s.stderr_lines:
            if "quota alert delivery failed" in ln:
                rec = json.loads(ln)
                refused.setdefault(rec["key_prefix"], rec["error"])
        return len(refused) == len(hosts)

    assert wait_until(collect, 10), (refused, s.stderr_lines[-5:])
    for key, host in hosts.items():
        error = refused[key[:12]]
        assert error.startswith("refused: ") and re.search(r" is (IPv4-mapped )?loopback \(",
                                                          error), (host, error)
        assert "not a public address" in error, (host, error)
    time.sleep(0.5)
    assert receiver.bodies() == [], "nothing reached the loopback listener"
    assert not any("quota alert delivered" in ln for ln in s.stderr_lines)

"""Secrets and logs, black-box on a dedicated server with the access log
on: real traffic (executes, /v1/me, discovery, 401s with wrong keys, a key revoked while
the server runs, 429s, transport errors), then

- the server's stdout and stderr hold neither a key nor its SHA-256 (hex or base64);
- every file of the data directory (toolcalc.db, -wal, -shm), read while the server runs
  and after it stopped, holds no plaintext key; keys are stored as a 32-byte SHA-256 blob
  (checked with sqlite3), never as hex;
- the access log is exactly one JSON line per response with exactly the fields time,
  request_id, key_prefix, method, path, status, latency_us; key_prefix is the 12-character
  prefix of a valid key and empty otherwise;
- a client-sent X-Request-ID is never echoed nor logged;
- CORS never sends Access-Control-Allow-Credentials, and never reflects the Origin.
"""
import base64
import hashlib
import json
import re
import sqlite3
import time
from types import SimpleNamespace

import pytest
import requests

import support
from support import (BATTERY, BATTERY_DEFAULTS, BOGUS_KEY, KEYS_AVAILABLE, NO_KEYS_REASON,
                     SQLITE_ONLY_REASON, USE_REDIS, RawReader, Server, connect, create_key,
                     revoke_key)

pytestmark = pytest.mark.skipif(not KEYS_AVAILABLE, reason=NO_KEYS_REASON)

SECRETS_TOML = """\
[server]
access_log = true

[plans.big]
rate_per_minute = 100000
monthly_quota = 1000000

[plans.three]
rate_per_minute = 3
monthly_quota = 1000

[plans.anonymous]
rate_per_minute = 50000
"""

LOG_FIELDS = ["time", "request_id", "key_prefix", "method", "path", "status", "latency_us"]
REQUEST_ID_24 = re.compile(r"^req_[0-9A-Za-z]{24}$")
TIME_RE = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$")
ORIGIN = "https://evil.example"
SENT_IDS = ["req_" + "A" * 24, 'req_"},"status":200,"x":{"', "../../etc/passwd", "x" * 200]


def secret_forms(key):
    """Every way a key could leak: itself, its secret part, its SHA-256 in hex (both
    cases) and base64."""
    digest = hashlib.sha256(key.encode()).digest()
    return [key, key[12:], digest.hex(), digest.hex().upper(), base64.b64encode(digest).decode()]


class Recorder:
    """Sends requests and remembers what the access log must say about each response."""

    def __init__(self, server):
        self.server = server
        self.expected = {}   # request_id -> (method, path, status, key_prefix)
        self.responses = []  # (label, status, headers) of every response, for CORS checks
        self.session = requests.Session()

    def call(self, label, method, path, key=None, prefix="", auth=None, **kw):
        headers = {"Origin": ORIGIN, **kw.pop("headers", {})}
        if key is not None:
            headers["Authorization"] = f"Bearer {key}"
        if auth is not None:
            headers["Authorization"] = auth
        if "json" in kw or "data" in kw:
            headers.setdefault("Content-Type", "application/json")
        r = self.session.request(method, self.server.url(path), headers=headers, timeout=10,
                                 **kw)
        rid = r.headers["X-Request-ID"]
        assert rid not in self.expected, "request id repeated"
        self.expected[rid] = (method, path.split("?")[0], r.status_code, prefix)
        self.responses.append((label, r.status_code, dict(r.headers)))
        return r

    def raw(self, label, data, status):
        s = connect(self.server.port)
        with s:
            s.sendall(data)
            resp = RawReader(s).read_response()
        assert resp.status == status, resp.body
        rid = resp.headers["x-request-id"]
        self.expected[rid] = ("", "", status, "")
        self.responses.append((label, resp.status, resp.headers))
        return resp


def files_of(directory):
    """name -> bytes of the files in `directory` (none when the Redis store left it unmade)."""
    if not directory.exists():
        return {}
    return {p.name: p.read_bytes() for p in directory.iterdir() if p.is_file()}


@pytest.fixture(scope="module")
def traffic(tmp_path_factory):
    base = tmp_path_factory.mktemp("secrets")
    cfg = base / "secrets.toml"
    cfg.write_text(SECRETS_TOML)
    data = base / "data"
    keys = {"main": create_key(data, cfg, "big", label="main"),
            "victim": create_key(data, cfg, "big", label="to revoke"),
            "three": create_key(data, cfg, "three", label="three a minute")}
    main, victim, three = keys["main"], keys["victim"], keys["three"]
    flipped = main[:-1] + ("A" if main[-1] != "A" else "B")  # same prefix, not a key
    server = Server(data, cfg).start()
    rec = Recorder(server)
    sent_id_responses = []
    try:
        rec.call("health", "GET", "/v1/health")
        rec.call("preflight", "OPTIONS", BATTERY, headers={
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization, content-type, cookie"})
        rec.call("tools", "GET", "/v1/tools")
        rec.call("tools with key", "GET", "/v1/tools", key=main, prefix=main[:12])
        for _ in range(3):
            r = rec.call("execute 200", "POST", BATTERY, key=main, prefix=main[:12],
                         json=BATTERY_DEFAULTS)
            assert r.status_code == 200, r.text
        assert rec.call("execute 400", "POST", BATTERY, key=main, prefix=main[:12],
                        json={}).status_code == 400
        assert rec.call("execute 415", "POST", BATTERY, key=main, prefix=main[:12],
                        data="{}", headers={"Content-Type": "text/plain"}).status_code == 415
        assert rec.call("execute 422", "POST", BATTERY, key=main, prefix=main[:12],
                        json={**BATTERY_DEFAULTS, "wake_duration_ms": 61000}).status_code == 422
        assert rec.call("execute 404", "POST", "/v1/iot-mcu/nope", key=main, prefix=main[:12],
                        json={}).status_code == 404
        assert rec.call("execute 405", "GET", BATTERY, key=main,
                        prefix=main[:12]).status_code == 405
        assert rec.call("me", "GET", "/v1/me", key=main, prefix=main[:12]).status_code == 200
        # a key in the query string is not logged: the log keeps the path only
        rec.call("me with key in query", "GET", f"/v1/me?api_key={main}", key=main,
                 prefix=main[:12])
        # a key pasted into the path, spelled as URL libraries spell it: the log keeps the
        # prefix as it was spelled, never the rest (core/secret_redaction.hpp). Sent raw:
        # requests would decode %5F itself.
        enc = "".join(f"%{b:02X}" for b in main.encode())
        for sent, logged in [
                (f"/v1/tools/{main}", f"/v1/tools/{main[:12]}[redacted]"),
                (f"/v1/tools/tc%5Flive%5F{main[8:]}", f"/v1/tools/tc%5Flive%5F{main[8:12]}[redacted]"),
                (f"/v1/tools/tc%5flive%5f{main[8:]}", f"/v1/tools/tc%5flive%5f{main[8:12]}[redacted]"),
                (f"/v1/tools/tc%255Flive%255F{main[8:]}",
                 f"/v1/tools/tc%255Flive%255F{main[8:12]}[redacted]"),
                (f"/v1/iot-mcu/{enc}/x", f"/v1/iot-mcu/{enc[:36]}[redacted]/x"),
                (f"/v1/a+b/{main}", f"/v1/a+b/{main[:12]}[redacted]")]:
            resp = rec.raw("key in path", f"GET {sent} HTTP/1.1\r\nHost: x\r\n\r\n".encode(), 404)
            assert main[12:] not in resp.body.decode(), resp.body
            rec.expected[resp.headers["x-request-id"]] = ("GET", logged, 404, "")
        # 401s: unknown key, a real key's prefix with a wrong secret, no key, wrong scheme
        for label, auth in [("401 bogus", f"Bearer {BOGUS_KEY}"),
                            ("401 flipped", f"Bearer {flipped}"),
                            ("401 basic", f"Basic {main}"), ("401 bare", main)]:
            assert rec.call(label, "POST", BATTERY, auth=auth,
                            json=BATTERY_DEFAULTS).status_code == 401
            assert rec.call(label, "GET", "/v1/me", auth=auth).status_code == 401
        assert rec.call("401 missing", "POST", BATTERY, json=BATTERY_DEFAULTS).status_code == 401
        # revocation while the server runs
        assert rec.call("victim 200", "POST", BATTERY, key=victim, prefix=victim[:12],
                        json=BATTERY_DEFAULTS).status_code == 200
        revoke_key(data, cfg, victim)
        deadline = time.monotonic() + 5
        while True:
            r = rec.call("victim after revoke", "GET", "/v1/me", key=victim,
                         prefix=victim[:12])
            if r.status_code == 401:
                # the last call was refused: it is logged without a prefix
                rid = r.headers["X-Request-ID"]
                rec.expected[rid] = ("GET", "/v1/me", 401, "")
                break
            assert time.monotonic() < deadline, "the revoked key was still accepted after 5 s"
            time.sleep(0.2)
        assert rec.call("victim 401", "POST", BATTERY, key=victim,
                        json=BATTERY_DEFAULTS).status_code == 401
        # 429 on a plan of 3 a minute (4 calls: at least one 429 whatever the window)
        statuses = [rec.call("three", "POST", BATTERY, key=three, prefix=three[:12],
                             json=BATTERY_DEFAULTS).status_code for _ in range(4)]
        assert 429 in statuses and set(statuses) <= {200, 429}, statuses
        # client-sent request ids
        for sent in SENT_IDS:
            r = rec.call("sent X-Request-ID", "POST", BATTERY, key=main, prefix=main[:12],
                         json=BATTERY_DEFAULTS, headers={"X-Request-ID": sent})
            sent_id_responses.append((sent, r))
        # transport errors, with an Origin
        head = f"Host: x\r\nOrigin: {ORIGIN}\r\nAuthorization: Bearer {main}\r\n"
        rec.raw("413", f"POST {BATTERY} HTTP/1.1\r\n{head}Content-Type: application/json\r\n"
                       "Content-Length: 70000\r\n\r\n".encode(), 413)
        rec.raw("431", f"GET /v1/health HTTP/1.1\r\n{head}X-Big: {'a' * 9000}\r\n\r\n".encode(),
                431)
        rec.raw("400 malformed", f"GET /v1/health HTTP/1.1\r\n{head}Bad Header\r\n\r\n".encode(),
                400)
        time.sleep(0.3)
        running_files = files_of(data)
    finally:
        rc = server.stop(timeout=20)
    assert rc == 0, server.stderr_lines
    # the process has exited; let the reader threads drain its stderr (last line) and stdout
    assert server.wait_for_log(r"^stopped$", timeout=10), server.stderr_lines[-3:]
    assert server.wait_for_output_end(timeout=10)
    time.sleep(0.2)
    stopped_files = files_of(data)
    return SimpleNamespace(server=server, data=data, keys=keys, flipped=flipped, rec=rec,
                           running_files=running_files, stopped_files=stopped_files,
                           sent_id_responses=sent_id_responses)


def access_lines(server):
    """The access-log lines: all of stdout (operational messages go to stderr)."""
    out = server.stdout_lines
    assert out and all(line.startswith('{"time":') for line in out), out[:3]
    return out


def test_logs_hold_no_key_and_no_hash(traffic):
    text = "\n".join(traffic.server.stdout_lines + traffic.server.stderr_lines)
    assert text.count("\n") > 40
    assert traffic.keys["main"][:12] in text  # the prefix is logged: the right text is read
    for key in [*traffic.keys.values(), traffic.flipped, BOGUS_KEY]:
        for form in secret_forms(key):
            assert form not in text, f"{form[:16]}… (a form of key {key[:12]}) is in the output"


@pytest.mark.skipif(USE_REDIS, reason=SQLITE_ONLY_REASON)
def test_data_dir_holds_no_plaintext_key(traffic):
    for when, files in (("running", traffic.running_files), ("stopped", traffic.stopped_files)):
        assert "toolcalc.db" in files, (when, list(files))
        if when == "running":
            assert "toolcalc.db-wal" in files, list(files)
        for name, blob in files.items():
            for key in [*traffic.keys.values(), traffic.flipped, BOGUS_KEY]:
                digest = hashlib.sha256(key.encode()).digest()
                for form in (key, key[12:], digest.hex(), digest.hex().upper()):
                    assert form.encode() not in blob, f"{form[:16]}… in {name} ({when})"


@pytest.mark.skipif(not USE_REDIS, reason="the Redis store's files (TOOLCALC_STORE=redis)")
def test_redis_aof_holds_no_plaintext_key(traffic):
    """Everything Redis wrote (the AOF, fsynced on every write) holds the keys' hashes and
    never a key nor its secret part."""
    blob = b"".join(p.read_bytes() for p in support.REDIS.dir.rglob("*")
                    if p.is_file() and not p.name.endswith(".toml"))
    assert b"tc:keys:by_prefix" in blob, "not the AOF of the session's Redis"
    for key in traffic.keys.values():
        assert hashlib.sha256(key.encode()).hexdigest().encode() in blob, key[:12]
    for key in [*traffic.keys.values(), traffic.flipped, BOGUS_KEY]:
        for form in (key, key[12:], base64.b64encode(key.encode()).decode()):
            assert form.encode() not in blob, f"{form[:16]}… (a form of {key[:12]}) in the AOF"


@pytest.mark.skipif(not USE_REDIS, reason="the Redis store's records (TOOLCALC_STORE=redis)")
def test_redis_keys_are_stored_as_sha256_hex(traffic):
    db = support.redis_db_for(traffic.data)
    for key in traffic.keys.values():
        key_id = support.REDIS.command("HGET", "tc:keys:by_prefix", key[:12], db=db)
        assert key_id, key[:12]
        record = support.REDIS.command("HGETALL", f"tc:key:{key_id}", db=db)
        fields = dict(zip(record[::2], record[1::2]))
        assert fields["hash"] == hashlib.sha256(key.encode()).hexdigest(), key[:12]
        assert fields["prefix"] == key[:12]
        assert key not in " ".join(fields.values())


@pytest.mark.skipif(USE_REDIS, reason=SQLITE_ONLY_REASON)
def test_keys_are_stored_as_sha256_blobs(traffic):
    con = sqlite3.connect(f"file:{traffic.data / 'toolcalc.db'}?mode=ro", uri=True)
    try:
        rows = con.execute("SELECT prefix, key_hash, typeof(key_hash) FROM api_keys").fetchall()
    finally:
        con.close()
    stored = {prefix: (h, t) for prefix, h, t in rows}
    assert set(stored) == {k[:12] for k in traffic.keys.values()}
    for key in traffic.keys.values():
        h, kind = stored[key[:12]]
        assert kind == "blob" and h == hashlib.sha256(key.encode()).digest(), key[:12]


def test_access_log_is_one_exact_json_line_per_response(traffic):
    lines = access_lines(traffic.server)
    seen = {}
    now = time.time()
    for line in lines:
        entry = json.loads(line)
        assert list(entry) == LOG_FIELDS, line
        assert TIME_RE.match(entry["time"]), line
        t = time.mktime(time.strptime(entry["time"][:19], "%Y-%m-%dT%H:%M:%S")) - time.timezone
        assert abs(t - now) < 600, line
        assert REQUEST_ID_24.match(entry["request_id"]), line
        assert entry["request_id"] not in seen, f"request id logged twice: {line}"
        assert isinstance(entry["status"], int) and 100 <= entry["status"] <= 599, line
        assert isinstance(entry["latency_us"], int) and 0 <= entry["latency_us"] < 10_000_000
        assert entry["key_prefix"] == "" or re.fullmatch(r"tc_(live|test)_[0-9A-Za-z]{4}",
                                                         entry["key_prefix"]), line
        seen[entry["request_id"]] = entry
    expected = traffic.rec.expected
    assert set(seen) == set(expected), (
        f"missing from the log: {sorted(set(expected) - set(seen))}; "
        f"not sent by the test: {[seen[i] for i in set(seen) - set(expected)]}")
    for rid, (method, path, status, prefix) in expected.items():
        e = seen[rid]
        assert (e["method"], e["path"], e["status"], e["key_prefix"]) == \
            (method, path, status, prefix), (e, (method, path, status, prefix))


def test_client_request_id_never_echoed_nor_logged(traffic):
    text = "\n".join(traffic.server.stdout_lines)
    assert len(traffic.sent_id_responses) == len(SENT_IDS)
    for sent, r in traffic.sent_id_responses:
        assert r.status_code == 200, r.text
        rid = r.headers["X-Request-ID"]
        assert rid != sent and REQUEST_ID_24.match(rid), rid
        assert r.json()["meta"]["request_id"] == rid
        assert sent not in r.text
        assert sent not in text, f"client-sent X-Request-ID {sent!r} reached the log"


def test_cors_never_allows_credentials_nor_reflects_origin(traffic):
    kinds = set()
    for label, status, headers in traffic.rec.responses:
        h = {k.lower(): v for k, v in headers.items()}
        kinds.add(status)
        assert h.get("access-control-allow-origin") == "*", (label, status, h)
        assert "access-control-allow-credentials" not in h, (label, status, h)
        assert ORIGIN not in " ".join(h.values()), (label, status, h)
        if status == 204:
            allowed = [x.strip().lower() for x in h["access-control-allow-headers"].split(",")]
            assert "cookie" not in allowed, h
    # the response kinds covered
    assert {200, 204, 400, 401, 404, 405, 413, 415, 422, 429, 431} <= kinds, kinds


def health_ids(server, n):
    """`n` GET /v1/health on one connection: their request ids, in order."""
    with requests.Session() as session:
        return [session.get(server.url("/v1/health"), timeout=10).headers["X-Request-ID"]
                for _ in range(n)]


def logged_ids(server):
    ids = []
    for line in list(server.stdout_lines):
        if line.startswith("{"):
            ids.append(json.loads(line)["request_id"])  # every line whole, parseable JSON
    return ids


def test_access_log_line_reaches_stdout_within_the_flush_interval(tmp_path):
    """Lines are written in batches: at the latest access_log_flush_ms (1000 by default)
    after their response, whatever the traffic."""
    cfg = tmp_path / "log.toml"
    cfg.write_text(SECRETS_TOML)
    server = Server(tmp_path / "data", cfg).start()
    try:
        r = requests.get(server.url("/v1/health"), timeout=10)
        answered = time.monotonic()
        rid = r.headers["X-Request-ID"]
        assert server.wait_for_line(re.escape(rid), timeout=5), \
            f"the access-log line of {rid} was not on stdout 5 s after the response"
        # The interval, plus the test's own polling (0.2 s) and a shared machine's slack.
        assert time.monotonic() - answered < 1.0 + 0.7
    finally:
        server.kill()


def test_sigterm_writes_every_buffered_access_line(tmp_path):
    cfg = tmp_path / "log.toml"
    cfg.write_text(SECRETS_TOML)  # the default flush interval: 1 s
    server = Server(tmp_path / "data", cfg).start()
    try:
        sent = health_ids(server, 200)
    finally:
        rc = server.stop(timeout=20)  # at once: most lines are still in the buffer
    assert rc == 0, server.stderr_lines
    assert server.wait_for_log(r"^stopped$", timeout=10), server.stderr_lines[-3:]
    assert server.wait_for_output_end(timeout=10)  # every stdout line read
    assert logged_ids(server) == sent


def test_sigkill_loses_at_most_the_last_flush_interval_of_access_lines(tmp_path):
    cfg = tmp_path / "log.toml"
    cfg.write_text(SECRETS_TOML.replace("access_log = true",
                                        "access_log = true\naccess_log_flush_ms = 200"))
    server = Server(tmp_path / "data", cfg).start()
    try:
        older = health_ids(server, 100)
        time.sleep(0.2 + 0.5)  # one interval and slack: these are written by now
        newer = health_ids(server, 100)
        server.proc.kill()  # SIGKILL: nothing runs on the way out
        server.proc.wait(timeout=10)
    finally:
        server.kill()
    deadline = time.monotonic() + 5
    while not server._stdout_done and time.monotonic() < deadline:
        time.sleep(0.05)
    logged = logged_ids(server)
    # Every line older than the interval is there, whole and in order; of the last
    # interval's, what was written (a prefix: batches go out in order).
    assert logged[:len(older)] == older
    assert logged[len(older):] == newer[:len(logged) - len(older)]

"""Helpers for the black-box API tests: start the real binary, speak HTTP to it, and
check the envelopes and headers of spec §2.7 and §8 precisely.

Only the standard library and python3-requests (Debian) are used.
"""
import json
import os
import re
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path

import requests

REPO = Path(__file__).resolve().parents[2]
BIN = os.environ.get("TOOLCALC_BIN") or str(REPO / "build" / "toolcalc")

# TOOLCALC_STORE=redis (`make api-test-redis`): every server and `toolcalc keys` command of
# the suite uses the shared Redis backend instead of SQLite files, against the
# session's redis-server (conftest.py sets REDIS).
STORE = os.environ.get("TOOLCALC_STORE", "sqlite")
if STORE not in ("sqlite", "redis"):
    raise RuntimeError(f"TOOLCALC_STORE must be sqlite or redis, not {STORE!r}")
USE_REDIS = STORE == "redis"
REDIS = None
SQLITE_ONLY_REASON = "inspects the SQLite file; the Redis backend has its own test"

REQUEST_ID_RE = re.compile(r"^req_[A-Za-z0-9]{20,}$")
LIVE_KEY_RE = re.compile(r"^tc_live_[A-Za-z0-9]{32}$")
TEST_KEY_RE = re.compile(r"tc_test_[A-Za-z0-9]{32}")
SEMVER_RE = re.compile(r"^\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]+)?$")
# The start-up log line's msg (a JSON line on stderr, core/log.hpp).
LISTEN_RE = re.compile(r"^listening on (\S+):(\d+)$")

EXPOSED_HEADERS = [
    "X-Request-ID",
    "X-Tool-Version",
    "X-RateLimit-Limit",
    "X-RateLimit-Remaining",
    "X-RateLimit-Reset",
    "RateLimit-Policy",
    "RateLimit",
    "Retry-After",
]

BATTERY = "/v1/iot-mcu/mcu-deep-sleep-battery"
MOSFET = "/v1/electronics/mosfet-thermal-junction"
COST = "/v1/programming-dev/llm-api-cost-calculator"
PCB = "/v1/pcb-design/pcb-trace-width"

BATTERY_DEFAULTS = {
    "battery_capacity_mah": 2000,
    "sleep_current_ua": 10,
    "wake_current_ma": 80,
    "wake_duration_ms": 250,
    "cycle_period_s": 60,
    "battery_efficiency_pct": 80,
}
MOSFET_DEFAULTS = {
    "drain_current_a": 5,
    "rds_on_mohm": 20,
    "theta_ja_c_per_w": 62,
    "ambient_temp_c": 25,
    "duty_cycle": 1,
    "max_junction_temp_c": 150,
}
COST_REQUIRED = {
    "input_tokens_per_call": 2000,
    "output_tokens_per_call": 500,
    "calls_per_month": 100000,
}
PCB_DEFAULTS = {
    "current_a": 1,
    "temp_rise_c": 10,
    "copper_weight_oz": 1,
    "layer": "external",
}

# Plans for the limit tests. `big` serves the bulk of the suite; `anonymous` is raised so
# that the suite's many keyless discovery calls (all from 127.0.0.1) never meet a 429, and
# is kept different from `big` so that the X-RateLimit-Limit header tells them apart.
CONFIG_TOML = """\
[plans.big]
rate_per_minute = 100000
monthly_quota = 1000000

[plans.tiny]
rate_per_minute = 5
monthly_quota = 1000

[plans.quota3]
rate_per_minute = 1000
monthly_quota = 3

[plans.burst20]
rate_per_minute = 20
monthly_quota = 1000

[plans.quota10]
rate_per_minute = 1000
monthly_quota = 10

[plans.anonymous]
rate_per_minute = 50000
"""

ANON_RATE = 50000
BIG_RATE = 100000
BIG_QUOTA = 1000000

# Keys created before the shared server starts: label -> plan.
SESSION_KEYS = {
    "main": "big",
    "me": "big",
    "tiny": "tiny",
    "quota3": "quota3",
    "revoke": "big",
    "other": "big",
    "burst20": "burst20",
    "quota10": "quota10",
    "sweep": "big",        # test_sweep.py: counts its own quota and rate units
    "sweep10": "quota10",  # test_sweep.py: a sweep needs `points` units
    "analysis": "big",     # test_analysis.py: counts its own quota and rate units
    "analysis10": "quota10",  # test_analysis.py: the quota must cover the evaluations
}


# A syntactically valid key that no store holds.
BOGUS_KEY = "tc_live_" + "Zq7" * 10 + "xY"


def keys_cli_available():
    """True when `toolcalc keys create` exists; until then the server accepts
    any bearer token and the tests that need real accounts are skipped."""
    try:
        r = subprocess.run([BIN, "keys", "create", "--help"], capture_output=True, text=True,
                           timeout=20)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return r.returncode == 0 and "--plan" in r.stdout


KEYS_AVAILABLE = keys_cli_available()
NO_KEYS_REASON = "`toolcalc keys create --plan` is missing from this build"
# Every build ships the keys CLI; a build without it is broken, never a reason to skip.
if not KEYS_AVAILABLE:
    raise RuntimeError(NO_KEYS_REASON + f" ({BIN})")


_redis_dbs = {}
_derived_configs = []


def redis_db_for(data_dir):
    """The Redis database standing for `data_dir`: one per data directory, emptied when
    first handed out, so that tests are as isolated as with their own SQLite files."""
    key = str(Path(data_dir).resolve())
    if key not in _redis_dbs:
        db = len(_redis_dbs) + 1
        assert db < REDIS.DATABASES, "more data directories than Redis databases"
        REDIS.command("FLUSHDB", db=db)
        _redis_dbs[key] = db
    return _redis_dbs[key]


def store_config(data_dir, config):
    """The config file a server or `toolcalc keys` uses for `data_dir`: `config` itself on
    SQLite; under Redis, `config` with a [store] section naming the data directory's own
    Redis database."""
    if not USE_REDIS:
        return config
    assert REDIS is not None, "TOOLCALC_STORE=redis but no redis-server (conftest.py)"
    db = redis_db_for(data_dir)
    text = Path(config).read_text() if config else ""
    lines = f'backend = "redis"\nurl = "{REDIS.url(db)}"\n'
    if re.search(r"^\[store\]\s*$", text, re.M):
        text = re.sub(r"^\[store\]\s*$", "[store]\n" + lines.rstrip("\n"), text, count=1,
                      flags=re.M)
    else:
        text += "\n[store]\n" + lines
    path = REDIS.dir / f"config-{len(_derived_configs)}-db{db}.toml"
    path.write_text(text)
    _derived_configs.append(path)
    return path


def _with_store_config(args):
    """`toolcalc keys … --data D [--config C]` pointed at D's Redis database."""
    args = list(args)
    if not USE_REDIS or not args or args[0] != "keys" or "--data" not in args:
        return args
    data_dir = args[args.index("--data") + 1]
    config = None
    if "--config" in args:
        i = args.index("--config")
        config = args[i + 1]
        del args[i:i + 2]
    return args + ["--config", str(store_config(data_dir, config))]


def run_cli(*args, timeout=30, check=True):
    args = _with_store_config(args)
    r = subprocess.run([BIN, *args], capture_output=True, text=True, timeout=timeout)
    if check and r.returncode != 0:
        raise AssertionError(f"toolcalc {' '.join(args)} exited {r.returncode}\n"
                             f"stdout: {r.stdout}\nstderr: {r.stderr}")
    return r


def keys_list_used(out):
    """prefix -> the month's USED column of `toolcalc keys list` output. The table is
    aligned on its header (whose "USED 2026-11" holds a space), so columns are cut where
    the header's start."""
    lines = out.splitlines()
    header = lines[0]
    start = header.index("USED")
    end = header.find("WEBHOOK", start)
    used = {}
    for line in lines[1:]:
        if line.startswith("tc_"):
            used[line.split()[0]] = int(line[start:end if end > 0 else None].split()[0])
    return used


def create_key(data_dir, config, plan, label=""):
    args = ["keys", "create", "--plan", plan, "--data", str(data_dir)]
    if config:
        args += ["--config", str(config)]
    if label:
        args += ["--label", label]
    r = run_cli(*args)
    key = r.stdout.strip()
    assert LIVE_KEY_RE.match(key), f"keys create printed {r.stdout!r}, not a tc_live_ key alone"
    assert r.stdout == key + "\n", f"keys create must print the key alone on one line: {r.stdout!r}"
    return key


def revoke_key(data_dir, config, key):
    args = ["keys", "revoke", key[:12], "--data", str(data_dir)]
    if config:
        args += ["--config", str(config)]
    return run_cli(*args)


LOG_LEVELS = ("debug", "info", "warn", "error")


def parse_log_line(line):
    """One operational log line as a dict with at least time, level and msg, or None when
    the line is not one."""
    if not line.startswith("{"):
        return None
    try:
        record = json.loads(line)
    except ValueError:
        return None
    if not isinstance(record, dict) or not {"time", "level", "msg"} <= set(record):
        return None
    return record


class Server:
    """One `toolcalc serve` process on a kernel-chosen loopback port."""

    def __init__(self, data_dir, config=None, base_path=None, dev=False, threads=2,
                 own_store=False, env=None, args=()):
        self.data_dir = Path(data_dir)
        self.config = config
        self.own_store = own_store  # `config` names its store itself (the fleet test)
        self.base_path = base_path or ""
        self.dev = dev
        self.threads = threads
        self.env = env  # added to the environment (TOOLCALC_* settings)
        self.args = list(args)  # more `serve` flags
        self.proc = None
        self.port = None
        self.stdout_lines = []
        self.stderr_lines = []
        self._cv = threading.Condition()
        self._stdout_done = False
        self._stderr_done = False

    @property
    def base_url(self):
        return f"http://127.0.0.1:{self.port}{self.base_path}"

    def url(self, path):
        return self.base_url + path

    def _pump(self, stream, sink, is_stdout):
        for line in iter(stream.readline, ""):
            with self._cv:
                sink.append(line.rstrip("\n"))
                self._cv.notify_all()
        with self._cv:
            if is_stdout:
                self._stdout_done = True
            else:
                self._stderr_done = True
            self._cv.notify_all()

    def wait_for_line(self, pattern, timeout=10.0):
        """The first stdout line matching `pattern` (a match object), or None."""
        return self._wait(lambda: self.stdout_lines, re.compile(pattern).search, timeout)

    def log_records(self):
        """The operational log: stderr's JSON lines, parsed (other lines, such as a
        sanitizer's report, are left out)."""
        with self._cv:
            lines = list(self.stderr_lines)
        return [r for r in map(parse_log_line, lines) if r is not None]

    def wait_for_log(self, msg_pattern, timeout=10.0):
        """The match of `msg_pattern` on the msg of the first operational log line (stderr)
        whose msg matches, or None."""
        rx = re.compile(msg_pattern)

        def match(line):
            record = parse_log_line(line)
            return rx.search(record["msg"]) if record else None
        return self._wait(lambda: self.stderr_lines, match, timeout)

    def wait_for_output_end(self, timeout=10.0):
        """True once both stdout and stderr reached their end (the process exited and every
        line was read)."""
        deadline = time.monotonic() + timeout
        with self._cv:
            while not (self._stdout_done and self._stderr_done):
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                self._cv.wait(min(0.2, remaining))
        return True

    def _wait(self, lines, match, timeout):
        deadline = time.monotonic() + timeout
        with self._cv:
            while True:
                for line in lines():
                    m = match(line)
                    if m:
                        return m
                remaining = deadline - time.monotonic()
                if remaining <= 0 or (self._stdout_done and self._stderr_done):
                    return None
                self._cv.wait(min(0.2, remaining))

    def start(self):
        args = [BIN, "serve", "--listen", "127.0.0.1:0", "--data", str(self.data_dir),
                "--threads", str(self.threads)]
        config = self.config if self.own_store else store_config(self.data_dir, self.config)
        if config:
            args += ["--config", str(config)]
        if self.base_path and not self.dev:
            args += ["--base-path", self.base_path]
        if self.dev:
            args += ["--dev"]
        args += self.args
        env = {**os.environ, **self.env} if self.env else None
        self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True, bufsize=1, env=env)
        for stream, sink, is_stdout in ((self.proc.stdout, self.stdout_lines, True),
                                        (self.proc.stderr, self.stderr_lines, False)):
            threading.Thread(target=self._pump, args=(stream, sink, is_stdout),
                             daemon=True).start()
        m = self.wait_for_log(LISTEN_RE.pattern, timeout=15)
        if not m:
            self.kill()
            raise AssertionError(f"server did not report 'listening on': rc={self.proc.poll()}\n"
                                 f"stdout: {self.stdout_lines}\nstderr: {self.stderr_lines}")
        assert m.group(1) == "127.0.0.1", m.group(0)
        self.port = int(m.group(2))
        assert self.port > 0
        if self.dev:
            self.base_path = "/api"
        return self

    def stop(self, timeout=15.0):
        """SIGTERM, then the exit status (the caller asserts 0). Kills on timeout."""
        if self.proc is None or self.proc.poll() is not None:
            return None if self.proc is None else self.proc.returncode
        self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise AssertionError(f"server did not exit within {timeout} s of SIGTERM")

    def kill(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)


class Client:
    """A keep-alive HTTP client bound to one server and a set of keys. With `proxy` (contract
    mode, tests/api/contract.py) requests go through Prism, which checks them and the
    responses against the OpenAPI document."""

    DEFAULT = object()

    def __init__(self, server, keys=None, accounts=False, proxy=None):
        self.server = server
        self.keys = keys or {}
        self.accounts = accounts
        self.proxy = proxy
        self.session = requests.Session()

    @property
    def key(self):
        return self.keys["main"]

    def _headers(self, key, headers):
        h = {}
        if key is Client.DEFAULT:
            key = self.key
        if key is not None:
            h["Authorization"] = f"Bearer {key}"
        if headers:
            h.update(headers)
        return h

    def _send(self, method, path, raw_bytes=False, **kw):
        def direct():
            return self.session.request(method, self.server.url(path), timeout=10, **kw)
        if self.proxy is None:
            return direct()
        if raw_bytes:
            from contract import Stats
            Stats.raw_direct += 1
            return direct()
        return self.proxy.send(method, path, direct, **kw)

    def get(self, path, key=None, headers=None, **kw):
        return self._send("GET", path, headers=self._headers(key, headers), **kw)

    def post(self, path, body=None, key=DEFAULT, content_type="application/json",
             headers=None, raw=None):
        h = self._headers(key, headers)
        if content_type is not None:
            h["Content-Type"] = content_type
        data = raw if raw is not None else json.dumps(body if body is not None else {})
        if isinstance(data, str):
            data = data.encode()
        return self._send("POST", path, raw_bytes=raw is not None, data=data, headers=h)

    def request(self, method, path, key=None, headers=None, data=None):
        return self._send(method, path, raw_bytes=data is not None,
                          headers=self._headers(key, headers), data=data)

    def service_version(self):
        return self.get("/v1/health").json()["result"]["version"]


# --- envelope and header checks -------------------------------------------------------

def header_int(r, name):
    v = r.headers.get(name)
    assert v is not None, f"{name} missing on {r.status_code} {r.request.method} {r.url}"
    assert re.fullmatch(r"-?\d+", v), f"{name} is not an integer: {v!r}"
    return int(v)


# One member of a RateLimit-Policy or RateLimit field (draft-ietf-httpapi-ratelimit-headers-09
# as toolcalc writes it): a String item with Integer parameters.
SF_MEMBER_RE = re.compile(r'^"([a-z]+)"((?:;[a-z]+=\d+)+)$')


def parse_ratelimit_field(value):
    """{policy name: {parameter: int}} of a RateLimit-Policy or RateLimit field value."""
    out = {}
    for member in value.split(","):
        m = SF_MEMBER_RE.match(member.strip())
        assert m, f"not a structured-field item with integer parameters: {member!r} in {value!r}"
        assert m.group(1) not in out, f"policy {m.group(1)} twice in {value!r}"
        out[m.group(1)] = {k: int(v) for k, v in
                           (p.split("=") for p in m.group(2).split(";")[1:])}
    return out


def ratelimit_fields(r):
    """(RateLimit-Policy, RateLimit) of a response, parsed."""
    policy = r.headers.get("RateLimit-Policy")
    limit = r.headers.get("RateLimit")
    assert policy is not None and limit is not None, \
        f"RateLimit-Policy / RateLimit missing on {r.status_code} {r.request.method} {r.url}"
    return parse_ratelimit_field(policy), parse_ratelimit_field(limit)


def check_ratelimit_fields(r, accounts):
    """The IETF fields agree with the X-RateLimit-* headers of the same response: the
    "minute" policy is the window; a "month" policy, when present, is a calendar month."""
    policy, limit = ratelimit_fields(r)
    assert set(policy) == set(limit), (policy, limit)
    assert set(policy) <= {"minute", "month"} and "minute" in policy, policy
    assert policy["minute"] == {"q": header_int(r, "X-RateLimit-Limit"), "w": 60}, policy
    assert set(limit["minute"]) == {"r", "t"}, limit
    assert limit["minute"]["r"] == header_int(r, "X-RateLimit-Remaining"), limit
    assert 0 <= limit["minute"]["t"] <= 60, limit
    if accounts:
        # The server stamped the fields at some instant while the request was in flight:
        # "t" is measured from then, so it may exceed the seconds left now by the time the
        # request took (an analysis, a proxy) besides a second of rounding each way.
        expected_t = header_int(r, "X-RateLimit-Reset") - time.time()
        in_flight_s = r.elapsed.total_seconds() if r.elapsed else 0.0
        assert -2 <= limit["minute"]["t"] - expected_t <= 2 + in_flight_s, (
            limit, expected_t, in_flight_s)
    if "month" in policy:
        assert set(policy["month"]) == {"q", "w"} and set(limit["month"]) == {"r", "t"}
        assert policy["month"]["w"] in (28 * 86400, 29 * 86400, 30 * 86400, 31 * 86400), policy
        assert 0 <= limit["month"]["r"] <= policy["month"]["q"], (policy, limit)
        assert 0 < limit["month"]["t"] <= policy["month"]["w"], (policy, limit)
    return policy, limit


def check_common_headers(r, accounts, tool_version=None, service_version=None):
    """Headers every response carries (spec §8)."""
    rid = r.headers.get("X-Request-ID")
    assert rid and REQUEST_ID_RE.match(rid), f"X-Request-ID {rid!r}"
    assert r.headers.get("Access-Control-Allow-Origin") == "*"
    assert "Access-Control-Allow-Credentials" not in r.headers
    assert r.headers.get("Cache-Control") == "no-store"
    if r.status_code not in (429, 503):
        assert "Retry-After" not in r.headers, f"Retry-After on a {r.status_code}"
    exposed = [h.strip().lower() for h in
               r.headers.get("Access-Control-Expose-Headers", "").split(",")]
    for h in EXPOSED_HEADERS:
        assert h.lower() in exposed, f"{h} not in Access-Control-Expose-Headers: {exposed}"
    limit = header_int(r, "X-RateLimit-Limit")
    remaining = header_int(r, "X-RateLimit-Remaining")
    reset = header_int(r, "X-RateLimit-Reset")
    assert remaining >= 0
    if accounts:
        now = time.time()
        assert limit > 0
        assert remaining <= limit
        assert reset % 60 == 0, f"X-RateLimit-Reset {reset} is not a minute boundary"
        assert now - 2 <= reset <= now + 62, f"X-RateLimit-Reset {reset} vs now {now}"
    check_ratelimit_fields(r, accounts)
    tv = r.headers.get("X-Tool-Version")
    assert tv and SEMVER_RE.match(tv), f"X-Tool-Version {tv!r}"
    if tool_version is not None:
        assert tv == tool_version, f"X-Tool-Version {tv} != {tool_version}"
    if service_version is not None:
        assert tv == service_version, f"X-Tool-Version {tv} != service version {service_version}"
    return rid


def check_json_content_type(r):
    ct = r.headers.get("Content-Type", "")
    assert ct.split(";")[0].strip().lower() == "application/json", ct


def check_success(r, accounts, tool=None, domain=None, version="1.0.0"):
    """The execute success envelope of spec §2.7, exactly."""
    assert r.status_code == 200, f"{r.status_code} {r.text}"
    check_json_content_type(r)
    body = r.json()
    assert list(body) == ["ok", "tool", "domain", "version", "result", "meta"], list(body)
    assert body["ok"] is True
    if tool:
        assert body["tool"] == tool
    if domain:
        assert body["domain"] == domain
    assert body["version"] == version
    assert isinstance(body["result"], dict)
    meta = body["meta"]
    assert list(meta) == ["latency_ms", "quota_remaining", "request_id"], list(meta)
    assert isinstance(meta["latency_ms"], int) and not isinstance(meta["latency_ms"], bool)
    assert 0 <= meta["latency_ms"] < 10_000
    if accounts:
        assert isinstance(meta["quota_remaining"], int) and meta["quota_remaining"] >= 0
    else:
        assert meta["quota_remaining"] is None or isinstance(meta["quota_remaining"], int)
    assert REQUEST_ID_RE.match(meta["request_id"])
    rid = check_common_headers(r, accounts, tool_version=body["version"])
    # The month's remainder in RateLimit is meta.quota_remaining (both after this call).
    policy, limit = ratelimit_fields(r)
    if accounts and meta["quota_remaining"] is not None:
        assert limit["month"]["r"] == meta["quota_remaining"], (limit, meta)
    assert rid == meta["request_id"]
    return body


def check_ok_result(r, accounts, tool_version=None, service_version=None):
    """Non-execute success envelope: {ok:true, result, meta:{request_id}}."""
    assert r.status_code == 200, f"{r.status_code} {r.text}"
    check_json_content_type(r)
    body = r.json()
    assert list(body) == ["ok", "result", "meta"], list(body)
    assert body["ok"] is True
    assert list(body["meta"]) == ["request_id"]
    rid = check_common_headers(r, accounts, tool_version=tool_version,
                               service_version=service_version)
    assert rid == body["meta"]["request_id"]
    return body["result"]


_MISSING = object()


def check_error(r, status, code, accounts, message=None, field=_MISSING, contains=(),
                tool_version=None, service_version=None):
    """The error envelope of spec §2.7: `field` only when one input is at fault."""
    assert r.status_code == status, f"expected {status} {code}, got {r.status_code} {r.text}"
    check_json_content_type(r)
    body = r.json()
    assert list(body) == ["ok", "error", "meta"], list(body)
    assert body["ok"] is False
    err = body["error"]
    assert err["code"] == code, err
    assert isinstance(err["message"], str) and err["message"], err
    if field is _MISSING or field is None:
        assert list(err) == ["code", "message"], f"unexpected error keys {list(err)}: {err}"
    else:
        assert list(err) == ["code", "message", "field"], err
        assert err["field"] == field, err
    if message is not None:
        if isinstance(message, re.Pattern):
            assert message.search(err["message"]), err["message"]
        else:
            assert err["message"] == message, err["message"]
    for part in contains:
        assert part in err["message"], f"{part!r} not in {err['message']!r}"
    assert list(body["meta"]) == ["request_id"]
    rid = check_common_headers(r, accounts, tool_version=tool_version,
                               service_version=service_version)
    assert rid == body["meta"]["request_id"]
    return err


def raw_number(text, key):
    """The literal text of the JSON number member `key` in a raw body."""
    m = re.search(r'"' + re.escape(key) + r'":(-?[0-9][0-9.eE+-]*)[,}]', text)
    assert m, f"no number member {key!r} in {text}"
    return m.group(1)


def check_plain_decimals(text, outputs):
    """Every number output is written as a plain decimal with exactly its precision."""
    for out in outputs:
        if out["type"] != "number":
            continue
        lit = raw_number(text, out["key"])
        p = out["precision"]
        pattern = r"-?(0|[1-9][0-9]*)" + (r"\.[0-9]{%d}" % p if p else "")
        assert re.fullmatch(pattern, lit), \
            f"{out['key']} written as {lit!r}, expected {p} decimals and no exponent"


def fmt_bound(v):
    """A descriptor bound as the validation message writes it (shortest decimal)."""
    if float(v).is_integer():
        return str(int(v))
    return repr(float(v))


# --- raw sockets ------------------------------------------------------------------------

def connect(port, timeout=5.0):
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    s.settimeout(timeout)
    return s


class RawResponse:
    def __init__(self, version, status, reason, headers, body):
        self.version = version
        self.status = status
        self.reason = reason
        self.headers = headers  # lower-case name -> value (last wins)
        self.body = body

    def json(self):
        return json.loads(self.body)


class RawReader:
    """Parses HTTP/1.x responses (Content-Length framed) from a socket in order."""

    def __init__(self, sock):
        self.sock = sock
        self.buf = b""
        self.eof = False

    def _fill(self):
        chunk = self.sock.recv(65536)
        if not chunk:
            self.eof = True
            return False
        self.buf += chunk
        return True

    def read_response(self):
        while b"\r\n\r\n" not in self.buf:
            if not self._fill():
                raise AssertionError(f"connection closed before a full response: {self.buf!r}")
        head, self.buf = self.buf.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        version, status, reason = (lines[0].split(" ", 2) + [""])[:3]
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        n = int(headers.get("content-length", "0"))
        while len(self.buf) < n:
            if not self._fill():
                raise AssertionError("connection closed inside a response body")
        body, self.buf = self.buf[:n], self.buf[n:]
        return RawResponse(version, int(status), reason, headers, body)

    def closed_by_peer(self, timeout=3.0):
        """True when the server closes the connection (EOF) within `timeout`."""
        self.sock.settimeout(timeout)
        try:
            while True:
                chunk = self.sock.recv(65536)
                if not chunk:
                    return True
                self.buf += chunk
        except socket.timeout:
            return False
        except ConnectionResetError:
            return True


def http_request(method, path, body=b"", headers=None, version="HTTP/1.1"):
    h = {"Host": "127.0.0.1"}
    if body:
        h["Content-Length"] = str(len(body))
    h.update(headers or {})
    head = f"{method} {path} {version}\r\n" + "".join(f"{k}: {v}\r\n" for k, v in h.items())
    return head.encode() + b"\r\n" + body

"""The Python client (clients/python) against a real server: every method, exact numbers,
the one exception type, retries that honour Retry-After, timeouts. A scripted local HTTP
server stands in where a test needs answers the real one gives only after a wait (a 503
that ends, a server that never answers)."""
import ast
import decimal
import http.server
import json
import socket
import sys
import threading
import time
import urllib.request
from decimal import Decimal
from pathlib import Path

import pytest

import toolcalc
from toolcalc import Client, ToolcalcError

from conftest import REPO

COST = "llm-api-cost-calculator"
DIVIDER = {"vin_v": 5, "r1_ohm": 1000, "r2_ohm": 1940}
COST_REQUIRED = {"input_tokens_per_call": 2000, "output_tokens_per_call": 500,
                 "calls_per_month": 100000}


def raw_post(server, path, body, key):
    """The server's answer to `body`, every number kept as (kind, text)."""
    # Decimals (defaults read through the client) as floats: the server wrote them in the
    # shortest form, which float's repr gives back.
    data = json.dumps(body, default=float).encode()
    req = urllib.request.Request(server.url(path), data=data, method="POST",
                                 headers={"Content-Type": "application/json",
                                          "Authorization": f"Bearer {key}"})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            text = r.read().decode()
    except urllib.error.HTTPError as e:
        text = e.read().decode()
    return json.loads(text, parse_float=lambda s: ("float", s), parse_int=lambda s: ("int", s))


def assert_exact(value, raw):
    """`value` (from the client) is exactly the number the server wrote as `raw`."""
    if isinstance(raw, tuple):
        kind, text = raw
        if kind == "int":
            assert type(value) is int and value == int(text), (value, text)
        else:
            assert isinstance(value, Decimal), (value, text)
            # Same digits and exponent: "0.50" stays 0.50, not 0.5.
            assert value.as_tuple() == Decimal(text).as_tuple(), (value, text)
    elif isinstance(raw, dict):
        assert isinstance(value, dict) and list(value) == list(raw)
        for k in raw:
            assert_exact(value[k], raw[k])
    elif isinstance(raw, list):
        assert isinstance(value, list) and len(value) == len(raw)
        for v, r in zip(value, raw):
            assert_exact(v, r)
    else:
        assert value == raw


@pytest.fixture(scope="session")
def client(server):
    return Client(server.base_url, key=server.keys["big"])


# --- the package ---------------------------------------------------------------------

def test_the_installed_package_is_tested_and_uses_the_standard_library_only():
    installed = Path(toolcalc.__file__).resolve()
    assert Path(sys.prefix).resolve() in installed.parents, (
        f"{installed} is not inside this venv ({sys.prefix}): run through `make client-test`")
    assert REPO / "clients" not in installed.parents
    for module in installed.parent.glob("*.py"):
        for node in ast.walk(ast.parse(module.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module]
            for name in names:
                assert name.split(".")[0] in sys.stdlib_module_names, f"{module.name}: {name}"


def test_the_build_backend_reads_pyproject_the_same_without_tomllib():
    sys.path.insert(0, str(REPO / "clients" / "python" / "build_backend"))
    try:
        import stdlib_backend
    finally:
        sys.path.pop(0)
    import tomllib
    text = (REPO / "clients" / "python" / "pyproject.toml").read_text()
    assert stdlib_backend._parse_simple_toml(text) == tomllib.loads(text)


def test_the_key_is_never_in_the_repr(server):
    key = server.keys["big"]
    text = repr(Client(server.base_url, key=key))
    assert key not in text and key[:12] in text


# --- running tools -------------------------------------------------------------------

def test_run_with_required_inputs_only_takes_the_defaults_exactly(server, client):
    r = client.run(COST, **COST_REQUIRED)
    raw = raw_post(server, f"/v1/programming-dev/{COST}", COST_REQUIRED, server.keys["big"])
    assert raw["ok"] is True
    assert_exact(dict(r), raw["result"])
    assert r.envelope["tool"] == COST and r.envelope["domain"] == "programming-dev"
    assert r.request_id.startswith("req_") and r.request_id == r.headers["X-Request-ID"]
    assert r.headers["x-tool-version"] == r.envelope["version"]
    assert isinstance(r.quota_remaining, int)


def test_run_with_optional_inputs(server, client):
    schema = client.schema(COST)
    model = next(i for i in schema["inputs"] if i["key"] == "model")
    other = next(m for m in model["options"] if m != model["default"])
    body = {**COST_REQUIRED, "model": other, "cached_input_fraction": Decimal("0.25"),
            "use_batch_api": True}
    r = client.run(f"programming-dev/{COST}", **body)
    raw = raw_post(server, f"/v1/programming-dev/{COST}",
                   {**body, "cached_input_fraction": 0.25}, server.keys["big"])
    assert_exact(dict(r), raw["result"])
    assert r != client.run(COST, **COST_REQUIRED)


def test_every_number_is_exact_for_every_tool(server, client):
    """Each tool at its defaults: ints stay int, decimals keep the server's digits."""
    for t in client.tools():
        defaults = {i["key"]: i["default"] for i in client.schema(t["tool"])["inputs"]}
        r = client.run(t["tool"], **defaults)
        raw = raw_post(server, t["endpoint"], defaults, server.keys["big"])
        assert_exact(dict(r), raw["result"])
    # Floats and Decimals are sent as written: 0.1 arrives as 0.1.
    r = client.run("voltage-divider", vin_v=Decimal("5"), r1_ohm=1000.0, r2_ohm=1940)
    assert r["vout_v"] == Decimal("3.2993")


# --- errors --------------------------------------------------------------------------

def test_a_400_carries_status_code_field_message_and_request_id(client):
    with pytest.raises(ToolcalcError) as info:
        client.run("voltage-divider", vin_v=5000, r1_ohm=1000, r2_ohm=1940)
    e = info.value
    assert (e.status, e.code, e.field) == (400, "VALIDATION_ERROR", "vin_v")
    assert e.message == "vin_v must be at most 1000"
    assert e.request_id.startswith("req_") and e.retry_after is None
    assert e.body["error"]["message"] == e.message
    assert str(e) == f"400 VALIDATION_ERROR: {e.message} (field vin_v) [{e.request_id}]"


def test_other_errors(server, client):
    with pytest.raises(ToolcalcError) as info:
        client.run("voltage-divider", vin_v=5, r1_ohm=1000, r2_ohm=1940, r3_ohm=1)
    assert (info.value.status, info.value.field) == (400, "r3_ohm")
    with pytest.raises(ToolcalcError) as info:
        client.run("no-such-tool")
    assert (info.value.status, info.value.code) == (404, "NOT_FOUND")
    with pytest.raises(ToolcalcError) as info:
        Client(server.base_url).run("voltage-divider")
    assert (info.value.status, info.value.code) == (401, "UNAUTHORIZED")
    with pytest.raises(ToolcalcError) as info:
        Client(server.base_url, key="tc_live_" + "x" * 32).me()
    assert (info.value.status, info.value.message) == (401, "invalid API key")
    # 422: each input valid alone, impossible together (a divider output under 1 µV).
    with pytest.raises(ToolcalcError) as info:
        client.run("voltage-divider", vin_v=0.001, r1_ohm=10000000, r2_ohm=100)
    assert (info.value.status, info.value.code) == (422, "UNPROCESSABLE")
    assert info.value.field


# --- discovery and the account ---------------------------------------------------------

def test_tools_returns_every_page(server, client):
    everything = client.tools()
    assert len(everything) > 20  # more than one default page
    assert client.tools(page_size=7) == everything
    req = urllib.request.Request(server.url("/v1/tools?limit=100"))
    with urllib.request.urlopen(req, timeout=10) as r:
        listing = json.loads(r.read())["result"]
    assert [t["tool"] for t in everything] == [t["tool"] for t in listing["items"]]
    electronics = client.tools("electronics", page_size=5)
    assert electronics == [t for t in everything if t["domain"] == "electronics"]


def test_domains_schema_tool_me_health_openapi(server, client):
    domains = client.domains()
    assert sum(d["live"] for d in domains) == len(client.tools())
    schema = client.schema("electronics/voltage-divider")
    assert schema["endpoint"] == "/v1/electronics/voltage-divider"
    details = client.tool("voltage-divider")
    assert details["references"] and details["examples"][0]["source"]
    me = client.me()
    assert me["plan"] == "big" and server.keys["big"].startswith(me["key_prefix"])
    assert client.health()["status"] == "ok"
    assert client.openapi()["openapi"].startswith("3.1")


def test_sweep(server, client):
    inputs = {"vin_v": 5, "r1_ohm": 1000}
    r = client.sweep("voltage-divider", "r2_ohm", 1000, 3000, 5, **inputs)
    raw = raw_post(server, "/v1/electronics/voltage-divider/sweep",
                   {"inputs": inputs, "vary": {"key": "r2_ohm", "from": 1000, "to": 3000,
                                               "points": 5}}, server.keys["big"])
    assert_exact(dict(r), raw["result"])
    assert [p["x"] for p in r["points"]] == [1000, 1500, 2000, 2500, 3000]


# --- retries ---------------------------------------------------------------------------

def test_429_is_retried_after_retry_after_then_raised(server):
    # Rate windows are calendar minutes: start early in one, so that the two allowed calls
    # and the refused attempts all fall in the same window.
    if time.time() % 60 > 50:
        time.sleep(61 - time.time() % 60)
    waits = []
    c = Client(server.base_url, key=server.keys["tiny"], retries=2, sleep=waits.append)
    c.run("electronics/voltage-divider", **DIVIDER)
    c.run("electronics/voltage-divider", **DIVIDER)  # the plan's 2 calls a minute
    with pytest.raises(ToolcalcError) as info:
        c.run("electronics/voltage-divider", **DIVIDER)
    e = info.value
    assert (e.status, e.code) == (429, "RATE_LIMITED")
    assert len(waits) == 2, waits  # waited twice, as Retry-After said, then gave up
    assert all(1 <= w <= 60 for w in waits) and e.retry_after <= waits[0]


def test_a_monthly_quota_is_not_waited_for(server):
    waits = []
    c = Client(server.base_url, key=server.keys["quota3"], sleep=waits.append)
    for _ in range(3):
        c.run("electronics/voltage-divider", **DIVIDER)
    with pytest.raises(ToolcalcError) as info:
        c.run("electronics/voltage-divider", **DIVIDER)
    assert (info.value.status, info.value.code) == (429, "QUOTA_EXCEEDED")
    assert info.value.retry_after > c.max_retry_wait
    assert waits == []  # days away: raised at once


class Scripted:
    """A local HTTP server answering from a script: a list of (status, headers, body)."""

    def __init__(self, script):
        self.script = list(script)
        self.requests = []
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def _answer(self):
                length = int(self.headers.get("Content-Length") or 0)
                outer.requests.append((self.command, self.path, self.rfile.read(length)))
                status, headers, body = outer.script.pop(0)
                data = json.dumps(body).encode()
                self.send_response(status)
                for k, v in headers.items():
                    self.send_header(k, v)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = _answer

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


BUSY = (503, {"Retry-After": "1"},
        {"ok": False, "error": {"code": "SERVER_BUSY", "message": "busy"},
         "meta": {"request_id": "req_busy"}})
OK = (200, {"X-Request-ID": "req_ok"},
      {"ok": True, "tool": "t", "domain": "d", "version": "1.0.0", "result": {"v": 1.50},
       "meta": {"latency_ms": 0, "quota_remaining": 9, "request_id": "req_ok"}})


def test_503_then_200_is_retried_and_succeeds():
    s = Scripted([BUSY, BUSY, OK])
    try:
        waits = []
        r = Client(s.url, key="k", sleep=waits.append).run("d/t", x=Decimal("0.10"))
        assert r == {"v": Decimal("1.5")} and waits == [1, 1]
        assert [m for m, _, _ in s.requests] == ["POST"] * 3
        assert s.requests[0][2] == b'{"x":0.10}'  # the Decimal sent as written
    finally:
        s.close()


def test_retries_are_off_for_other_posts_and_when_set_to_zero():
    s = Scripted([BUSY, BUSY])
    try:
        waits = []
        c = Client(s.url, key="k", sleep=waits.append)
        with pytest.raises(ToolcalcError) as info:
            c.request("POST", "/v1/something", {"a": 1})  # not known to be safe to repeat
        assert (info.value.status, info.value.code, info.value.retry_after) == (
            503, "SERVER_BUSY", 1)
        with pytest.raises(ToolcalcError):
            Client(s.url, key="k", retries=0, sleep=waits.append).run("d/t")
        assert waits == [] and len(s.requests) == 2
    finally:
        s.close()


def test_a_server_that_does_not_answer_times_out():
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)  # accepts the connection, never answers
    try:
        c = Client(f"http://127.0.0.1:{listener.getsockname()[1]}", timeout=0.5)
        start = time.monotonic()
        with pytest.raises(ToolcalcError) as info:
            c.health()
        assert (info.value.status, info.value.code) == (None, "TIMEOUT")
        assert time.monotonic() - start < 5
        port = listener.getsockname()[1]
    finally:
        listener.close()
    # The port is closed now: the connection is refused.
    with pytest.raises(ToolcalcError) as info:
        Client(f"http://127.0.0.1:{port}").health()
    assert (info.value.status, info.value.code) == (None, "CONNECTION_ERROR")


# --- analysis endpoints ------------------------------------------------------------------

def analysis_paths(client):
    paths = client.openapi()["paths"]
    return {kind: any(p.endswith("/" + kind) for p in paths) for kind in ("tolerance", "solve")}


def test_tolerance(server, client):
    assert analysis_paths(client)["tolerance"], "the server documents /tolerance"
    tolerances = {"r1_ohm": {"pct": 1}, "r2_ohm": {"pct": 1}}
    inputs = {"vin_v": 5, "r1_ohm": 1000, "r2_ohm": 1940}
    r = client.tolerance("voltage-divider", tolerances, inputs=inputs, samples=1000, seed=7)
    raw = raw_post(server, "/v1/electronics/voltage-divider/tolerance",
                   {"inputs": inputs, "tolerances": tolerances, "samples": 1000, "seed": 7},
                   server.keys["big"])
    assert raw["ok"] is True, raw
    assert_exact(dict(r), raw["result"])


def test_solve(server, client):
    assert analysis_paths(client)["solve"], "the server documents /solve"
    r = client.solve("voltage-divider", "r2_ohm", "vout_v", Decimal("3.3"), vin_v=5,
                     r1_ohm=1000)
    assert r["vary"] == "r2_ohm" and r["solutions"]
    for s in r["solutions"]:
        again = client.run("voltage-divider", vin_v=5, r1_ohm=1000, r2_ohm=s["value"])
        assert dict(again) == s["result"]
        assert abs(again["vout_v"] - Decimal("3.3")) <= Decimal("0.0001")
    with pytest.raises(ToolcalcError) as info:
        client.solve("voltage-divider", "r2_ohm", "vout_v", 6, vin_v=5, r1_ohm=1000)
    assert (info.value.status, info.value.field) == (422, "target.value")


def test_decimal_context_is_untouched():
    # Parsing with Decimal never depends on (or changes) the caller's context precision.
    with decimal.localcontext() as ctx:
        ctx.prec = 3
        from toolcalc import _json
        assert str(_json.loads("1.23456789012345678901")) == "1.23456789012345678901"

"""Process-level behaviour on dedicated servers: --dev and --base-path, graceful stop on
SIGTERM, and `toolcalc run` printing the same envelope as a POST."""
import json
import re
import shlex
import signal
import socket
import subprocess
import time

import pytest
import requests

from support import (BATTERY, BATTERY_DEFAULTS, BIN, KEYS_AVAILABLE, NO_KEYS_REASON, TEST_KEY_RE,
                     RawReader, check_success, connect, http_request, run_cli)


def parse_curl_line(lines):
    """The ready-to-paste curl command --dev prints: (url, headers, body)."""
    text = "\n".join(lines)
    m = re.search(r"curl .*", text)
    assert m, f"no curl line in --dev output: {lines}"
    argv = shlex.split(m.group(0))
    url, headers, body = None, {}, None
    i = 1
    while i < len(argv):
        a = argv[i]
        if a in ("-H", "--header"):
            name, _, value = argv[i + 1].partition(":")
            headers[name.strip()] = value.strip()
            i += 2
        elif a in ("-d", "--data", "--data-raw"):
            body = argv[i + 1]
            i += 2
        elif a.startswith("http"):
            url = a
            i += 1
        else:
            i += 1
    return url, headers, body


def test_dev_mode_serves_under_api_with_curl_line(start_server):
    s = start_server(dev=True, config=None)
    assert s.base_path == "/api"
    assert s.wait_for_line(r"curl ", timeout=5), s.stdout_lines
    url, headers, body = parse_curl_line(s.stdout_lines)
    assert url == f"http://127.0.0.1:{s.port}/api{BATTERY}"
    assert headers.get("Content-Type") == "application/json"
    assert headers.get("Authorization", "").startswith("Bearer ")
    assert json.loads(body) == BATTERY_DEFAULTS
    # the printed request works as printed
    r = requests.post(url, data=body, headers=headers, timeout=10)
    assert r.status_code == 200, r.text
    assert '"lifetime_hours":4660.8' in r.text
    # every endpoint under /api; without the prefix there is nothing
    base = f"http://127.0.0.1:{s.port}"
    assert requests.get(base + "/api/v1/health", timeout=10).status_code == 200
    assert requests.get(base + "/api/v1/tools", timeout=10).status_code == 200
    for path in ["/v1/health", "/v1/tools", "/api", "/apiv1/health", "/api/v1"]:
        r = requests.get(base + path, timeout=10)
        assert r.status_code == 404, (path, r.status_code)
        assert r.json()["error"]["code"] == "NOT_FOUND"
    # "/" and "/api/" are the playground's page (test_playground.py)
    for path in ["/", "/api/"]:
        r = requests.get(base + path, timeout=10)
        assert r.status_code == 200 and r.headers["Content-Type"].startswith("text/html"), path
    r = requests.post(base + BATTERY, data=body, headers=headers, timeout=10)
    assert r.status_code == 404
    assert s.stop() == 0


@pytest.mark.skipif(not KEYS_AVAILABLE, reason=NO_KEYS_REASON)
def test_dev_mode_prints_a_test_key(start_server):
    s = start_server(dev=True, config=None)
    assert s.wait_for_line(r"curl ", timeout=5)
    _, headers, _ = parse_curl_line(s.stdout_lines)
    key = headers["Authorization"].split(" ", 1)[1]
    assert TEST_KEY_RE.fullmatch(key), key
    r = requests.get(s.url("/v1/me"), headers={"Authorization": f"Bearer {key}"}, timeout=10)
    assert r.status_code == 200, r.text
    assert r.json()["result"]["key_prefix"] == key[:12]
    # a made-up test key is not accepted
    bogus = "tc_test_" + "A" * 32
    r = requests.get(s.url("/v1/me"), headers={"Authorization": f"Bearer {bogus}"}, timeout=10)
    assert r.status_code == 401
    assert s.stop() == 0


def test_base_path_option(start_server):
    s = start_server(base_path="/svc/api")
    base = f"http://127.0.0.1:{s.port}"
    r = requests.get(base + "/svc/api/v1/health", timeout=10)
    assert r.status_code == 200
    r = requests.get(base + "/svc/api/v1/tools/pcb-trace-width", timeout=10)
    assert r.status_code == 200
    assert requests.get(base + "/v1/health", timeout=10).status_code == 404
    assert requests.get(base + "/svc/v1/health", timeout=10).status_code == 404
    r = requests.options(base + "/svc/api" + BATTERY, timeout=10)
    assert r.status_code == 204
    assert s.stop() == 0


def test_graceful_stop_closes_idle_keep_alive_and_refuses_new(start_server):
    s = start_server()
    port = s.port
    conn = connect(port)
    reader = RawReader(conn)
    conn.sendall(http_request("GET", "/v1/health"))
    assert reader.read_response().status == 200
    t0 = time.monotonic()
    s.proc.send_signal(signal.SIGTERM)
    assert s.proc.wait(timeout=15) == 0
    assert time.monotonic() - t0 < 5, "an idle keep-alive connection must not delay the stop"
    assert reader.closed_by_peer(timeout=2)
    conn.close()
    assert s.wait_for_log(r"^stopped$", timeout=2), s.stderr_lines
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=2).close()


def test_graceful_stop_finishes_request_in_flight(start_server):
    s = start_server()
    conn = connect(s.port)
    body = json.dumps(BATTERY_DEFAULTS).encode()
    data = http_request("POST", BATTERY, body, {"Authorization": "Bearer " + "tc_live_" + "x" * 32,
                                                "Content-Type": "application/json"})
    half = len(data) - 20
    conn.sendall(data[:half])  # a request has begun arriving
    time.sleep(0.3)
    s.proc.send_signal(signal.SIGTERM)
    time.sleep(0.3)
    assert s.proc.poll() is None, "the server exited with a request half-read"
    conn.sendall(data[half:])
    reader = RawReader(conn)
    resp = reader.read_response()
    # the request is answered (its status depends on the key), and the connection closes
    assert resp.status in (200, 401), resp.body
    assert resp.headers.get("connection", "").lower() == "close"
    assert reader.closed_by_peer(timeout=3)
    conn.close()
    assert s.proc.wait(timeout=15) == 0


def test_sigint_also_stops_gracefully(start_server):
    s = start_server()
    assert requests.get(s.url("/v1/health"), timeout=5).status_code == 200
    s.proc.send_signal(signal.SIGINT)
    assert s.proc.wait(timeout=15) == 0
    assert s.wait_for_log(r"^stopped$", timeout=2)



def test_sigterm_right_after_ready_line_stops_gracefully(start_server):
    for _ in range(5):
        s = start_server()
        s.proc.send_signal(signal.SIGTERM)
        assert s.proc.wait(timeout=15) == 0
        assert s.wait_for_log(r"^stopped$", timeout=2)


def test_listen_on_port_in_use_fails_cleanly(start_server, tmp_path):
    blocker = socket.socket()
    blocker.bind(("127.0.0.1", 0))
    blocker.listen(1)
    port = blocker.getsockname()[1]
    try:
        r = subprocess.run([BIN, "serve", "--listen", f"127.0.0.1:{port}", "--data",
                            str(tmp_path / "d"), "--threads", "1"],
                           capture_output=True, text=True, timeout=15)
        assert r.returncode != 0
        assert r.stderr.strip(), "a failed bind must say why on stderr"
    finally:
        blocker.close()


# --- toolcalc run -------------------------------------------------------------------------

def test_run_prints_same_envelope_as_post(api):
    r = run_cli("run", "iot-mcu/mcu-deep-sleep-battery", "--json", json.dumps(BATTERY_DEFAULTS))
    assert r.returncode == 0
    cli = json.loads(r.stdout)
    http = check_success(api.post(BATTERY, BATTERY_DEFAULTS), api.accounts)
    assert list(cli) == list(http)
    assert list(cli["meta"]) == list(http["meta"])
    assert {k: cli[k] for k in ("ok", "tool", "domain", "version", "result")} == \
        {k: http[k] for k in ("ok", "tool", "domain", "version", "result")}
    assert '"lifetime_hours":4660.8' in r.stdout and '"avg_current_ma":0.343' in r.stdout


def test_run_reports_validation_error_and_exits_nonzero(api):
    r = run_cli("run", "iot-mcu/mcu-deep-sleep-battery", "--json",
                json.dumps({**BATTERY_DEFAULTS, "battery_capacity_mah": 5}), check=False)
    assert r.returncode != 0
    env = json.loads(r.stdout)
    http = api.post(BATTERY, {**BATTERY_DEFAULTS, "battery_capacity_mah": 5}).json()
    assert env["ok"] is False and env["error"] == http["error"]
    r = run_cli("run", "iot-mcu/nope", "--json", "{}", check=False)
    assert r.returncode != 0 and json.loads(r.stdout)["error"]["code"] == "NOT_FOUND"


# --- connection cap and timeouts -----------------------------------------

LIMITS_TOML = """\
[server]
max_connections = 3
read_timeout_s = 1
idle_timeout_s = 2
"""


def test_connection_cap_and_timeouts(start_server, tmp_path):
    cfg = tmp_path / "limits.toml"
    cfg.write_text(LIMITS_TOML)
    s = start_server(config=cfg)
    held = [connect(s.port) for _ in range(3)]
    try:
        for c in held:  # make sure each is accepted and registered
            c.sendall(http_request("GET", "/v1/health"))
            assert RawReader(c).read_response().status == 200
        extra = connect(s.port)
        with extra:
            reader = RawReader(extra)
            resp = reader.read_response()
            assert resp.status == 503, resp.body
            body = resp.json()
            assert body["ok"] is False and body["error"]["code"] == "SERVER_BUSY"
            assert int(resp.headers["retry-after"]) >= 1
            assert reader.closed_by_peer()
    finally:
        for c in held:
            c.close()
    # once they are gone, connections are accepted again
    time.sleep(0.2)
    assert requests.get(s.url("/v1/health"), timeout=5).status_code == 200

    # idle keep-alive connection: closed after idle_timeout_s (2 s)
    idle = connect(s.port)
    slow = connect(s.port)
    with idle, slow:
        idle.sendall(http_request("GET", "/v1/health"))
        idle_reader = RawReader(idle)
        assert idle_reader.read_response().status == 200
        # a request whose headers never finish: cut off after read_timeout_s (1 s)
        slow.sendall(b"GET /v1/health HTTP/1.1\r\nHost: x\r\n")
        t0 = time.monotonic()
        assert RawReader(slow).closed_by_peer(timeout=4)
        assert time.monotonic() - t0 < 3.5
        assert idle_reader.closed_by_peer(timeout=4)
        assert time.monotonic() - t0 < 4
    assert s.stop() == 0

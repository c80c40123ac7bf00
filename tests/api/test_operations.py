"""Operations (docs/operations.md): Prometheus metrics scraped with Debian's
python3-prometheus-client parser, readiness apart from liveness (shared store outages,
draining on SIGTERM), settings from the environment and secrets from files, and the
operational log: JSON lines with time, level and msg, --log-level, never a key."""
import json
import os
import signal
import socket
import subprocess
import time

import pytest
import requests
from prometheus_client.parser import text_string_to_metric_families

import support
from redis_server import RedisServer
from support import (BATTERY, BATTERY_DEFAULTS, BIN, CONFIG_TOML, LOG_LEVELS, Server,
                     create_key, parse_log_line)

BATTERY_SLUG = "mcu-deep-sleep-battery"


def scrape(server):
    r = requests.get(server.url("/metrics"), timeout=10)
    assert r.status_code == 200, r.text
    assert r.headers["Content-Type"] == "text/plain; version=0.0.4; charset=utf-8"
    return {f.name: f for f in text_string_to_metric_families(r.text)}


def value(families, family, sample_name=None, **labels):
    """A sample's value; 0 when the series is absent (series appear with their first count)."""
    f = families[family]
    name = sample_name or (family + "_total" if f.type == "counter" else family)
    for s in f.samples:
        if s.name == name and all(s.labels.get(k) == v for k, v in labels.items()):
            return s.value
    return 0


def execute(server, key, body=None):
    return requests.post(server.url(BATTERY), json=body or BATTERY_DEFAULTS,
                         headers={"Authorization": f"Bearer {key}"}, timeout=10)


def assert_json_log(server):
    """Every stderr line is one operational log line: JSON, time/level/msg, a known level."""
    assert server.stderr_lines, "no operational message at all"
    for line in server.stderr_lines:
        record = parse_log_line(line)
        assert record is not None, f"not a JSON log line: {line!r}"
        assert record["level"] in LOG_LEVELS, record
        assert record["time"].endswith("Z") and "T" in record["time"], record


def poll(fn, want, seconds=10.0):
    deadline = time.monotonic() + seconds
    while True:
        got = fn()
        if got == want or time.monotonic() > deadline:
            return got
        time.sleep(0.1)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# --- metrics --------------------------------------------------------------------------

def test_metrics_parse_and_counts_move_with_requests(start_server, tmp_path, config_file):
    data = tmp_path / "metrics-data"
    big = create_key(data, config_file, "big", label="metrics big")
    tiny = create_key(data, config_file, "tiny", label="metrics tiny")
    quota3 = create_key(data, config_file, "quota3", label="metrics quota3")
    s = start_server(data)
    before = scrape(s)

    types = {name: f.type for name, f in before.items()}
    assert types == {**types,
                     "toolcalc_build_info": "gauge", "toolcalc_start_time_seconds": "gauge",
                     "toolcalc_requests": "counter",
                     "toolcalc_request_duration_seconds": "histogram",
                     "toolcalc_connections_open": "gauge",
                     "toolcalc_connections_accepted": "counter",
                     "toolcalc_connections_refused": "counter",
                     "toolcalc_store_round_trips": "counter", "toolcalc_store_failures": "counter",
                     "toolcalc_store_up": "gauge", "toolcalc_keys_cached": "gauge",
                     "toolcalc_key_reloads": "counter", "toolcalc_api_errors": "counter",
                     "toolcalc_limit_refusals": "counter",
                     "toolcalc_analysis_samples": "counter"}, types
    version = requests.get(s.url("/v1/health"), timeout=10).json()["result"]["version"]
    assert value(before, "toolcalc_build_info", version=version, store=support.STORE) == 1
    assert abs(value(before, "toolcalc_start_time_seconds") - time.time()) < 60
    assert value(before, "toolcalc_keys_cached") == 3
    assert value(before, "toolcalc_key_reloads") >= 1
    assert value(before, "toolcalc_store_up") == 1
    assert value(before, "toolcalc_analysis_samples") == 0
    assert value(before, "toolcalc_connections_open") >= 1  # the scrape's own connection

    for _ in range(7):
        assert execute(s, big).status_code == 200
    for _ in range(3):
        assert requests.get(s.url("/v1/tools"), timeout=10).status_code == 200
    tiny_status = [execute(s, tiny).status_code for _ in range(6)]
    assert tiny_status == [200] * 5 + [429], tiny_status
    quota_status = [execute(s, quota3).status_code for _ in range(4)]
    assert quota_status == [200] * 3 + [429], quota_status
    assert requests.get(s.url("/v1/nope"), timeout=10).status_code == 404
    tol = requests.post(s.url("/v1/electronics/voltage-divider/tolerance"),
                        json={"inputs": {"vin_v": 12, "r1_ohm": 10000, "r2_ohm": 10000},
                              "tolerances": {"r1_ohm": {"pct": 1}, "r2_ohm": {"pct": 1}}},
                        headers={"Authorization": f"Bearer {big}"}, timeout=30)
    assert tol.status_code == 200, tol.text
    evaluations = tol.json()["result"]["evaluations"]
    time.sleep(1.2)  # a key refresh polls the store at least once (key_refresh_ms)
    after = scrape(s)

    def delta(family, sample_name=None, **labels):
        return (value(after, family, sample_name, **labels) -
                value(before, family, sample_name, **labels))

    assert delta("toolcalc_requests", route="execute", tool=BATTERY_SLUG, status="2xx") == 15
    assert delta("toolcalc_requests", route="execute", tool=BATTERY_SLUG, status="4xx") == 1
    # a rate-limited request is refused before its tool is looked up
    assert delta("toolcalc_requests", route="execute", tool="", status="4xx") == 1
    assert delta("toolcalc_requests", route="tools", tool="", status="2xx") == 3
    assert delta("toolcalc_requests", route="not_found", tool="", status="4xx") == 1
    assert delta("toolcalc_requests", route="metrics", tool="", status="2xx") == 1
    hist = "toolcalc_request_duration_seconds"
    assert delta(hist, hist + "_count", kind="execute") == 17
    assert delta(hist, hist + "_count", kind="discovery") == 3
    assert delta(hist, hist + "_sum", kind="execute") > 0
    buckets = [(float(x.labels["le"]), x.value) for x in after[hist].samples
               if x.name == hist + "_bucket" and x.labels["kind"] == "execute"]
    assert [c for _, c in buckets] == sorted(c for _, c in buckets)  # cumulative
    assert buckets[-1] == (float("inf"), value(after, hist, hist + "_count", kind="execute"))
    assert delta("toolcalc_api_errors", code="RATE_LIMITED") == 1
    assert delta("toolcalc_api_errors", code="QUOTA_EXCEEDED") == 1
    assert delta("toolcalc_api_errors", code="NOT_FOUND") == 1
    assert delta("toolcalc_limit_refusals", limit="rate") == 1
    assert delta("toolcalc_limit_refusals", limit="quota") == 1
    assert delta("toolcalc_analysis_samples") == evaluations > 0
    assert delta("toolcalc_requests", route="tolerance", tool="voltage-divider", status="2xx") == 1
    assert delta(hist, hist + "_count", kind="analysis") == 1
    assert delta("toolcalc_store_round_trips") > 0
    assert delta("toolcalc_store_failures") == 0
    assert delta("toolcalc_connections_accepted") >= 1
    assert delta("toolcalc_connections_refused") == 0


def test_metrics_need_no_key_and_are_served_under_the_base_path(start_server):
    s = start_server(base_path="/svc")
    for url in (f"http://127.0.0.1:{s.port}/metrics", s.url("/metrics")):
        r = requests.get(url, headers={"Authorization": "Bearer nonsense"}, timeout=10)
        assert r.status_code == 200, (url, r.text)
        assert "toolcalc_requests_total" in r.text
    r = requests.post(s.url("/metrics"), timeout=10)
    assert r.status_code == 405 and r.headers["Allow"] == "GET, OPTIONS"


def test_connections_over_the_cap_are_counted(start_server, tmp_path):
    cfg = tmp_path / "cap.toml"
    cfg.write_text("[server]\nmax_connections = 2\n" + CONFIG_TOML)
    s = start_server(config=cfg)
    held = [socket.create_connection(("127.0.0.1", s.port)) for _ in range(2)]
    try:
        time.sleep(0.3)
        extra = socket.create_connection(("127.0.0.1", s.port))
        assert b" 503 " in extra.recv(4096).split(b"\r\n")[0]
        extra.close()
    finally:
        for c in held:
            c.close()
    time.sleep(0.3)
    m = scrape(s)
    assert value(m, "toolcalc_connections_refused") == 1
    assert value(m, "toolcalc_connections_accepted") >= 3


# --- readiness --------------------------------------------------------------------------

def test_ready_is_503_while_draining_and_health_stays_200(start_server, tmp_path):
    cfg = tmp_path / "drain.toml"
    cfg.write_text("[server]\ndrain_delay_s = 3\nshutdown_grace_s = 5\n" + CONFIG_TOML)
    s = start_server(config=cfg)
    r = requests.get(s.url("/v1/ready"), timeout=10)
    assert r.status_code == 200 and r.json()["result"] == {"status": "ready"}, r.text
    started = time.monotonic()
    s.proc.send_signal(signal.SIGTERM)
    assert poll(lambda: requests.get(s.url("/v1/ready"), timeout=5).status_code, 503, 2) == 503
    r = requests.get(s.url("/v1/ready"), timeout=5)
    assert r.json()["error"]["code"] == "NOT_READY" and "draining" in r.json()["error"]["message"]
    assert r.headers["Connection"] == "close"  # clients reconnect to an instance that stays
    h = requests.get(s.url("/v1/health"), timeout=5)
    assert h.status_code == 200, h.text  # liveness: restarting would not help
    assert s.proc.wait(timeout=15) == 0
    assert time.monotonic() - started >= 2.5  # served on for the drain delay
    assert s.wait_for_log(r"^draining", timeout=2)
    assert s.wait_for_log(r"^stopped$", timeout=2)
    assert_json_log(s)


def test_ready_follows_the_shared_store(tmp_path):
    redis = RedisServer().start()
    server = None
    try:
        cfg = tmp_path / "shared.toml"
        cfg.write_text(CONFIG_TOML + f'[store]\nbackend = "redis"\nurl = "{redis.url(0)}"\n'
                       "key_refresh_ms = 200\ntimeout_ms = 500\n")
        data = tmp_path / "unused"
        key = create_key(data, cfg, "big", label="ready") if not support.USE_REDIS else None
        if key is None:  # under TOOLCALC_STORE=redis create_key rewrites the config's store
            key = subprocess.run([BIN, "keys", "create", "--plan", "big", "--config", str(cfg)],
                                 capture_output=True, text=True, check=True).stdout.strip()
        server = Server(data, cfg, own_store=True).start()
        ready = lambda: requests.get(server.url("/v1/ready"), timeout=5).status_code  # noqa: E731
        assert ready() == 200
        assert execute(server, key).status_code == 200

        redis.stop()
        assert poll(ready, 503, 10) == 503
        r = requests.get(server.url("/v1/ready"), timeout=5).json()
        assert r["error"]["code"] == "NOT_READY" and "store" in r["error"]["message"], r
        assert requests.get(server.url("/v1/health"), timeout=5).status_code == 200
        assert execute(server, key).status_code == 503
        m = scrape(server)
        assert value(m, "toolcalc_store_up") == 0
        assert value(m, "toolcalc_store_failures") >= 1

        redis.start()
        assert poll(ready, 200, 10) == 200
        assert poll(lambda: execute(server, key).status_code, 200, 5) == 200
        assert value(scrape(server), "toolcalc_store_up") == 1
        assert server.stop() == 0
        assert server.wait_for_log(r"^key refresh failed", timeout=2)
        assert server.wait_for_log(r"^key refresh works again$", timeout=2)
        assert server.wait_for_log(r"^redis is unreachable", timeout=2)
        assert_json_log(server)
        everything = "\n".join(server.stdout_lines + server.stderr_lines)
        assert key[:12] in everything and key not in everything and key[12:] not in everything
    finally:
        if server:
            server.kill()
        redis.cleanup()


# --- configuration from the environment ------------------------------------------------

def test_environment_overrides_the_file_and_flags_override_the_environment(start_server,
                                                                          tmp_path):
    data = tmp_path / "env-data"
    cfg = tmp_path / "env.toml"
    cfg.write_text('[server]\nbase_path = "/file"\n' + CONFIG_TOML)
    key = create_key(data, cfg, "big", label="env")
    env = {"TOOLCALC_SERVER_BASE_PATH": "/env", "TOOLCALC_PLANS_BIG_RATE_PER_MINUTE": "77"}
    s = start_server(data, cfg, env=env)
    assert requests.get(s.url("/file/v1/health"), timeout=10).status_code == 404
    me = requests.get(s.url("/env/v1/me"), headers={"Authorization": f"Bearer {key}"}, timeout=10)
    assert me.status_code == 200, me.text
    assert me.json()["result"]["rate_limit_per_minute"] == 77
    assert me.headers["X-RateLimit-Limit"] == "77"
    s.kill()
    flagged = start_server(data, cfg, env=env, base_path="/flag")  # --base-path /flag
    assert requests.get(flagged.url("/v1/health"), timeout=10).status_code == 200
    assert requests.get(f"http://127.0.0.1:{flagged.port}/env/v1/health",
                        timeout=10).status_code == 404


def test_a_misspelt_variable_is_an_error_naming_it(tmp_path):
    r = subprocess.run([BIN, "serve", "--listen", "127.0.0.1:0", "--data", str(tmp_path)],
                       env={**os.environ, "TOOLCALC_SERVER_THREDS": "2"},
                       capture_output=True, text=True, timeout=20)
    assert r.returncode == 1
    lines = [parse_log_line(x) for x in r.stderr.splitlines()]
    assert len(lines) == 1 and lines[0] is not None, r.stderr
    assert lines[0]["level"] == "error" and lines[0]["msg"] == "cannot serve", lines
    assert "TOOLCALC_SERVER_THREDS" in lines[0]["error"], lines


def test_the_redis_password_comes_from_a_file(tmp_path):
    password = "s3cret-" + os.urandom(8).hex()
    redis = RedisServer().start()
    server = None
    try:
        assert redis.command("CONFIG", "SET", "requirepass", password) == "OK"
        cfg = tmp_path / "pw.toml"
        cfg.write_text(CONFIG_TOML + f'[store]\nbackend = "redis"\nurl = "{redis.url(0)}"\n')
        secret = tmp_path / "redis-password"
        secret.write_text(password + "\n")
        env = {**os.environ, "TOOLCALC_STORE_PASSWORD_FILE": str(secret)}
        r = subprocess.run([BIN, "keys", "create", "--plan", "big", "--config", str(cfg)],
                           env=env, capture_output=True, text=True, timeout=20)
        assert r.returncode == 0, r.stderr
        key = r.stdout.strip()
        server = Server(tmp_path / "unused", cfg, own_store=True,
                        env={"TOOLCALC_STORE_PASSWORD_FILE": str(secret)}).start()
        assert execute(server, key).status_code == 200
        assert server.stop() == 0
        everything = "\n".join(server.stdout_lines + server.stderr_lines)
        assert password not in everything

        # without it, Redis refuses: the server does not start and says why in one line
        r = subprocess.run([BIN, "serve", "--listen", "127.0.0.1:0", "--config", str(cfg)],
                           capture_output=True, text=True, timeout=20,
                           env={k: v for k, v in os.environ.items()
                                if not k.startswith("TOOLCALC_STORE_")})
        assert r.returncode == 1
        record = parse_log_line(r.stderr.strip().splitlines()[-1])
        assert record["level"] == "error" and "NOAUTH" in record["error"], r.stderr
        assert password not in r.stderr
    finally:
        if server:
            server.kill()
        redis.cleanup()


# --- the operational log ------------------------------------------------------------------

def test_log_level_warn_leaves_out_start_and_stop(tmp_path):
    port = free_port()
    proc = subprocess.Popen([BIN, "serve", "--listen", f"127.0.0.1:{port}", "--data",
                             str(tmp_path), "--threads", "1", "--log-level", "warn"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        assert poll(lambda: _health(port), 200, 15) == 200
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=15)
        assert proc.returncode == 0
        assert err == "", err
    finally:
        if proc.poll() is None:
            proc.kill()
    # debug from the environment: the effective settings, then start and stop, all JSON
    env = {**os.environ, "TOOLCALC_SERVER_LOG_LEVEL": "debug"}
    proc = subprocess.Popen([BIN, "serve", "--listen", f"127.0.0.1:{port}", "--data",
                             str(tmp_path), "--threads", "1"], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    assert poll(lambda: _health(port), 200, 15) == 200
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=15)
    records = [json.loads(line) for line in err.splitlines()]
    msgs = [r["msg"] for r in records]
    assert msgs[:3] == ["configuration", "keys loaded", f"listening on 127.0.0.1:{port}"], msgs
    assert records[0]["level"] == "debug" and records[0]["listen"] == f"127.0.0.1:{port}"
    assert msgs[-1] == "stopped", msgs
    assert {r["level"] for r in records} <= set(LOG_LEVELS)


def _health(port):
    try:
        return requests.get(f"http://127.0.0.1:{port}/v1/health", timeout=2).status_code
    except requests.ConnectionError:
        return None

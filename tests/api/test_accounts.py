"""Accounts over HTTP (spec §5 and §8): keys, 401s, /v1/me, the per-minute rate
limit, the monthly quota, revocation and persistence across a restart.

Every test here needs `toolcalc keys`; they are skipped, with the reason, until it exists."""
import json
import re
import signal
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone

import pytest
import requests

from support import (ANON_RATE, BATTERY, BATTERY_DEFAULTS, BIG_QUOTA, BIG_RATE, BOGUS_KEY, COST,
                     COST_REQUIRED, KEYS_AVAILABLE, MOSFET, MOSFET_DEFAULTS, NO_KEYS_REASON, PCB,
                     SQLITE_ONLY_REASON, USE_REDIS, Client, check_common_headers, check_error,
                     check_ok_result, check_success, create_key, header_int, revoke_key, run_cli)

pytestmark = pytest.mark.skipif(not KEYS_AVAILABLE, reason=NO_KEYS_REASON)

ISO_UTC_RE = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$")


def next_month_start(now=None):
    now = now or datetime.now(timezone.utc)
    y, m = (now.year + 1, 1) if now.month == 12 else (now.year, now.month + 1)
    return datetime(y, m, 1, tzinfo=timezone.utc)


def guard_rate_window(margin=6.0):
    """Sleep into the next clock-aligned minute when too little of this one is left."""
    left = 60 - time.time() % 60
    if left < margin:
        time.sleep(left + 0.2)


def check_401(r, message, api, **kw):
    err = check_error(r, 401, "UNAUTHORIZED", api.accounts, message=message, **kw)
    assert r.headers.get("WWW-Authenticate", "").split(" ")[0] == "Bearer"
    return err


# --- authentication ---------------------------------------------------------------------------

def test_missing_key_on_execute(api):
    r = api.post(BATTERY, BATTERY_DEFAULTS, key=None)
    check_401(r, "missing API key", api)
    assert header_int(r, "X-RateLimit-Limit") == ANON_RATE


def test_missing_key_on_me(api, service_version):
    check_401(api.get("/v1/me"), "missing API key", api, service_version=service_version)


@pytest.mark.parametrize("auth", [
    f"Bearer {BOGUS_KEY}", "Bearer abc", "Bearer ", "Bearer tc_live_short",
    f"Bearer {BOGUS_KEY}extra", f"Basic {BOGUS_KEY}", "tc_live_" + "a" * 32,
])
def test_invalid_key(api, auth):
    for r in (api.post(BATTERY, BATTERY_DEFAULTS, key=None, headers={"Authorization": auth}),
              api.get("/v1/me", headers={"Authorization": auth})):
        check_401(r, "invalid API key", api)


def test_real_key_with_one_character_changed_is_invalid(api):
    key = api.keys["main"]
    flipped = key[:-1] + ("A" if key[-1] != "A" else "B")
    check_401(api.post(BATTERY, BATTERY_DEFAULTS, key=flipped), "invalid API key", api)
    check_401(api.post(BATTERY, BATTERY_DEFAULTS, key=key[:-1]), "invalid API key", api)


def test_auth_is_checked_before_validation(api):
    check_401(api.post(BATTERY, {"nope": 1}, key=BOGUS_KEY), "invalid API key", api)
    check_401(api.post(BATTERY, raw="{", key=None), "missing API key", api)


def test_discovery_without_key_is_on_anonymous_plan(api):
    for path in ["/v1/tools", "/v1/domains", "/v1/tools/pcb-trace-width", PCB + "/schema"]:
        r = api.get(path)
        assert r.status_code == 200
        check_common_headers(r, True)
        assert header_int(r, "X-RateLimit-Limit") == ANON_RATE


def test_discovery_with_key_is_on_the_key_plan(api):
    for path in ["/v1/tools", "/v1/domains", PCB + "/schema"]:
        r = api.get(path, key=api.key)
        assert r.status_code == 200
        assert header_int(r, "X-RateLimit-Limit") == BIG_RATE


def test_health_and_preflight_are_not_counted(api):
    guard_rate_window(margin=3)
    before = api.get("/v1/tools")
    for _ in range(3):
        assert api.get("/v1/health").status_code == 200
        assert api.request("OPTIONS", BATTERY).status_code == 204
    after = api.get("/v1/tools")
    assert header_int(after, "X-RateLimit-Reset") == header_int(before, "X-RateLimit-Reset")
    assert header_int(after, "X-RateLimit-Remaining") == \
        header_int(before, "X-RateLimit-Remaining") - 1


# --- /v1/me and quota_remaining ----------------------------------------------------------------

def test_me_reports_plan_prefix_label_and_usage(api, service_version):
    key = api.keys["me"]
    now = datetime.now(timezone.utc)
    check_success(api.post(BATTERY, BATTERY_DEFAULTS, key=key), True)
    check_success(api.post(MOSFET, MOSFET_DEFAULTS, key=key), True)
    api.post(BATTERY, {}, key=key)                                           # 400
    api.post(BATTERY, {**BATTERY_DEFAULTS, "wake_duration_ms": 61000}, key=key)  # 422
    api.post("/v1/iot-mcu/nope", {}, key=key)                                # 404
    r = api.get("/v1/me", key=key)
    me = check_ok_result(r, True, service_version=service_version)
    assert list(me) == ["plan", "key_prefix", "label", "rate_limit_per_minute", "quota",
                        "limits"]
    assert me["limits"] == {"rate_per_minute": {"value": BIG_RATE, "source": "plan"},
                            "monthly_quota": {"value": BIG_QUOTA, "source": "plan"}}
    assert me["plan"] == "big"
    assert me["key_prefix"] == key[:12] and me["key_prefix"].startswith("tc_live_")
    assert me["label"] == "me key"
    assert me["rate_limit_per_minute"] == BIG_RATE
    q = me["quota"]
    assert list(q) == ["limit", "used", "remaining", "period", "resets_at"]
    assert (q["limit"], q["used"], q["remaining"]) == (BIG_QUOTA, 2, BIG_QUOTA - 2)
    assert q["period"] == now.strftime("%Y-%m")
    assert ISO_UTC_RE.match(q["resets_at"])
    assert q["resets_at"] == next_month_start(now).strftime("%Y-%m-%dT%H:%M:%SZ")
    assert key not in r.text  # the key itself is never echoed


def test_quota_remaining_counts_down(api):
    key = api.keys["other"]
    seen = []
    for path, body in [(BATTERY, BATTERY_DEFAULTS), (COST, COST_REQUIRED),
                       (MOSFET, MOSFET_DEFAULTS)]:
        seen.append(check_success(api.post(path, body, key=key), True)["meta"]["quota_remaining"])
        check_error(api.post(path, {}, key=key), 400, "VALIDATION_ERROR", True,
                    field=next(iter(body)))
    assert seen == [BIG_QUOTA - 1, BIG_QUOTA - 2, BIG_QUOTA - 3]


# --- rate limit --------------------------------------------------------------------------------

def test_rate_limit_sixth_call_in_window_is_429(api):
    key = api.keys["tiny"]
    guard_rate_window()
    window_end = (int(time.time()) // 60 + 1) * 60
    # every counted request uses a unit, including 4xx ones
    calls = [api.post(BATTERY, BATTERY_DEFAULTS, key=key),
             api.post(BATTERY, {"x": 1}, key=key),
             api.post("/v1/iot-mcu/nope", {}, key=key),
             api.get("/v1/me", key=key),
             api.post(MOSFET, MOSFET_DEFAULTS, key=key)]
    assert [c.status_code for c in calls] == [200, 400, 404, 200, 200]
    for i, c in enumerate(calls):
        assert header_int(c, "X-RateLimit-Limit") == 5
        assert header_int(c, "X-RateLimit-Remaining") == 4 - i
        assert header_int(c, "X-RateLimit-Reset") == window_end
    r = api.post(BATTERY, BATTERY_DEFAULTS, key=key)
    err = check_error(r, 429, "RATE_LIMITED", True)
    assert "5" in err["message"]
    retry = header_int(r, "Retry-After")
    assert 1 <= retry <= 60
    assert abs(time.time() + retry - window_end) <= 2
    assert header_int(r, "X-RateLimit-Remaining") == 0
    assert header_int(r, "X-RateLimit-Limit") == 5
    assert header_int(r, "X-RateLimit-Reset") == window_end
    # still limited, on discovery too; health and preflight are never limited
    check_error(api.get("/v1/tools", key=key), 429, "RATE_LIMITED", True)
    check_error(api.get("/v1/me", key=key), 429, "RATE_LIMITED", True)
    assert api.get("/v1/health", key=key).status_code == 200
    assert api.request("OPTIONS", BATTERY, key=key).status_code == 204
    # other keys are not affected
    check_success(api.post(BATTERY, BATTERY_DEFAULTS), True)


# --- monthly quota -----------------------------------------------------------------------------

def test_quota_exhaustion_is_429_and_failures_do_not_consume(api):
    key = api.keys["quota3"]
    # 400 and 422 do not consume quota
    check_error(api.post(BATTERY, {}, key=key), 400, "VALIDATION_ERROR", True,
                field="battery_capacity_mah")
    check_error(api.post(BATTERY, {**BATTERY_DEFAULTS, "wake_duration_ms": 61000}, key=key),
                422, "UNPROCESSABLE", True, field="wake_duration_ms")
    check_error(api.post(BATTERY, BATTERY_DEFAULTS, key=key, content_type="text/plain"), 415,
                "UNSUPPORTED_MEDIA_TYPE", True)
    remaining = [check_success(api.post(BATTERY, BATTERY_DEFAULTS, key=key), True)
                 ["meta"]["quota_remaining"] for _ in range(3)]
    assert remaining == [2, 1, 0]
    r = api.post(BATTERY, BATTERY_DEFAULTS, key=key)
    err = check_error(r, 429, "QUOTA_EXCEEDED", True)
    resets = next_month_start()
    assert resets.strftime("%Y-%m-%dT%H:%M:%SZ") in err["message"]
    retry = header_int(r, "Retry-After")
    assert abs(retry - (resets - datetime.now(timezone.utc)).total_seconds()) <= 5
    # a validation error is still a 400 (inputs are checked before the quota)
    check_error(api.post(BATTERY, {}, key=key), 400, "VALIDATION_ERROR", True,
                field="battery_capacity_mah")
    # discovery still works, and /v1/me tells the story
    assert api.get("/v1/tools", key=key).status_code == 200
    q = api.get("/v1/me", key=key).json()["result"]["quota"]
    assert (q["limit"], q["used"], q["remaining"]) == (3, 3, 0)


# --- exactness under concurrency -------------------------------------

def fire_concurrently(api, key, n):
    """n execute calls released together, each on its own connection; their statuses."""
    barrier = threading.Barrier(n)
    url = api.server.url(BATTERY)
    headers = {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}
    body = json.dumps(BATTERY_DEFAULTS)

    def one(_):
        with requests.Session() as s:
            barrier.wait(timeout=10)
            r = s.post(url, data=body, headers=headers, timeout=15)
            return r.status_code, (r.json().get("error") or {}).get("code")

    with ThreadPoolExecutor(max_workers=n) as pool:
        return list(pool.map(one, range(n)))


def test_rate_limit_exact_under_concurrency(api):
    guard_rate_window()
    results = fire_concurrently(api, api.keys["burst20"], 40)
    assert results.count((200, None)) == 20, results
    assert results.count((429, "RATE_LIMITED")) == 20, results


def test_quota_exact_under_concurrency(api):
    results = fire_concurrently(api, api.keys["quota10"], 30)
    assert results.count((200, None)) == 10, results
    assert results.count((429, "QUOTA_EXCEEDED")) == 20, results
    q = api.get("/v1/me", key=api.keys["quota10"]).json()["result"]["quota"]
    assert (q["used"], q["remaining"]) == (10, 0)


# --- keys CLI and a running server ----------------------------------------------------------

def test_revoked_key_is_refused_within_two_seconds(api):
    key = api.keys["revoke"]
    check_success(api.post(BATTERY, BATTERY_DEFAULTS, key=key), True)
    out = revoke_key(api.data_dir, api.config, key).stdout
    assert key[:12] in out
    t0 = time.monotonic()
    while True:
        r = api.post(BATTERY, BATTERY_DEFAULTS, key=key)
        if r.status_code == 401 or time.monotonic() - t0 > 3:
            break
        time.sleep(0.1)
    check_401(r, "invalid API key", api)
    assert time.monotonic() - t0 <= 3
    check_401(api.get("/v1/me", key=key), "invalid API key", api)


def test_new_key_is_accepted_within_two_seconds(api):
    key = create_key(api.data_dir, api.config, "big", label="late key")
    t0 = time.monotonic()
    while True:
        r = api.get("/v1/me", key=key)
        if r.status_code == 200 or time.monotonic() - t0 > 3:
            break
        time.sleep(0.1)
    assert r.status_code == 200, r.text
    assert r.json()["result"]["label"] == "late key"


def test_keys_list_shows_keys_without_secrets(api):
    r = run_cli("keys", "list", "--data", str(api.data_dir), "--config", str(api.config))
    lines = r.stdout.splitlines()
    for label, key in api.keys.items():
        row = [ln for ln in lines if key[:12] in ln]
        assert len(row) == 1, (label, lines)
        assert f"{label} key" in row[0]
        assert key not in r.stdout
    tiny_row = next(ln for ln in lines if api.keys["tiny"][:12] in ln)
    assert "tiny" in tiny_row


def test_keys_create_unknown_plan_lists_plans(api):
    r = run_cli("keys", "create", "--plan", "nosuchplan", "--data", str(api.data_dir),
                "--config", str(api.config), check=False)
    assert r.returncode != 0 and r.stdout.strip() == ""
    for plan in ("free", "pro", "business", "tiny", "quota3"):
        assert plan in r.stderr, r.stderr


@pytest.mark.skipif(USE_REDIS, reason=SQLITE_ONLY_REASON + " (test_secrets.py)")
def test_data_dir_holds_no_plaintext_key(api):
    check_success(api.post(BATTERY, BATTERY_DEFAULTS), True)
    blobs = b"".join(p.read_bytes() for p in api.data_dir.rglob("*") if p.is_file())
    assert blobs, "the data directory is empty"
    for key in api.keys.values():
        assert key.encode() not in blobs
        assert key[12:].encode() not in blobs


def test_restart_keeps_the_month_usage(start_server, tmp_path, config_file):
    data = tmp_path / "persist"
    key = create_key(data, config_file, "big", label="persist")
    s = start_server(data_dir=data)
    c = Client(s, {"main": key}, accounts=True)
    for _ in range(2):
        check_success(c.post(BATTERY, BATTERY_DEFAULTS), True)
    assert c.get("/v1/me", key=key).json()["result"]["quota"]["used"] == 2
    c.session.close()
    assert s.stop() == 0
    s2 = start_server(data_dir=data)
    c2 = Client(s2, {"main": key}, accounts=True)
    assert c2.get("/v1/me", key=key).json()["result"]["quota"]["used"] == 2
    body = check_success(c2.post(BATTERY, BATTERY_DEFAULTS), True)
    assert body["meta"]["quota_remaining"] == BIG_QUOTA - 3
    c2.session.close()
    assert s2.stop() == 0


def test_server_output_never_shows_a_key(api):
    # the key is shown once by `keys create`, never logged
    check_success(api.post(BATTERY, BATTERY_DEFAULTS), True)
    r = api.post(BATTERY, BATTERY_DEFAULTS, key=BOGUS_KEY)
    check_401(r, "invalid API key", api)
    # Access-log lines are written in batches, within a second: wait for this one's.
    assert api.server.wait_for_line(re.escape(r.headers["X-Request-ID"]), timeout=5)
    output = "\n".join(api.server.stdout_lines + api.server.stderr_lines)
    for key in list(api.keys.values()) + [BOGUS_KEY]:
        assert key not in output
        assert key[12:] not in output


def test_usage_survives_kill_9_right_after_the_answers(start_server, tmp_path, config_file):
    data = tmp_path / "kill9"
    key = create_key(data, config_file, "big", label="kill9")
    s = start_server(data_dir=data)
    c = Client(s, {"main": key}, accounts=True)
    for _ in range(3):
        check_success(c.post(BATTERY, BATTERY_DEFAULTS), True)
    # Analyses finish later, on the analysis pool: their 200s wait for the commit too.
    divider = "/v1/electronics/voltage-divider"
    inputs = {"vin_v": 12, "r1_ohm": 10000, "r2_ohm": 10000}
    tol = c.post(divider + "/tolerance", {"inputs": inputs, "samples": 2500,
                                          "tolerances": {"r1_ohm": {"pct": 1},
                                                         "r2_ohm": {"pct": 1}}})
    assert tol.status_code == 200, tol.text
    assert tol.json()["result"]["evaluations"] == 2509  # 3 units
    solve = c.post(divider + "/solve", {"inputs": inputs, "vary": "r2_ohm",
                                        "target": {"output": "vout_v", "value": 3.3}})
    assert solve.status_code == 200, solve.text  # 1 unit
    c.session.close()
    # No wait for a flush: each 200 was sent once its count was in the store.
    s.proc.send_signal(signal.SIGKILL)
    s.proc.wait(timeout=10)
    s2 = start_server(data_dir=data)
    c2 = Client(s2, {"main": key}, accounts=True)
    assert c2.get("/v1/me", key=key).json()["result"]["quota"]["used"] == 3 + 3 + 1
    c2.session.close()
    assert s2.stop() == 0

"""`toolcalc keys rotate` and per-key limits (`keys create`/`keys update` with --plan,
--rate-per-minute, --monthly-quota) against a running server, on either store
(docs/operations.md, "Rotating a key" and "Per-key limits")."""
import re
import time
from datetime import datetime, timezone

import pytest

from support import (BATTERY, BATTERY_DEFAULTS, BIG_QUOTA, BIG_RATE, KEYS_AVAILABLE, LIVE_KEY_RE,
                     NO_KEYS_REASON, Client, check_error, check_ok_result, check_success,
                     create_key, header_int, revoke_key, run_cli)

pytestmark = pytest.mark.skipif(not KEYS_AVAILABLE, reason=NO_KEYS_REASON)


def keys(api, *args, check=True):
    return run_cli("keys", *args, "--data", str(api.data_dir), "--config", str(api.config),
                   check=check)


def status_within(api, key, want, timeout=3.0, path="/v1/me"):
    """Polls `path` with `key` until it answers `want` (the server reloads keys within
    store.key_refresh_ms, 1 s); returns the last response."""
    t0 = time.monotonic()
    while True:
        r = api.get(path, key=key)
        if r.status_code == want or time.monotonic() - t0 > timeout:
            return r
        time.sleep(0.1)


def me(api, key):
    return check_ok_result(api.get("/v1/me", key=key), True)


# --- rotation ------------------------------------------------------------------------------

def test_rotate_keeps_the_record_and_the_old_secret_works_until_the_grace_ends(api):
    old = create_key(api.data_dir, api.config, "big", label="rotating")
    assert status_within(api, old, 200).status_code == 200
    for _ in range(3):
        check_success(api.post(BATTERY, BATTERY_DEFAULTS, key=old), True)
    before = me(api, old)
    assert before["quota"]["used"] == 3

    r = keys(api, "rotate", old[:12], "--grace", "4s")
    new = r.stdout.strip()
    assert LIVE_KEY_RE.match(new) and r.stdout == new + "\n"
    assert new != old and new[:12] == old[:12], "a rotated key keeps its prefix"
    assert "accepted until" in r.stderr and new not in r.stderr
    rotated_at = time.monotonic()

    assert status_within(api, new, 200).status_code == 200
    after = me(api, new)
    assert after == before, "same prefix, plan, label, limits and month-to-date usage"
    # Both secrets work during the grace period and count against the same month.
    body = check_success(api.post(BATTERY, BATTERY_DEFAULTS, key=old), True)
    assert body["meta"]["quota_remaining"] == BIG_QUOTA - 4
    body = check_success(api.post(BATTERY, BATTERY_DEFAULTS, key=new), True)
    assert body["meta"]["quota_remaining"] == BIG_QUOTA - 5
    assert me(api, old)["quota"]["used"] == 5

    # Then the old one is refused with 401, the new one goes on.
    time.sleep(max(0.0, 4.0 - (time.monotonic() - rotated_at)))
    r = status_within(api, old, 401, timeout=2.0)
    check_error(r, 401, "UNAUTHORIZED", True, message="invalid API key")
    check_error(api.post(BATTERY, BATTERY_DEFAULTS, key=old), 401, "UNAUTHORIZED", True)
    assert me(api, new)["quota"]["used"] == 5


def test_rotate_with_grace_0_refuses_the_old_secret_at_once(api):
    old = create_key(api.data_dir, api.config, "big", label="rotate now")
    assert status_within(api, old, 200).status_code == 200
    r = keys(api, "rotate", old[:12], "--grace", "0")
    new = r.stdout.strip()
    assert "the old secret is refused from now on" in r.stderr
    check_error(status_within(api, old, 401), 401, "UNAUTHORIZED", True)
    assert status_within(api, new, 200).status_code == 200


def test_rotate_default_grace_is_24_hours(api):
    old = create_key(api.data_dir, api.config, "big", label="rotate default")
    r = keys(api, "rotate", old[:12])
    m = re.search(r"accepted until (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)", r.stderr)
    assert m, r.stderr
    until = datetime.strptime(m.group(1), "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)
    assert abs(until.timestamp() - (time.time() + 86400)) <= 5
    assert status_within(api, old, 200).status_code == 200  # still in its grace period


def test_rotate_refusals(api):
    r = keys(api, "rotate", "tc_live_ZZZZ", check=False)
    assert r.returncode == 1 and "no key with prefix 'tc_live_ZZZZ'" in r.stderr
    assert r.stdout == ""
    k = create_key(api.data_dir, api.config, "big", label="rotate revoked")
    revoke_key(api.data_dir, api.config, k)
    r = keys(api, "rotate", k[:12], check=False)
    assert r.returncode == 1 and "revoked" in r.stderr and r.stdout == ""
    for bad in ("24", "1w", "-1h", "31d", "h"):
        r = keys(api, "rotate", k[:12], "--grace", bad, check=False)
        assert r.returncode == 1 and "grace" in r.stderr, (bad, r.stderr)


# --- per-key limits ------------------------------------------------------------------------

def test_key_limits_override_the_plan_and_me_says_where_each_comes_from(api):
    key = create_key(api.data_dir, api.config, "big", label="custom")
    assert status_within(api, key, 200).status_code == 200
    assert me(api, key)["limits"] == {"rate_per_minute": {"value": BIG_RATE, "source": "plan"},
                                      "monthly_quota": {"value": BIG_QUOTA, "source": "plan"}}

    # Each update reaches the server with its next key refresh (1 s); the key's own window
    # of 7 is not spent on polling.
    keys(api, "update", key[:12], "--rate-per-minute", "7", "--monthly-quota", "2")
    time.sleep(1.5)
    m = me(api, key)
    assert m["plan"] == "big" and m["rate_limit_per_minute"] == 7
    assert m["limits"] == {"rate_per_minute": {"value": 7, "source": "key"},
                           "monthly_quota": {"value": 2, "source": "key"}}
    assert (m["quota"]["limit"], m["quota"]["remaining"]) == (2, 2)
    r = api.post(BATTERY, BATTERY_DEFAULTS, key=key)
    assert check_success(r, True)["meta"]["quota_remaining"] == 1
    assert header_int(r, "X-RateLimit-Limit") == 7
    check_success(api.post(BATTERY, BATTERY_DEFAULTS, key=key), True)
    check_error(api.post(BATTERY, BATTERY_DEFAULTS, key=key), 429, "QUOTA_EXCEEDED", True)

    # Another plan; the rate back to the plan's, the quota still the key's.
    keys(api, "update", key[:12], "--plan", "burst20", "--rate-per-minute", "plan")
    time.sleep(1.5)
    m = me(api, key)
    assert m["limits"] == {"rate_per_minute": {"value": 20, "source": "plan"},
                           "monthly_quota": {"value": 2, "source": "key"}}
    keys(api, "update", key[:12], "--monthly-quota", "plan")
    time.sleep(1.5)
    m = me(api, key)
    assert m["limits"]["monthly_quota"] == {"value": 1000, "source": "plan"}
    assert m["quota"]["used"] == 2  # the usage stays with the key

    listed = keys(api, "list").stdout
    row = next(ln for ln in listed.splitlines() if key[:12] in ln)
    assert "burst20" in row and "custom" in row


def test_keys_create_takes_the_limits(api):
    r = run_cli("keys", "create", "--plan", "tiny", "--rate-per-minute", "9", "--monthly-quota",
                "50", "--label", "made custom", "--data", str(api.data_dir), "--config",
                str(api.config))
    key = r.stdout.strip()
    assert LIVE_KEY_RE.match(key)
    assert status_within(api, key, 200).status_code == 200
    m = me(api, key)
    assert m["limits"] == {"rate_per_minute": {"value": 9, "source": "key"},
                           "monthly_quota": {"value": 50, "source": "key"}}
    row = next(ln for ln in keys(api, "list").stdout.splitlines() if key[:12] in ln)
    assert "9 (key)" in row and "50 (key)" in row


@pytest.mark.parametrize("args, part", [
    (["--rate-per-minute", "0"], "rate_per_minute must be an integer from 1 to 100000000"),
    (["--rate-per-minute", "fast"], "--rate-per-minute must be an integer, or 'plan'"),
    (["--monthly-quota", "-1"], "monthly_quota must be an integer from 0"),
    (["--plan", "anonymous"], "unknown plan 'anonymous'"),
    (["--plan", "gold"], "unknown plan 'gold'"),
    (["--webhook-url", "ftp://x"], "https:// or http://"),
    ([], "nothing to change"),
])
def test_keys_update_refuses_bad_values(api, args, part):
    key = create_key(api.data_dir, api.config, "big", label="update refusals")
    r = keys(api, "update", key[:12], *args, check=False)
    assert r.returncode == 1 and part in r.stderr, r.stderr
    assert r.stdout == ""


def test_keys_update_unknown_or_revoked(api):
    r = keys(api, "update", "tc_live_ZZZZ", "--plan", "big", check=False)
    assert r.returncode == 1 and "no key with prefix" in r.stderr
    key = create_key(api.data_dir, api.config, "big", label="update revoked")
    revoke_key(api.data_dir, api.config, key)
    r = keys(api, "update", key[:12], "--plan", "tiny", check=False)
    assert r.returncode == 1 and "revoked" in r.stderr


def test_per_key_limits_survive_a_restart(start_server, tmp_path, config_file):
    data = tmp_path / "limits"
    key = create_key(data, config_file, "big", label="limits restart")
    run_cli("keys", "update", key[:12], "--monthly-quota", "3", "--data", str(data), "--config",
            str(config_file))
    s = start_server(data_dir=data)
    c = Client(s, {"main": key}, accounts=True)
    check_success(c.post(BATTERY, BATTERY_DEFAULTS), True)
    assert s.stop() == 0
    c2 = Client(start_server(data_dir=data), {"main": key}, accounts=True)
    m = check_ok_result(c2.get("/v1/me", key=key), True)
    assert m["quota"] == {**m["quota"], "limit": 3, "used": 1, "remaining": 2}
    assert m["limits"]["monthly_quota"] == {"value": 3, "source": "key"}

"""RateLimit-Policy and RateLimit (draft-ietf-httpapi-ratelimit-headers-09, docs/api.md
"Headers") over HTTP, on either store: the "minute" policy is the per-minute window and
agrees with X-RateLimit-*, the "month" policy is the calendar month's quota and agrees with
meta.quota_remaining and /v1/me. support.check_common_headers checks the agreement on every
response of the suite; these tests pin the values in each case."""
import calendar
import time
from datetime import datetime, timezone

import pytest

from support import (ANON_RATE, BATTERY, BATTERY_DEFAULTS, BIG_QUOTA, BIG_RATE, KEYS_AVAILABLE,
                     NO_KEYS_REASON, Client, check_error, check_ok_result, check_success,
                     create_key, header_int, ratelimit_fields)

pytestmark = pytest.mark.skipif(not KEYS_AVAILABLE, reason=NO_KEYS_REASON)

SWEEP = BATTERY + "/sweep"


def month_bounds(now=None):
    """(seconds in this UTC month, seconds until it ends)."""
    now = now or time.time()
    d = datetime.fromtimestamp(now, timezone.utc)
    start = datetime(d.year, d.month, 1, tzinfo=timezone.utc).timestamp()
    days = calendar.monthrange(d.year, d.month)[1]
    return days * 86400, start + days * 86400 - now


def wait_for_key(c, key, timeout=3.0):
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        if c.get("/v1/me", key=key).status_code == 200:
            return
        time.sleep(0.1)
    raise AssertionError("the new key was not accepted within 3 s")


def check_month(r, quota, remaining):
    policy, limit = ratelimit_fields(r)
    window, left = month_bounds()
    assert policy["month"] == {"q": quota, "w": window}, policy
    assert limit["month"]["r"] == remaining, limit
    assert abs(limit["month"]["t"] - left) <= 2, (limit, left)


def test_execute_names_both_policies_with_the_envelope_values(api):
    key = create_key(api.data_dir, api.config, "big", label="rl headers")
    wait_for_key(api, key)
    r = api.post(BATTERY, BATTERY_DEFAULTS, key=key)
    body = check_success(r, True)
    assert body["meta"]["quota_remaining"] == BIG_QUOTA - 1
    policy, limit = ratelimit_fields(r)
    assert list(policy) == ["minute", "month"] and list(limit) == ["minute", "month"]
    assert policy["minute"] == {"q": BIG_RATE, "w": 60}
    assert limit["minute"]["r"] == header_int(r, "X-RateLimit-Remaining")
    check_month(r, BIG_QUOTA, BIG_QUOTA - 1)
    # The raw field values, as a structured-field parser reads them.
    assert r.headers["RateLimit-Policy"] == \
        f'"minute";q={BIG_RATE};w=60, "month";q={BIG_QUOTA};w={month_bounds()[0]}'
    assert r.headers["RateLimit"].startswith(
        f'"minute";r={header_int(r, "X-RateLimit-Remaining")};t=')

    # Discovery and /v1/me with the key: the month as it stands, unchanged by them.
    check_month(api.get("/v1/tools", key=key), BIG_QUOTA, BIG_QUOTA - 1)
    r = api.get("/v1/me", key=key)
    me = check_ok_result(r, True)
    assert me["quota"]["remaining"] == BIG_QUOTA - 1
    check_month(r, BIG_QUOTA, me["quota"]["remaining"])

    # 400 and 422 use no quota: the month is where it was.
    r = api.post(BATTERY, {}, key=key)
    check_error(r, 400, "VALIDATION_ERROR", True, field="battery_capacity_mah")
    check_month(r, BIG_QUOTA, BIG_QUOTA - 1)
    r = api.post(BATTERY, {**BATTERY_DEFAULTS, "wake_duration_ms": 61000}, key=key)
    check_error(r, 422, "UNPROCESSABLE", True, field="wake_duration_ms")
    check_month(r, BIG_QUOTA, BIG_QUOTA - 1)

    # A sweep: one unit per point with a result.
    inputs = {k: v for k, v in BATTERY_DEFAULTS.items() if k != "cycle_period_s"}
    r = api.post(SWEEP, {"inputs": inputs,
                         "vary": {"key": "cycle_period_s", "from": 30, "to": 120, "points": 4}},
                 key=key)
    assert check_success(r, True)["meta"]["quota_remaining"] == BIG_QUOTA - 5
    check_month(r, BIG_QUOTA, BIG_QUOTA - 5)


def test_anonymous_callers_have_only_the_minute_policy(api):
    r = api.get("/v1/tools")
    policy, limit = ratelimit_fields(r)
    assert policy == {"minute": {"q": ANON_RATE, "w": 60}}
    assert list(limit) == ["minute"]
    # Health and preflight are not counted but show the window the same way.
    for r in (api.get("/v1/health"), api.request("OPTIONS", BATTERY)):
        policy, limit = ratelimit_fields(r)
        assert policy == {"minute": {"q": ANON_RATE, "w": 60}}
        assert limit["minute"]["r"] == header_int(r, "X-RateLimit-Remaining")


def test_exposed_to_browsers(api):
    exposed = [h.strip() for h in
               api.get("/v1/tools").headers["Access-Control-Expose-Headers"].split(",")]
    assert "RateLimit-Policy" in exposed and "RateLimit" in exposed


def test_rate_limited_response_has_t_equal_to_retry_after(start_server, tmp_path, config_file):
    data = tmp_path / "rl429"
    key = create_key(data, config_file, "tiny", label="tiny rl")
    c = Client(start_server(data_dir=data), {"main": key}, accounts=True)
    left = 60 - time.time() % 60
    if left < 5:
        time.sleep(left + 0.2)
    for _ in range(5):
        check_success(c.post(BATTERY, BATTERY_DEFAULTS), True)
    r = c.post(BATTERY, BATTERY_DEFAULTS)
    check_error(r, 429, "RATE_LIMITED", True)
    policy, limit = ratelimit_fields(r)
    assert policy["minute"] == {"q": 5, "w": 60}
    assert limit["minute"]["r"] == 0
    assert abs(limit["minute"]["t"] - header_int(r, "Retry-After")) <= 1
    # The month still shows: 5 executions of the tiny plan's 1000.
    check_month(r, 1000, 995)
    c.session.close()


def test_quota_exceeded_response_shows_an_empty_month(start_server, tmp_path, config_file):
    data = tmp_path / "rlquota"
    key = create_key(data, config_file, "quota3", label="quota rl")
    c = Client(start_server(data_dir=data), {"main": key}, accounts=True)
    for left in (2, 1, 0):
        r = c.post(BATTERY, BATTERY_DEFAULTS)
        assert check_success(r, True)["meta"]["quota_remaining"] == left
        check_month(r, 3, left)
    r = c.post(BATTERY, BATTERY_DEFAULTS)
    check_error(r, 429, "QUOTA_EXCEEDED", True)
    check_month(r, 3, 0)
    _, limit = ratelimit_fields(r)
    assert abs(limit["month"]["t"] - header_int(r, "Retry-After")) <= 1
    c.session.close()

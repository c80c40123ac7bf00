"""GET /v1/usage?month=YYYY-MM (docs/api.md, "Usage history") over HTTP, on either store:
the caller's daily counts per tool (successful executions, quota units, refusals by HTTP
status), the month parameter's rules, and the history surviving a restart."""
import time
from datetime import datetime, timezone

import pytest

from support import (BATTERY, BATTERY_DEFAULTS, KEYS_AVAILABLE, MOSFET, MOSFET_DEFAULTS,
                     NO_KEYS_REASON, Client, check_error, check_ok_result, check_success,
                     create_key, run_cli)

pytestmark = pytest.mark.skipif(not KEYS_AVAILABLE, reason=NO_KEYS_REASON)

SWEEP = BATTERY + "/sweep"


def month_of(offset=0):
    d = datetime.now(timezone.utc)
    index = d.year * 12 + d.month - 1 + offset
    return f"{index // 12:04d}-{index % 12 + 1:02d}"


def usage(c, key, query=""):
    return check_ok_result(c.get("/v1/usage" + query, key=key), True)


def traffic(c, key):
    """Two battery executions, a 4-point battery sweep with one point refused by the tool,
    a 400 and a 422 on the battery, one mosfet execution, a 415 and an unknown tool."""
    check_success(c.post(BATTERY, BATTERY_DEFAULTS, key=key), True)
    check_success(c.post(BATTERY, BATTERY_DEFAULTS, key=key), True)
    # wake_duration_ms = 61000 at cycle_period_s = 60 is the 422 case: 1 of 4 points.
    inputs = {k: v for k, v in BATTERY_DEFAULTS.items() if k != "cycle_period_s"}
    r = c.post(SWEEP, {"inputs": {**inputs, "wake_duration_ms": 45000},
                       "vary": {"key": "cycle_period_s", "from": 30, "to": 120, "points": 4}},
               key=key)
    points = check_success(r, True)["result"]["points"]
    assert sum("error" in p for p in points) == 1, points
    check_error(c.post(BATTERY, {}, key=key), 400, "VALIDATION_ERROR", True,
                field="battery_capacity_mah")
    check_error(c.post(BATTERY, {**BATTERY_DEFAULTS, "wake_duration_ms": 61000}, key=key), 422,
                "UNPROCESSABLE", True, field="wake_duration_ms")
    check_success(c.post(MOSFET, MOSFET_DEFAULTS, key=key), True)
    check_error(c.post(MOSFET, MOSFET_DEFAULTS, key=key, content_type="text/plain"), 415,
                "UNSUPPORTED_MEDIA_TYPE", True)
    check_error(c.post("/v1/iot-mcu/nope", {}, key=key), 404, "NOT_FOUND", True)


EXPECTED_TOOLS = [
    {"domain": "electronics", "tool": "mosfet-thermal-junction", "executions": 1, "units": 1,
     "refusals": {"415": 1}},
    {"domain": "iot-mcu", "tool": "mcu-deep-sleep-battery", "executions": 3, "units": 5,
     "refusals": {"400": 1, "422": 1}},
]


def test_daily_counts_per_tool(api):
    key = create_key(api.data_dir, api.config, "big", label="history")
    t0 = time.monotonic()
    while api.get("/v1/me", key=key).status_code != 200 and time.monotonic() - t0 < 3:
        time.sleep(0.1)
    empty = usage(api, key)
    assert empty == {"period": month_of(), "key_prefix": key[:12], "days": [],
                     "totals": {"executions": 0, "units": 0, "refusals": {}}}
    traffic(api, key)
    today = datetime.now(timezone.utc).strftime("%Y-%m-%d")
    u = usage(api, key)  # what is not flushed yet is counted too
    assert list(u) == ["period", "key_prefix", "days", "totals"]
    assert u["days"] == [{"date": today, "tools": EXPECTED_TOOLS}], u
    assert u["totals"] == {"executions": 4, "units": 6, "refusals": {"400": 1, "415": 1, "422": 1}}
    assert usage(api, key, f"?month={month_of()}") == u
    # The usage is the caller's own: another key sees nothing of it.
    other = create_key(api.data_dir, api.config, "big", label="history other")
    t0 = time.monotonic()
    while api.get("/v1/me", key=other).status_code != 200 and time.monotonic() - t0 < 3:
        time.sleep(0.1)
    assert usage(api, other)["days"] == []
    # A month without activity, within the 13 kept.
    assert usage(api, key, f"?month={month_of(-12)}")["days"] == []


@pytest.mark.parametrize("query, part", [
    ("?month=2026-13", "month must be YYYY-MM"),
    ("?month=26-01", "month must be YYYY-MM"),
    ("?month=", "month must be YYYY-MM"),
    ("?month=NEXT", "month must be one of the 13 months kept"),
    ("?month=OLDEST", "month must be one of the 13 months kept"),
    ("?from=2026-01", "unknown query parameter 'from'"),
    ("?month=THIS&month=THIS", "month is given more than once"),
])
def test_month_parameter(api, query, part):
    query = (query.replace("NEXT", month_of(1)).replace("OLDEST", month_of(-13))
             .replace("THIS", month_of()))
    field = "from" if "from" in query else "month"
    check_error(api.get("/v1/usage" + query, key=api.key), 400, "VALIDATION_ERROR", True,
                field=field, contains=[part.replace("THIS", month_of())])


def test_needs_a_key(api):
    check_error(api.get("/v1/usage"), 401, "UNAUTHORIZED", True, message="missing API key")
    check_error(api.post("/v1/usage", {}), 405, "METHOD_NOT_ALLOWED", True)


def test_history_survives_a_restart_and_a_rate_limited_call_counts(start_server, tmp_path,
                                                                 config_file):
    data = tmp_path / "history"
    key = create_key(data, config_file, "tiny", label="history restart")
    s = start_server(data_dir=data)
    c = Client(s, {"main": key}, accounts=True)
    left = 60 - time.time() % 60
    if left < 5:
        time.sleep(left + 0.2)
    for _ in range(5):
        check_success(c.post(BATTERY, BATTERY_DEFAULTS), True)
    check_error(c.post(BATTERY, BATTERY_DEFAULTS), 429, "RATE_LIMITED", True)
    c.session.close()
    assert s.stop() == 0
    # On Redis the window outlives the restart: give the key room to read its history.
    run_cli("keys", "update", key[:12], "--rate-per-minute", "100", "--data", str(data),
            "--config", str(config_file))
    c2 = Client(start_server(data_dir=data), {"main": key}, accounts=True)
    u = usage(c2, key)
    assert u["totals"] == {"executions": 5, "units": 5, "refusals": {"429": 1}}
    assert u["days"][0]["tools"] == [{"domain": "iot-mcu", "tool": "mcu-deep-sleep-battery",
                                      "executions": 5, "units": 5, "refusals": {"429": 1}}]
    c2.session.close()

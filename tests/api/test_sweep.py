"""POST /v1/{domain}/{slug}/sweep over HTTP (docs/api.md "Sweeps"): the envelope,
the x values and their bounds, every error field, per-point errors, one rate unit and one
quota unit per point with a result; 401/404/405/415. Runs through Prism in contract mode."""
import json

import pytest

from support import (BATTERY, BATTERY_DEFAULTS, KEYS_AVAILABLE, NO_KEYS_REASON, check_error,
                     check_success, header_int)

SWEEP = BATTERY + "/sweep"
LED = "/v1/electronics/led-series-resistor"
LED_SWEEP = LED + "/sweep"
LED_VERSION = "2.0.0"  # docs/tools/led-series-resistor.md, "Changes"
COST_SWEEP = "/v1/programming-dev/llm-api-cost-calculator/sweep"


LED_REQUIRED = {"supply_v": 12, "led_forward_v": 3, "led_current_ma": 20}


def vary(key="cycle_period_s", frm=30, to=120, points=4):
    return {"key": key, "from": frm, "to": to, "points": points}


def battery(vary_=None, **inputs):
    """A battery sweep body: every input (all are required) at its default unless given."""
    return {"inputs": {**BATTERY_DEFAULTS, **inputs}, "vary": vary_ or vary()}


def test_sweep_matches_execute_point_by_point(api):
    inputs = {k: v for k, v in BATTERY_DEFAULTS.items() if k != "cycle_period_s"}
    r = api.post(SWEEP, {"inputs": inputs, "vary": vary()})
    body = check_success(r, api.accounts, tool="mcu-deep-sleep-battery", domain="iot-mcu")
    result = body["result"]
    assert list(result) == ["key", "points"]
    assert result["key"] == "cycle_period_s"
    assert [p["x"] for p in result["points"]] == [30, 60, 90, 120]
    for p in result["points"]:
        assert list(p) == ["x", "result"]
        single = api.post(BATTERY, {**inputs, "cycle_period_s": p["x"]})
        assert check_success(single, api.accounts)["result"] == p["result"]
    # Byte-level (the server's own bytes, also in contract mode): the point at 60 s is the
    # README's example, numbers at their precision.
    raw = r.text
    assert ('{"x":60,"result":{"avg_current_ua":343.3,"avg_current_ma":0.343,'
            '"lifetime_hours":4660.8,"lifetime_days":194.2,"lifetime_years":0.53,'
            '"daily_wakes":1440}}') in raw


def test_inputs_default_to_empty_and_optional_ones_take_defaults(api):
    # No `inputs`: {} — the battery tool's inputs are all required, so the first is named.
    check_error(api.post(SWEEP, {"vary": vary()}), 400, "VALIDATION_ERROR", api.accounts,
                field="inputs.battery_capacity_mah", contains=["is required"])
    # led_count and e_series are optional: left out, they take their defaults.
    r = api.post(LED_SWEEP, {"inputs": {"led_forward_v": 2, "led_current_ma": 20},
                             "vary": vary("supply_v", 3, 9, 3)})
    result = check_success(r, api.accounts, version=LED_VERSION)["result"]
    assert [p["x"] for p in result["points"]] == [3, 6, 9]
    single = api.post(LED, {"supply_v": 6, "led_forward_v": 2, "led_current_ma": 20})
    assert result["points"][1]["result"] == \
        check_success(single, api.accounts, version=LED_VERSION)["result"]


def test_x_values_rounded_to_12_significant_digits_and_descending(api):
    r = api.post(SWEEP, battery(vary("sleep_current_ua", 2, 1, 4)))
    xs = [p["x"] for p in check_success(r, api.accounts)["result"]["points"]]
    assert xs == [2, 1.66666666667, 1.33333333333, 1]
    assert '"x":1.66666666667,' in r.text
    r = api.post(SWEEP, battery(vary("battery_efficiency_pct", 50.1, 50.7, 7)))
    xs = [p["x"] for p in check_success(r, api.accounts)["result"]["points"]]
    assert xs == [50.1, 50.2, 50.3, 50.4, 50.5, 50.6, 50.7]


def test_bounds_are_inclusive_for_from_and_to(api):
    r = api.post(SWEEP, battery(vary("cycle_period_s", 1, 86400, 200)))
    points = check_success(r, api.accounts)["result"]["points"]
    assert len(points) == 200
    assert points[0]["x"] == 1 and points[-1]["x"] == 86400
    # wake 250 ms is longer than a 1 s period? No: 0.25 s < 1 s, every point computes.
    assert all("result" in p for p in points)


def test_integer_input_takes_integer_steps(api):
    r = api.post(LED_SWEEP, {"inputs": {**LED_REQUIRED, "supply_v": 60, "led_forward_v": 1},
                             "vary": vary("led_count", 10, 1, 5)})
    xs = [p["x"] for p in check_success(r, api.accounts, version=LED_VERSION)["result"]["points"]]
    assert xs == [10, 8, 6, 3, 1]
    assert '"x":8,' in r.text  # written as an integer
    r = api.post(COST_SWEEP, {"inputs": {"input_tokens_per_call": 2000,
                                         "output_tokens_per_call": 500},
                              "vary": vary("calls_per_month", 1, 1000000000, 3)})
    xs = [p["x"] for p in check_success(r, api.accounts)["result"]["points"]]
    assert xs == [1, 500000001, 1000000000]  # 500000000.5 rounds half away from zero


def test_points_the_tool_refuses_carry_their_error(api):
    # Four 3 V LEDs on 12 V leave nothing for the resistor: the execute 422 case.
    r = api.post(LED_SWEEP, {"inputs": LED_REQUIRED, "vary": vary("led_count", 1, 5, 5)})
    points = check_success(r, api.accounts, version=LED_VERSION)["result"]["points"]
    assert [("result" in p, "error" in p) for p in points] == \
        [(True, False)] * 3 + [(False, True)] * 2
    for p in points[3:]:
        assert list(p) == ["x", "error"]
        single = api.post(LED, {**LED_REQUIRED, "led_count": p["x"]})
        err = check_error(single, 422, "UNPROCESSABLE", api.accounts, field="supply_v")
        assert p["error"] == {"code": "UNPROCESSABLE", "message": err["message"],
                              "field": "supply_v"}


# --- errors: each names its field --------------------------------------------------------

@pytest.mark.parametrize("body,field,part", [
    ({"inputs": {}}, "vary", "vary is required"),
    ({"vary": [1, 2]}, "vary", "must be an object"),
    ({"vary": vary(), "input": {}}, "input", "only 'inputs' and 'vary'"),
    ({"inputs": [], "vary": vary()}, "inputs", "must be an object"),
    ({"vary": {**vary(), "step": 1}}, "vary.step", "vary has key, from, to and points"),
    ({"vary": {"from": 1, "to": 2, "points": 2}}, "vary.key", "cycle_period_s"),
    ({"vary": vary("nope")}, "vary.key",
     "battery_capacity_mah, sleep_current_ua, wake_current_ma, wake_duration_ms, "
     "cycle_period_s, battery_efficiency_pct"),
    ({"vary": vary(7)}, "vary.key", "must be a string"),
    ({"vary": {"key": "cycle_period_s", "to": 2, "points": 2}}, "vary.from", "required"),
    ({"vary": vary(frm="30")}, "vary.from", "send numbers without quotes"),
    ({"vary": vary(frm=0)}, "vary.from", "at least 1 (the minimum of cycle_period_s)"),
    ({"vary": vary(to=86401)}, "vary.to", "at most 86400 (the maximum of cycle_period_s)"),
    ({"vary": {"key": "cycle_period_s", "from": 1, "points": 2}}, "vary.to", "required"),
    ({"vary": vary(frm=5, to=5)}, "vary.to", "must differ from vary.from"),
    ({"vary": {"key": "cycle_period_s", "from": 1, "to": 2}}, "vary.points", "required"),
    ({"vary": vary(points=1)}, "vary.points", "between 2 and 200"),
    ({"vary": vary(points=201)}, "vary.points", "between 2 and 200"),
    ({"vary": vary(points=2.5)}, "vary.points", "integer"),
    ({"vary": vary(points=True)}, "vary.points", "integer"),
    ({"inputs": {"sleep_current": 5}, "vary": vary()}, "inputs.sleep_current",
     "did you mean 'sleep_current_ua'"),
    (battery(wake_current_ma=0), "inputs.wake_current_ma", "at least 1"),
    (battery(wake_current_ma=None), "inputs.wake_current_ma", "must be a number, got null"),
    ({"inputs": {"sleep_current_ua": 10}, "vary": vary()}, "inputs.battery_capacity_mah",
     "battery_capacity_mah is required"),
])
def test_validation_errors_name_the_field(api, body, field, part):
    err = check_error(api.post(SWEEP, body), 400, "VALIDATION_ERROR", api.accounts, field=field,
                      tool_version="1.0.0")
    assert part in err["message"], err["message"]


@pytest.mark.parametrize("vary_,field,part", [
    (vary("led_count", 1.5, 5, 2), "vary.from", "must be an integer"),
    (vary("led_count", 1, 5, 6), "vary.points", "at most 5"),
    (vary("e_series", 1, 5, 2), "vary.key", "not a numeric input"),
    (vary("led_count", 0, 5, 2), "vary.from", "at least 1"),
])
def test_integer_and_enum_inputs(api, vary_, field, part):
    err = check_error(api.post(LED_SWEEP, {"vary": vary_}), 400, "VALIDATION_ERROR",
                      api.accounts, field=field)
    assert part in err["message"], err["message"]


def test_raw_body_errors(api):
    # Bytes Prism would re-serialise: sent directly (contract.py).
    err = check_error(api.post(SWEEP, raw='{"inputs":{"x":1,"x":2},"vary":{}}'), 400,
                      "VALIDATION_ERROR", api.accounts, field="inputs.x")
    assert "more than once" in err["message"]
    check_error(api.post(SWEEP, raw='{"vary":{"key":"cycle_period_s","from":1e400,"to":2,'
                                    '"points":2}}'),
                400, "VALIDATION_ERROR", api.accounts, field="vary.from",
                contains=["finite"])
    check_error(api.post(SWEEP, raw='{"vary":'), 400, "INVALID_JSON", api.accounts)
    # The varied input's own value is replaced, whatever it is.
    r = api.post(SWEEP, raw=json.dumps(battery(cycle_period_s="sixty")))
    assert check_success(r, api.accounts)["result"]["points"][1]["x"] == 60


def test_unknown_tool_is_404_whatever_the_method(api):
    for method in ("POST", "GET"):
        r = api.request(method, "/v1/iot-mcu/nope/sweep", key=api.key)
        check_error(r, 404, "NOT_FOUND", api.accounts, contains=["nope"])
    r = api.post("/v1/iot-mcu/pcb-trace-width/sweep", {"vary": vary()})
    check_error(r, 404, "NOT_FOUND", api.accounts, contains=["/v1/pcb-design/pcb-trace-width"])


def test_wrong_method_is_405(api):
    r = api.get(SWEEP, key=api.key)
    check_error(r, 405, "METHOD_NOT_ALLOWED", api.accounts, tool_version="1.0.0")
    assert r.headers["Allow"] == "POST, OPTIONS"
    r = api.request("OPTIONS", SWEEP)
    assert r.status_code == 204
    assert r.headers["Access-Control-Allow-Methods"] == "POST, OPTIONS"


@pytest.mark.skipif(not KEYS_AVAILABLE, reason=NO_KEYS_REASON)
def test_missing_or_invalid_key_is_401(api):
    r = api.post(SWEEP, {"vary": vary()}, key=None)
    check_error(r, 401, "UNAUTHORIZED", api.accounts, message="missing API key")
    assert r.headers["WWW-Authenticate"] == "Bearer"
    r = api.post(SWEEP, {"vary": vary()}, key="tc_live_" + "x" * 32)
    check_error(r, 401, "UNAUTHORIZED", api.accounts, message="invalid API key")


def test_wrong_media_type_is_415(api):
    r = api.post(SWEEP, {"vary": vary()}, content_type="text/plain")
    check_error(r, 415, "UNSUPPORTED_MEDIA_TYPE", api.accounts, tool_version="1.0.0")
    check_success(api.post(SWEEP, battery(), content_type="application/json; charset=utf-8"),
                  api.accounts)


# --- what a sweep costs ------------------------------------------------------------------

def used(api, key):
    return api.get("/v1/me", key=key).json()["result"]["quota"]["used"]


@pytest.mark.skipif(not KEYS_AVAILABLE, reason=NO_KEYS_REASON)
def test_one_rate_unit_and_one_quota_unit_per_point_with_a_result(api):
    key = api.keys["sweep"]
    start = used(api, key)
    # 20 000 … 100 000 ms wakes against a 60 s period: 3 results, 2 refused points.
    body = battery(vary("wake_duration_ms", 20000, 100000, 5))
    sweeps = 0
    while True:  # a minute boundary between the two requests: measure again
        before = api.get("/v1/tools", key=key)
        r = api.post(SWEEP, body, key=key)
        sweeps += 1
        if header_int(r, "X-RateLimit-Reset") == header_int(before, "X-RateLimit-Reset"):
            break
        assert sweeps < 3
    sweep = check_success(r, api.accounts)
    assert header_int(r, "X-RateLimit-Remaining") == \
        header_int(before, "X-RateLimit-Remaining") - 1
    points = sweep["result"]["points"]
    assert sum("result" in p for p in points) == 3
    assert sum("error" in p for p in points) == 2
    assert used(api, key) - start == 3 * sweeps
    assert sweep["meta"]["quota_remaining"] == 1000000 - 3 * sweeps - start


@pytest.mark.skipif(not KEYS_AVAILABLE, reason=NO_KEYS_REASON)
def test_quota_must_cover_every_point(api):
    key = api.keys["sweep10"]  # monthly quota 10
    r = api.post(SWEEP, battery(vary(points=11)), key=key)
    err = check_error(r, 429, "QUOTA_EXCEEDED", api.accounts)
    assert "needs 11" in err["message"] and "has 10 left" in err["message"]
    assert header_int(r, "Retry-After") >= 1
    assert used(api, key) == 0  # nothing taken
    r = api.post(SWEEP, battery(vary(points=4)), key=key)
    assert check_success(r, api.accounts)["meta"]["quota_remaining"] == 6
    err = check_error(api.post(SWEEP, battery(vary(points=7)), key=key), 429,
                      "QUOTA_EXCEEDED", api.accounts)
    assert "has 6 left" in err["message"]
    # A validation error is still a 400: the body is checked before the quota.
    check_error(api.post(SWEEP, {"vary": vary(points=1)}, key=key), 400, "VALIDATION_ERROR",
                api.accounts, field="vary.points")
    r = api.post(SWEEP, battery(vary(points=6)), key=key)
    assert check_success(r, api.accounts)["meta"]["quota_remaining"] == 0
    check_error(api.post(BATTERY, BATTERY_DEFAULTS, key=key), 429, "QUOTA_EXCEEDED",
                api.accounts)
    assert used(api, key) == 10

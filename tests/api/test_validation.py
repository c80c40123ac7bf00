"""Input validation over HTTP: every input type, bounds, unknown and
missing keys, defaults, duplicate keys and malformed JSON."""
import json

import pytest

from support import (BATTERY, BATTERY_DEFAULTS, COST, COST_REQUIRED, MOSFET, MOSFET_DEFAULTS,
                     PCB, PCB_DEFAULTS, check_error, check_success, fmt_bound)

COST_MODELS = [
    "provider-a/model-a-4.7", "provider-a/model-b-4.6", "provider-a/model-c-4.5",
    "provider-b/model-5.5", "provider-b/model-5.4", "provider-b/model-5.4-mini",
    "provider-b/model-5.4-nano", "provider-b/model-5", "provider-b/model-5-mini",
    "provider-b/model-4.1", "provider-b/model-4.1-mini", "provider-b/model-4o-mini",
]

# Numeric inputs from spec §2.2-2.4 and the tools' descriptors: (path, key, type, min, max, step)
NUMERIC = [
    (BATTERY, "battery_capacity_mah", "number", 100, 30000, 100),
    (BATTERY, "sleep_current_ua", "number", 1, 10000, 1),
    (BATTERY, "wake_current_ma", "number", 1, 2000, 1),
    (BATTERY, "wake_duration_ms", "number", 1, 600000, 10),
    (BATTERY, "cycle_period_s", "number", 1, 86400, 1),
    (BATTERY, "battery_efficiency_pct", "number", 50, 100, 1),
    (MOSFET, "drain_current_a", "number", 0.001, 1000, 0.1),
    (MOSFET, "rds_on_mohm", "number", 0.1, 10000, 0.1),
    (MOSFET, "theta_ja_c_per_w", "number", 0.1, 500, 0.5),
    (MOSFET, "ambient_temp_c", "number", -40, 125, 1),
    (MOSFET, "duty_cycle", "number", 0.01, 1, 0.01),
    (MOSFET, "max_junction_temp_c", "number", 100, 200, 5),
    (COST, "input_tokens_per_call", "integer", 1, 1000000, 100),
    (COST, "output_tokens_per_call", "integer", 1, 1000000, 50),
    (COST, "calls_per_month", "integer", 1, 1000000000, 1000),
    (COST, "cached_input_fraction", "number", 0, 1, 0.05),
    (PCB, "current_a", "number", 0.01, 35, 0.1),
    (PCB, "temp_rise_c", "number", 1, 100, 1),
    (PCB, "copper_weight_oz", "number", 0.5, 3, 0.5),
]

# Bodies in which every numeric input may go to either bound without a 422: a wake of
# 600 s needs a period of at least 600 s, and 35 A on 1 oz at 10 °C is wider than the
# IPC-2221 charts (400 mil), so the PCB bounds are tried on 3 oz at 100 °C.
BOUND_BASE = {
    BATTERY: {**BATTERY_DEFAULTS, "cycle_period_s": 86400},
    MOSFET: MOSFET_DEFAULTS,
    COST: COST_REQUIRED,
    PCB: {**PCB_DEFAULTS, "temp_rise_c": 100, "copper_weight_oz": 3},
}
BOUND_BASE_EXCEPT = {
    # when a base member is itself the input under test, start from this body instead
    (BATTERY, "cycle_period_s"): BATTERY_DEFAULTS,
    (PCB, "temp_rise_c"): {**PCB_DEFAULTS, "copper_weight_oz": 3},
    (PCB, "copper_weight_oz"): PCB_DEFAULTS,
}

FULL_BODIES = {BATTERY: BATTERY_DEFAULTS, MOSFET: MOSFET_DEFAULTS, COST: COST_REQUIRED,
               PCB: PCB_DEFAULTS}

REQUIRED = [(BATTERY, k) for k in BATTERY_DEFAULTS] + \
           [(MOSFET, k) for k in MOSFET_DEFAULTS] + \
           [(COST, k) for k in COST_REQUIRED] + \
           [(PCB, k) for k in PCB_DEFAULTS]


def base_for(path, key):
    return dict(BOUND_BASE_EXCEPT.get((path, key), BOUND_BASE[path]))


# --- bounds --------------------------------------------------------------------------------

@pytest.mark.parametrize("case", NUMERIC, ids=[c[1] for c in NUMERIC])
def test_bounds_inclusive_at_both_ends(api, case):
    path, key, _type, lo, hi, _step = case
    for v in (lo, hi):
        r = api.post(path, {**base_for(path, key), key: v})
        check_success(r, api.accounts)


@pytest.mark.parametrize("case", NUMERIC, ids=[c[1] for c in NUMERIC])
def test_below_min_rejected_with_bound_in_message(api, case):
    path, key, typ, lo, _hi, step = case
    below = lo - 1 if typ == "integer" else lo - step / 1000
    r = api.post(path, {**base_for(path, key), key: below})
    check_error(r, 400, "VALIDATION_ERROR", api.accounts, field=key,
                message=f"{key} must be at least {fmt_bound(lo)}", tool_version="1.0.0")


@pytest.mark.parametrize("case", NUMERIC, ids=[c[1] for c in NUMERIC])
def test_above_max_rejected_with_bound_in_message(api, case):
    path, key, typ, _lo, hi, step = case
    above = hi + 1 if typ == "integer" else hi + step / 1000
    r = api.post(path, {**base_for(path, key), key: above})
    check_error(r, 400, "VALIDATION_ERROR", api.accounts, field=key,
                message=f"{key} must be at most {fmt_bound(hi)}")


def test_far_out_of_bounds(api):
    check_error(api.post(BATTERY, {**BATTERY_DEFAULTS, "battery_capacity_mah": -5}), 400,
                "VALIDATION_ERROR", api.accounts, field="battery_capacity_mah",
                message="battery_capacity_mah must be at least 100")
    check_error(api.post(COST, {**COST_REQUIRED, "calls_per_month": 10**15}), 400,
                "VALIDATION_ERROR", api.accounts, field="calls_per_month",
                message="calls_per_month must be at most 1000000000")
    check_error(api.post(COST, {**COST_REQUIRED, "calls_per_month": 2**64 + 1}), 400,
                "VALIDATION_ERROR", api.accounts, field="calls_per_month")


def test_step_is_not_enforced(api):
    check_success(api.post(BATTERY, {**BATTERY_DEFAULTS, "battery_capacity_mah": 2050.5}),
                  api.accounts)
    check_success(api.post(COST, {**COST_REQUIRED, "input_tokens_per_call": 2001}), api.accounts)


# --- types -----------------------------------------------------------------------------------

NUMERIC_KEYS = [(c[0], c[1]) for c in NUMERIC]


@pytest.mark.parametrize("path,key", NUMERIC_KEYS, ids=[k for _, k in NUMERIC_KEYS])
def test_number_as_string_rejected(api, path, key):
    body = {**FULL_BODIES[path], key: "5"}
    err = check_error(api.post(path, body), 400, "VALIDATION_ERROR", api.accounts, field=key)
    assert err["message"].startswith(key + " must be ")
    assert "string" in err["message"]


@pytest.mark.parametrize("bad,kind", [(True, "boolean"), (False, "boolean"), (None, "null"),
                                      ([1], "array"), ({"v": 1}, "object")])
def test_non_number_types_rejected_for_number(api, bad, kind):
    err = check_error(api.post(MOSFET, {**MOSFET_DEFAULTS, "duty_cycle": bad}), 400,
                      "VALIDATION_ERROR", api.accounts, field="duty_cycle")
    assert err["message"].startswith("duty_cycle must be a number")
    assert kind in err["message"]


@pytest.mark.parametrize("bad", [True, None, "2000", [2000]])
def test_non_number_types_rejected_for_integer(api, bad):
    err = check_error(api.post(COST, {**COST_REQUIRED, "input_tokens_per_call": bad}), 400,
                      "VALIDATION_ERROR", api.accounts, field="input_tokens_per_call")
    assert err["message"].startswith("input_tokens_per_call must be an integer")


@pytest.mark.parametrize("key", list(COST_REQUIRED))
def test_integer_given_fraction_rejected(api, key):
    err = check_error(api.post(COST, {**COST_REQUIRED, key: 2.5}), 400, "VALIDATION_ERROR",
                      api.accounts, field=key)
    assert err["message"] == f"{key} must be an integer, got 2.5"


@pytest.mark.parametrize("literal", ["2000.0", "2e3", "2E+3", "20000e-1"])
def test_integer_accepts_integral_number_forms(api, literal):
    raw = ('{"input_tokens_per_call":%s,"output_tokens_per_call":500,'
           '"calls_per_month":100000}' % literal)
    body = check_success(api.post(COST, raw=raw), api.accounts)
    assert body["result"]["monthly_cost_usd"] == 1350.0


@pytest.mark.parametrize("bad", ["provider-a/model-z", "Provider-A/model-b-4.6",
                                 "model-b-4.6", "", 1, True, None, ["provider-a/model-b-4.6"]])
def test_enum_not_among_options_lists_them(api, bad):
    err = check_error(api.post(COST, {**COST_REQUIRED, "model": bad}), 400, "VALIDATION_ERROR",
                      api.accounts, field="model")
    assert err["message"].startswith("model must be one of")
    for option in COST_MODELS:
        assert option in err["message"]


@pytest.mark.parametrize("bad", ["External", "top", "", 0])
def test_pcb_layer_enum_rejected(api, bad):
    err = check_error(api.post(PCB, {**PCB_DEFAULTS, "layer": bad}), 400, "VALIDATION_ERROR",
                      api.accounts, field="layer")
    assert "external" in err["message"] and "internal" in err["message"]


@pytest.mark.parametrize("model", COST_MODELS)
def test_every_enum_option_accepted(api, model):
    body = check_success(api.post(COST, {**COST_REQUIRED, "model": model}), api.accounts)
    assert body["result"]["provider"] == model.split("/")[0]


@pytest.mark.parametrize("bad,kind", [("true", "string"), ("false", "string"), (1, "number"),
                                      (0, "number"), (None, "null"), ([True], "array")])
def test_boolean_only_json_true_false(api, bad, kind):
    err = check_error(api.post(COST, {**COST_REQUIRED, "use_batch_api": bad}), 400,
                      "VALIDATION_ERROR", api.accounts, field="use_batch_api")
    assert err["message"].startswith("use_batch_api must be true or false")
    assert kind in err["message"]


@pytest.mark.parametrize("flag", [True, False])
def test_boolean_true_false_accepted(api, flag):
    body = check_success(api.post(COST, {**COST_REQUIRED, "use_batch_api": flag}), api.accounts)
    assert body["result"]["monthly_cost_usd"] == (675.0 if flag else 1350.0)


# --- unknown and missing keys, defaults ------------------------------------------------------

@pytest.mark.parametrize("path,typo,known", [
    (BATTERY, "battery_capacity", "battery_capacity_mah"),
    (BATTERY, "sleep_curernt_ua", "sleep_current_ua"),
    (BATTERY, "Wake_current_ma", "wake_current_ma"),
    (MOSFET, "ambient_temp", "ambient_temp_c"),
    (COST, "cached_input_fractoin", "cached_input_fraction"),
    (COST, "use_batch", "use_batch_api"),
    (COST, "modle", "model"),
    (PCB, "current", "current_a"),
])
def test_unknown_key_with_did_you_mean(api, path, typo, known):
    # a typo of an optional key must not silently fall back to the default
    body = {**FULL_BODIES[path], typo: FULL_BODIES[path].get(known, 0.5)}
    if typo == "modle":
        body[typo] = "provider-a/model-a-4.7"
    if typo == "use_batch":
        body[typo] = True
    err = check_error(api.post(path, body), 400, "VALIDATION_ERROR", api.accounts, field=typo)
    assert typo in err["message"]
    assert "did you mean" in err["message"]
    assert f"'{known}'" in err["message"]


def test_unknown_key_without_close_match(api):
    err = check_error(api.post(BATTERY, {**BATTERY_DEFAULTS, "zzz": 1}), 400,
                      "VALIDATION_ERROR", api.accounts, field="zzz")
    assert "zzz" in err["message"] and "did you mean" not in err["message"]


@pytest.mark.parametrize("path,key", REQUIRED, ids=[k for _, k in REQUIRED])
def test_missing_required(api, path, key):
    body = {k: v for k, v in FULL_BODIES[path].items() if k != key}
    check_error(api.post(path, body), 400, "VALIDATION_ERROR", api.accounts, field=key,
                message=f"{key} is required")


def test_empty_object_reports_first_required(api):
    check_error(api.post(BATTERY, {}), 400, "VALIDATION_ERROR", api.accounts,
                field="battery_capacity_mah", message="battery_capacity_mah is required")
    check_error(api.post(COST, {}), 400, "VALIDATION_ERROR", api.accounts,
                field="input_tokens_per_call", message="input_tokens_per_call is required")


def test_optional_inputs_take_defaults(api):
    implicit = check_success(api.post(COST, COST_REQUIRED), api.accounts)["result"]
    explicit = check_success(api.post(COST, {
        "model": "provider-a/model-b-4.6", **COST_REQUIRED, "cached_input_fraction": 0,
        "use_batch_api": False}), api.accounts)["result"]
    assert implicit == explicit
    assert implicit["model_name"] == "Model B 4.6"
    assert implicit["provider"] == "provider-a"
    assert implicit["cache_savings_usd"] == 0 and implicit["batch_savings_usd"] == 0


def test_first_failing_input_in_descriptor_order(api):
    # JSON order is the reverse of descriptor order; both inputs are out of bounds
    raw = ('{"battery_efficiency_pct":10,"cycle_period_s":60,"wake_duration_ms":250,'
           '"wake_current_ma":80,"sleep_current_ua":0,"battery_capacity_mah":2000}')
    check_error(api.post(BATTERY, raw=raw), 400, "VALIDATION_ERROR", api.accounts,
                field="sleep_current_ua", message="sleep_current_ua must be at least 1")
    # a missing required input before a wrongly typed one
    body = {k: v for k, v in BATTERY_DEFAULTS.items() if k != "wake_current_ma"}
    body["cycle_period_s"] = "60"
    check_error(api.post(BATTERY, body), 400, "VALIDATION_ERROR", api.accounts,
                field="wake_current_ma", message="wake_current_ma is required")
    # cost: calls_per_month (3rd) wrong type, model (1st) bad option
    body = {"calls_per_month": "x", **{k: v for k, v in COST_REQUIRED.items()
                                       if k != "calls_per_month"}, "model": "nope"}
    check_error(api.post(COST, body), 400, "VALIDATION_ERROR", api.accounts, field="model")


def test_duplicate_keys_rejected(api):
    raw = json.dumps(BATTERY_DEFAULTS)[:-1] + ',"battery_capacity_mah":2000}'
    err = check_error(api.post(BATTERY, raw=raw), 400, "VALIDATION_ERROR", api.accounts,
                      field="battery_capacity_mah")
    assert "more than once" in err["message"]
    raw = json.dumps(COST_REQUIRED)[:-1] + ',"use_batch_api":true,"use_batch_api":false}'
    check_error(api.post(COST, raw=raw), 400, "VALIDATION_ERROR", api.accounts,
                field="use_batch_api")


# --- numbers at the edge of JSON ---------------------------------------------------------------

@pytest.mark.parametrize("literal", ["NaN", "nan", "Infinity", "-Infinity", "inf", "+1",
                                     "01", "1.", ".5", "0x10"])
def test_non_json_number_literals_invalid_json(api, literal):
    raw = json.dumps(BATTERY_DEFAULTS).replace('"battery_capacity_mah": 2000',
                                               '"battery_capacity_mah": ' + literal)
    assert literal in raw
    check_error(api.post(BATTERY, raw=raw), 400, "INVALID_JSON", api.accounts)


@pytest.mark.parametrize("literal", ["1e400", "-1e400", "1E+999"])
def test_overflowing_number_rejected(api, literal):
    raw = json.dumps(BATTERY_DEFAULTS).replace('"battery_capacity_mah": 2000',
                                               '"battery_capacity_mah": ' + literal)
    err = check_error(api.post(BATTERY, raw=raw), 400, "VALIDATION_ERROR", api.accounts,
                      field="battery_capacity_mah")
    assert "finite" in err["message"]


def test_tiny_number_underflow_is_below_min(api):
    raw = json.dumps(BATTERY_DEFAULTS).replace('"sleep_current_ua": 10',
                                               '"sleep_current_ua": 1e-400')
    check_error(api.post(BATTERY, raw=raw), 400, "VALIDATION_ERROR", api.accounts,
                field="sleep_current_ua", message="sleep_current_ua must be at least 1")


@pytest.mark.parametrize("literal", ["-0", "-0.0", "0e5", "-0E-3"])
def test_negative_zero_accepted_as_zero(api, literal):
    raw = json.dumps(MOSFET_DEFAULTS).replace('"ambient_temp_c": 25',
                                              '"ambient_temp_c": ' + literal)
    r = api.post(MOSFET, raw=raw)
    check_success(r, api.accounts)
    assert '"junction_temp_c":31.0,' in r.text
    raw = json.dumps(COST_REQUIRED)[:-1] + ', "cached_input_fraction": %s}' % literal
    r = api.post(COST, raw=raw)
    check_success(r, api.accounts)
    assert '"monthly_cost_usd":1350.00,' in r.text and '"cache_savings_usd":0.00,' in r.text


def test_negative_zero_below_positive_min(api):
    raw = json.dumps(BATTERY_DEFAULTS).replace('"battery_capacity_mah": 2000',
                                               '"battery_capacity_mah": -0')
    check_error(api.post(BATTERY, raw=raw), 400, "VALIDATION_ERROR", api.accounts,
                field="battery_capacity_mah", message="battery_capacity_mah must be at least 100")


# --- bodies that are not one JSON object -------------------------------------------------------

@pytest.mark.parametrize("raw", ["", "   \r\n ", "[]", "[{}]", "3", '"x"', "null", "true",
                                 "{", "{}}", "{} {}", '{"a":1,}', "{'a':1}", '{"a" 1}',
                                 "{/*c*/}"])
def test_body_not_a_json_object_invalid_json(api, raw):
    check_error(api.post(BATTERY, raw=raw), 400, "INVALID_JSON", api.accounts,
                tool_version="1.0.0")


@pytest.mark.parametrize("tail", ["}", " {}", " x", ",", "\x00"])
def test_trailing_data_after_object_invalid_json(api, tail):
    raw = json.dumps(MOSFET_DEFAULTS) + tail
    check_error(api.post(MOSFET, raw=raw), 400, "INVALID_JSON", api.accounts,
                tool_version="1.0.0")


def test_trailing_whitespace_after_object_allowed(api):
    check_success(api.post(MOSFET, raw=json.dumps(MOSFET_DEFAULTS) + " \r\n\t "),
                  api.accounts)


def test_raw_control_character_in_string_rejected(api):
    raw = '{"model":"provider-a/\x01model-b-4.6","input_tokens_per_call":1}'
    check_error(api.post(COST, raw=raw), 400, "INVALID_JSON", api.accounts)


def test_invalid_utf8_rejected(api):
    raw = b'{"model":"provider-a/\xff\xfe","input_tokens_per_call":1}'
    r = api.post(COST, raw=raw)
    check_error(r, 400, "INVALID_JSON", api.accounts)


@pytest.mark.parametrize("depth", [100, 1000, 20000])
def test_deep_nesting_rejected(api, depth):
    r = api.post(BATTERY, raw="[" * depth + "]" * depth)
    assert r.status_code == 400 and r.json()["error"]["code"] == "INVALID_JSON", r.text
    r = api.post(BATTERY, raw='{"a":' + "[" * depth + "]" * depth + "}")
    assert r.status_code == 400, r.text
    assert r.json()["error"]["code"] in ("INVALID_JSON", "VALIDATION_ERROR")
    # the server is still well
    assert api.get("/v1/health").status_code == 200


def test_nested_value_for_known_key(api):
    err = check_error(api.post(BATTERY, {**BATTERY_DEFAULTS, "wake_current_ma": {"a": [1]}}),
                      400, "VALIDATION_ERROR", api.accounts, field="wake_current_ma")
    assert "object" in err["message"]

"""Tool results over HTTP: the spec's and issue's worked numbers,
the 422 cases, and plain-decimal rendering checked on the raw body text."""
import math
import random

import pytest

from support import (BATTERY, BATTERY_DEFAULTS, COST, COST_REQUIRED, MOSFET, MOSFET_DEFAULTS,
                     PCB, PCB_DEFAULTS, check_error, check_plain_decimals, check_success,
                     raw_number)

# Output descriptors per spec §2.2-2.4 and the tools' descriptors: (key, type, precision)
OUTPUTS = {
    BATTERY: [("avg_current_ua", "number", 1), ("avg_current_ma", "number", 3),
              ("lifetime_hours", "number", 1), ("lifetime_days", "number", 1),
              ("lifetime_years", "number", 2), ("daily_wakes", "number", 0)],
    MOSFET: [("power_dissipation_w", "number", 3), ("temp_rise_c", "number", 1),
             ("junction_temp_c", "number", 1), ("headroom_c", "number", 1),
             ("status", "string", None)],
    COST: [("model_name", "string", None), ("provider", "string", None),
           ("monthly_cost_usd", "number", 2), ("cost_per_call_usd", "number", 5),
           ("input_cost_monthly_usd", "number", 2), ("output_cost_monthly_usd", "number", 2),
           ("monthly_cost_no_optim_usd", "number", 2), ("cache_savings_usd", "number", 2),
           ("batch_savings_usd", "number", 2), ("effective_input_rate_per_mtok", "number", 3),
           ("effective_output_rate_per_mtok", "number", 3), ("pricing_as_of", "string", None)],
    PCB: [("width_mil", "number", 1), ("width_mm", "number", 3),
          ("cross_section_mil2", "number", 1), ("copper_thickness_um", "number", 1),
          ("resistance_mohm_per_cm", "number", 2), ("voltage_drop_mv_per_cm", "number", 2),
          ("power_loss_mw_per_cm", "number", 2)],
}
TOOL_IDS = {BATTERY: ("mcu-deep-sleep-battery", "iot-mcu"),
            MOSFET: ("mosfet-thermal-junction", "electronics"),
            COST: ("llm-api-cost-calculator", "programming-dev"),
            PCB: ("pcb-trace-width", "pcb-design")}


def run(api, path, body):
    r = api.post(path, body)
    tool, domain = TOOL_IDS[path]
    env = check_success(r, api.accounts, tool=tool, domain=domain)
    outs = OUTPUTS[path]
    assert list(env["result"]) == [k for k, _, _ in outs], list(env["result"])
    for key, typ, _ in outs:
        v = env["result"][key]
        if typ == "string":
            assert isinstance(v, str), (key, v)
        else:
            assert isinstance(v, (int, float)) and not isinstance(v, bool), (key, v)
    check_plain_decimals(r.text, [{"key": k, "type": t, "precision": p} for k, t, p in outs])
    return r.text, env["result"]


def raw_has(text, key, literal):
    assert raw_number(text, key) == literal, f"{key}: {raw_number(text, key)} != {literal}"


# --- the spec's worked numbers --------------------------------------------------

def test_battery_defaults(api):
    text, res = run(api, BATTERY, BATTERY_DEFAULTS)
    for key, lit in [("avg_current_ua", "343.3"), ("avg_current_ma", "0.343"),
                     ("lifetime_hours", "4660.8"), ("lifetime_days", "194.2"),
                     ("lifetime_years", "0.53"), ("daily_wakes", "1440")]:
        raw_has(text, key, lit)


def test_mosfet_defaults(api):
    text, res = run(api, MOSFET, MOSFET_DEFAULTS)
    for key, lit in [("power_dissipation_w", "0.500"), ("temp_rise_c", "31.0"),
                     ("junction_temp_c", "56.0"), ("headroom_c", "94.0")]:
        raw_has(text, key, lit)
    assert res["status"] == "ok"
    assert '"status":"ok"' in text


def test_cost_defaults(api):
    text, res = run(api, COST, COST_REQUIRED)
    for key, lit in [("monthly_cost_usd", "1350.00"), ("cost_per_call_usd", "0.01350"),
                     ("input_cost_monthly_usd", "600.00"), ("output_cost_monthly_usd", "750.00"),
                     ("monthly_cost_no_optim_usd", "1350.00"), ("cache_savings_usd", "0.00"),
                     ("batch_savings_usd", "0.00"), ("effective_input_rate_per_mtok", "3.000"),
                     ("effective_output_rate_per_mtok", "15.000")]:
        raw_has(text, key, lit)
    assert res["model_name"] == "Model B 4.6"
    assert res["provider"] == "provider-a"
    assert res["pricing_as_of"] == "2026-11-01"


def test_pcb_defaults(api):
    text, res = run(api, PCB, PCB_DEFAULTS)
    for key, lit in [("width_mil", "11.8"), ("width_mm", "0.300"), ("cross_section_mil2", "16.3"),
                     ("copper_thickness_um", "35.0"), ("resistance_mohm_per_cm", "16.36"),
                     ("voltage_drop_mv_per_cm", "16.36"), ("power_loss_mw_per_cm", "16.36")]:
        raw_has(text, key, lit)


# --- battery -------------------------------------------------------------------------------

def test_battery_wake_equal_to_period_is_valid(api):
    text, res = run(api, BATTERY, {**BATTERY_DEFAULTS, "wake_duration_ms": 60000})
    raw_has(text, "avg_current_ma", "80.000")
    raw_has(text, "lifetime_hours", "20.0")
    raw_has(text, "daily_wakes", "1440")


@pytest.mark.parametrize("wake_ms,period_s", [(60001, 60), (600000, 599), (1001, 1)])
def test_battery_wake_longer_than_period_422(api, wake_ms, period_s):
    r = api.post(BATTERY, {**BATTERY_DEFAULTS, "wake_duration_ms": wake_ms,
                           "cycle_period_s": period_s})
    err = check_error(r, 422, "UNPROCESSABLE", api.accounts, field="wake_duration_ms",
                      tool_version="1.0.0")
    assert "cycle_period_s" in err["message"]


def test_battery_precision_zero_written_as_integer(api):
    text, _ = run(api, BATTERY, {**BATTERY_DEFAULTS, "cycle_period_s": 7})
    raw_has(text, "daily_wakes", "12343")  # 86400/7 = 12342.857 → 12343


# --- mosfet ----------------------------------------------------------------------------------

@pytest.mark.parametrize("theta,status,tj,headroom", [
    (62, "ok", "56.0", "94.0"),
    (150, "ok", "100.0", "50.0"),     # Tj 100 <= 0.8*150
    (200, "marginal", "125.0", "25.0"),
    (250, "danger", "150.0", "0.0"),  # Tj = Tj,max is danger
    (300, "danger", "175.0", "-25.0"),
])
def test_mosfet_status_thresholds(api, theta, status, tj, headroom):
    text, res = run(api, MOSFET, {**MOSFET_DEFAULTS, "theta_ja_c_per_w": theta})
    assert res["status"] == status
    raw_has(text, "junction_temp_c", tj)
    raw_has(text, "headroom_c", headroom)


def test_value_rounding_to_zero_has_no_sign(api):
    # Tj = 150.04 against a 150 limit: headroom -0.04 is written 0.0, not -0.0
    text, res = run(api, MOSFET, {**MOSFET_DEFAULTS, "theta_ja_c_per_w": 250.08})
    assert res["status"] == "danger"
    raw_has(text, "junction_temp_c", "150.0")
    raw_has(text, "headroom_c", "0.0")


def test_mosfet_duty_cycle_scales_loss(api):
    text, _ = run(api, MOSFET, {**MOSFET_DEFAULTS, "duty_cycle": 0.5})
    raw_has(text, "power_dissipation_w", "0.250")
    raw_has(text, "temp_rise_c", "15.5")
    raw_has(text, "junction_temp_c", "40.5")
    raw_has(text, "headroom_c", "109.5")


# --- cost ------------------------------------------------------------------------------------

def test_cost_cache_and_batch_stack(api):
    text, res = run(api, COST, {**COST_REQUIRED, "cached_input_fraction": 0.5,
                                "use_batch_api": True})
    for key, lit in [("monthly_cost_usd", "540.00"), ("cost_per_call_usd", "0.00540"),
                     ("input_cost_monthly_usd", "165.00"), ("output_cost_monthly_usd", "375.00"),
                     ("monthly_cost_no_optim_usd", "1350.00"), ("cache_savings_usd", "270.00"),
                     ("batch_savings_usd", "540.00"),
                     ("effective_input_rate_per_mtok", "0.825"),
                     ("effective_output_rate_per_mtok", "7.500")]:
        raw_has(text, key, lit)


def test_cost_4o_mini_cache_is_half_price(api):
    text, res = run(api, COST, {**COST_REQUIRED, "model": "provider-b/model-4o-mini",
                                "cached_input_fraction": 1})
    assert res["model_name"] == "Model 4o mini" and res["provider"] == "provider-b"
    raw_has(text, "effective_input_rate_per_mtok", "0.075")
    raw_has(text, "input_cost_monthly_usd", "15.00")     # 2e8 tok × 0.075 $/Mtok
    raw_has(text, "cache_savings_usd", "15.00")


def test_cost_tiny_values_are_plain_decimals(api):
    text, res = run(api, COST, {"model": "provider-b/model-5.4-nano", "input_tokens_per_call": 1,
                                "output_tokens_per_call": 1, "calls_per_month": 1})
    raw_has(text, "monthly_cost_usd", "0.00")
    raw_has(text, "cost_per_call_usd", "0.00000")
    raw_has(text, "effective_input_rate_per_mtok", "0.200")


def test_cost_huge_values_are_plain_decimals(api):
    text, res = run(api, COST, {"model": "provider-b/model-5.5", "input_tokens_per_call": 1000000,
                                "output_tokens_per_call": 1000000,
                                "calls_per_month": 1000000000})
    raw_has(text, "monthly_cost_usd", "35000000000.00")
    raw_has(text, "input_cost_monthly_usd", "5000000000.00")
    raw_has(text, "output_cost_monthly_usd", "30000000000.00")
    raw_has(text, "cost_per_call_usd", "35.00000")


# --- pcb -------------------------------------------------------------------------------------

def test_pcb_internal_at_chart_limit_ok(api):
    text, res = run(api, PCB, {"current_a": 17.5, "temp_rise_c": 100, "copper_weight_oz": 3,
                               "layer": "internal"})
    assert 100 < res["width_mil"] <= 400


@pytest.mark.parametrize("body", [
    {"current_a": 17.6, "temp_rise_c": 100, "copper_weight_oz": 3, "layer": "internal"},
    {"current_a": 35, "temp_rise_c": 100, "copper_weight_oz": 3, "layer": "internal"},
    {"current_a": 35, "temp_rise_c": 10, "copper_weight_oz": 1, "layer": "external"},  # > 400 mil
])
def test_pcb_beyond_charts_422(api, body):
    err = check_error(api.post(PCB, body), 422, "UNPROCESSABLE", api.accounts, field="current_a",
                      tool_version="1.0.0")
    assert "IPC-2221" in err["message"]


def test_pcb_internal_needs_more_area(api):
    _, ext = run(api, PCB, PCB_DEFAULTS)
    _, inn = run(api, PCB, {**PCB_DEFAULTS, "layer": "internal"})
    ratio = inn["cross_section_mil2"] / ext["cross_section_mil2"]
    assert abs(ratio - 2 ** (1 / 0.725)) < 0.02


# --- results against an independent model of the formulas ------------------------------

RATES = {  # $/Mtok: input, cached, output; model_name
    "provider-a/model-a-4.7": (5.00, 0.50, 25.00, "Model A 4.7"),
    "provider-a/model-b-4.6": (3.00, 0.30, 15.00, "Model B 4.6"),
    "provider-a/model-c-4.5": (1.00, 0.10, 5.00, "Model C 4.5"),
    "provider-b/model-5.5": (5.00, 0.50, 30.00, "Model 5.5"),
    "provider-b/model-5.4": (2.50, 0.25, 15.00, "Model 5.4"),
    "provider-b/model-5.4-mini": (0.75, 0.075, 4.50, "Model 5.4 mini"),
    "provider-b/model-5.4-nano": (0.20, 0.02, 1.25, "Model 5.4 nano"),
    "provider-b/model-5": (1.25, 0.125, 10.00, "Model 5"),
    "provider-b/model-5-mini": (0.25, 0.025, 2.00, "Model 5 mini"),
    "provider-b/model-4.1": (2.00, 0.50, 8.00, "Model 4.1"),
    "provider-b/model-4.1-mini": (0.40, 0.10, 1.60, "Model 4.1 mini"),
    "provider-b/model-4o-mini": (0.15, 0.075, 0.60, "Model 4o mini"),
}


def model_battery(b):
    tw, T = b["wake_duration_ms"] / 1000, b["cycle_period_s"]
    avg_ma = (b["wake_current_ma"] * tw + b["sleep_current_ua"] / 1000 * (T - tw)) / T
    hours = b["battery_capacity_mah"] * b["battery_efficiency_pct"] / 100 / avg_ma
    return {"avg_current_ua": avg_ma * 1000, "avg_current_ma": avg_ma, "lifetime_hours": hours,
            "lifetime_days": hours / 24, "lifetime_years": hours / 24 / 365.25,
            "daily_wakes": 86400 / T}


def model_mosfet(b):
    p = b["drain_current_a"] ** 2 * b["rds_on_mohm"] / 1000 * b["duty_cycle"]
    rise = p * b["theta_ja_c_per_w"]
    tj = b["ambient_temp_c"] + rise
    return {"power_dissipation_w": p, "temp_rise_c": rise, "junction_temp_c": tj,
            "headroom_c": b["max_junction_temp_c"] - tj}


def model_cost(b):
    p_in, p_c, p_out, _ = RATES[b["model"]]
    n, ti, to = b["calls_per_month"], b["input_tokens_per_call"], b["output_tokens_per_call"]
    h, f = b["cached_input_fraction"], 0.5 if b["use_batch_api"] else 1.0
    inp = n * ti * ((1 - h) * p_in + h * p_c) / 1e6 * f
    out = n * to * p_out / 1e6 * f
    monthly = inp + out
    no_opt = n * (ti * p_in + to * p_out) / 1e6
    cache = n * ti * h * (p_in - p_c) / 1e6
    return {"monthly_cost_usd": monthly, "cost_per_call_usd": monthly / n,
            "input_cost_monthly_usd": inp, "output_cost_monthly_usd": out,
            "monthly_cost_no_optim_usd": no_opt, "cache_savings_usd": cache,
            "batch_savings_usd": no_opt - cache - monthly,
            "effective_input_rate_per_mtok": inp / (n * ti / 1e6),
            "effective_output_rate_per_mtok": out / (n * to / 1e6)}


def model_pcb(b):
    k = 0.048 if b["layer"] == "external" else 0.024
    a = (b["current_a"] / (k * b["temp_rise_c"] ** 0.44)) ** (1 / 0.725)
    h = b["copper_weight_oz"] * 1.378
    w = a / h
    r = 1.72e-8 * 0.01 / (w * 25.4e-6 * h * 25.4e-6)
    return {"width_mil": w, "width_mm": w * 0.0254, "cross_section_mil2": a,
            "copper_thickness_um": h * 25.4, "resistance_mohm_per_cm": r * 1000,
            "voltage_drop_mv_per_cm": b["current_a"] * r * 1000,
            "power_loss_mw_per_cm": b["current_a"] ** 2 * r * 1000}


def assert_close_to_model(res, expected, path):
    for key, _, p in OUTPUTS[path]:
        if key not in expected:
            continue
        tol = 0.5 * 10 ** -p * (1 + 1e-6) + abs(expected[key]) * 1e-12
        assert abs(res[key] - expected[key]) <= tol, (key, res[key], expected[key])


def rnd(rng, lo, hi, digits=3):
    return round(rng.uniform(lo, hi), digits)


def test_battery_random_inputs_match_model(api):
    rng = random.Random(20261122)
    for _ in range(12):
        period = rnd(rng, 1, 86400, 1)
        b = {"battery_capacity_mah": rnd(rng, 100, 30000, 0),
             "sleep_current_ua": rnd(rng, 1, 10000), "wake_current_ma": rnd(rng, 1, 2000),
             "wake_duration_ms": rnd(rng, 1, min(600000, period * 999)),
             "cycle_period_s": period, "battery_efficiency_pct": rnd(rng, 50, 100, 1)}
        _, res = run(api, BATTERY, b)
        assert_close_to_model(res, model_battery(b), BATTERY)


def test_mosfet_random_inputs_match_model(api):
    rng = random.Random(7)
    for _ in range(12):
        b = {"drain_current_a": rnd(rng, 0.001, 50), "rds_on_mohm": rnd(rng, 0.1, 100),
             "theta_ja_c_per_w": rnd(rng, 0.1, 100, 1), "ambient_temp_c": rnd(rng, -40, 125, 1),
             "duty_cycle": rnd(rng, 0.01, 1, 2), "max_junction_temp_c": rnd(rng, 100, 200, 0)}
        _, res = run(api, MOSFET, b)
        exp = model_mosfet(b)
        assert_close_to_model(res, exp, MOSFET)
        tj, tmax = exp["junction_temp_c"], b["max_junction_temp_c"]
        if abs(tj - tmax) > 1e-6 and abs(tj - 0.8 * tmax) > 1e-6:
            want = "danger" if tj >= tmax else "marginal" if tj > 0.8 * tmax else "ok"
            assert res["status"] == want, (b, res)


def test_cost_random_inputs_match_model(api):
    rng = random.Random(42)
    for model in RATES:
        b = {"model": model, "input_tokens_per_call": rng.randint(1, 200000),
             "output_tokens_per_call": rng.randint(1, 50000),
             "calls_per_month": rng.randint(1, 10**7),
             "cached_input_fraction": rnd(rng, 0, 1, 2), "use_batch_api": rng.random() < 0.5}
        _, res = run(api, COST, b)
        assert res["model_name"] == RATES[model][3]
        assert_close_to_model(res, model_cost(b), COST)
        # the two savings add up to no_optim - monthly, to the cent
        diff = res["monthly_cost_no_optim_usd"] - res["monthly_cost_usd"]
        assert abs(res["cache_savings_usd"] + res["batch_savings_usd"] - diff) <= 0.011


def test_pcb_random_inputs_match_model(api):
    rng = random.Random(3)
    done = 0
    while done < 12:
        b = {"current_a": rnd(rng, 0.01, 10, 2), "temp_rise_c": rnd(rng, 1, 100, 0),
             "copper_weight_oz": rng.choice([0.5, 1, 1.5, 2, 3]),
             "layer": rng.choice(["external", "internal"])}
        if model_pcb(b)["width_mil"] > 399:
            continue
        _, res = run(api, PCB, b)
        assert_close_to_model(res, model_pcb(b), PCB)
        done += 1


def test_battery_lifetime_falls_as_wake_current_rises(api):
    prev = math.inf
    for wake in (1, 10, 100, 1000, 2000):
        _, res = run(api, BATTERY, {**BATTERY_DEFAULTS, "wake_current_ma": wake})
        assert res["lifetime_hours"] < prev
        prev = res["lifetime_hours"]

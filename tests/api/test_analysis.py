"""POST /v1/{domain}/{slug}/tolerance and …/solve over HTTP (docs/api.md "Tolerance analysis"
and "Solve for an input"; docs/analysis.md): the voltage divider checked by hand, byte-identical
repeats, failed samples, text outputs, solve round trips through execute, every error with the
field it names, and what each call costs. Runs through Prism in contract mode."""
import math

import pytest

from support import (BATTERY, BATTERY_DEFAULTS, KEYS_AVAILABLE, MOSFET, MOSFET_DEFAULTS,
                     NO_KEYS_REASON, check_error, check_success, header_int)

DIVIDER = "/v1/electronics/voltage-divider"
DIVIDER_VERSION = "2.0.0"  # docs/tools/voltage-divider.md
TOL = DIVIDER + "/tolerance"
SOLVE = DIVIDER + "/solve"
LED = "/v1/electronics/led-series-resistor"
LED_VERSION = "2.0.0"
DIVIDER_INPUTS = {"vin_v": 12, "r1_ohm": 10000, "r2_ohm": 10000}
ONE_PCT = {"r1_ohm": {"pct": 1}, "r2_ohm": {"pct": 1}}
# σ of a normal truncated at ±3σ, in units of the untruncated σ: √(1 − 6φ(3)/(2Φ(3) − 1)).
TRUNCATED_STD = math.sqrt(1 - 6 * math.exp(-4.5) / math.sqrt(2 * math.pi) / math.erf(3 / math.sqrt(2)))


def tolerance(api, body, path=TOL, key=None, version=DIVIDER_VERSION):
    r = api.post(path, body, **({"key": key} if key else {}))
    return check_success(r, api.accounts, version=version)["result"], r


def divider_body(**extra):
    return {"inputs": DIVIDER_INPUTS, "tolerances": ONE_PCT, **extra}


# --- tolerance: the worked example of docs/analysis.md -----------------------------------

def test_divider_worst_case_and_rss_are_the_hand_values(api):
    result, _ = tolerance(api, divider_body())
    assert [result[k] for k in ("samples", "seed", "distribution")] == [10000, 1, "normal"]
    assert result["evaluations"] == 1 + 2 * 2 + 4 + 10000
    assert result["toleranced"] == [
        {"key": "r1_ohm", "nominal": 10000, "min": 9900, "max": 10100, "distribution": "normal"},
        {"key": "r2_ohm", "nominal": 10000, "min": 9900, "max": 10100, "distribution": "normal"}]
    assert result["failed_samples"] == 0 and result["first_failed_sample"] is None
    assert list(result["outputs"]) == [o["key"] for o in api.get(
        DIVIDER + "/schema").json()["result"]["outputs"]]
    v = result["outputs"]["vout_uv"]  # µV, 2 decimals: the hand values show to 0.01 µV
    assert v["nominal"] == 6000000
    # Vout = Vin·R2/(R1 + R2): least with R1 high and R2 low, 12·9900/20000 V.
    assert v["worst_case"]["min"] == 5940000 and v["worst_case"]["max"] == 6060000
    assert v["worst_case"]["min_at"] == {"r1_ohm": 10100, "r2_ohm": 9900}
    assert v["worst_case"]["max_at"] == {"r1_ohm": 9900, "r2_ohm": 10100}
    # ∂V/∂R1 = −Vin·R2/(R1+R2)² = −3e-4 V/Ω, ∂V/∂R2 = +3e-4 V/Ω; u = 100 Ω/3 × the
    # truncated normal's σ factor.
    c = 12 * 10000 / 20000 ** 2 * 1e6  # µV/Ω
    sigma = math.sqrt(2) * c * 100 / 3 * TRUNCATED_STD
    assert v["rss"]["sigma"] == pytest.approx(sigma, abs=0.006)
    assert v["rss"]["min"] == pytest.approx(6e6 - 3 * sigma, abs=0.01)
    assert v["rss"]["max"] == pytest.approx(6e6 + 3 * sigma, abs=0.01)
    shares = {s["key"]: s for s in v["sensitivity"]}
    assert shares["r1_ohm"]["share_pct"] == 50 and shares["r2_ohm"]["share_pct"] == 50
    assert shares["r1_ohm"]["derivative"] == pytest.approx(-c, rel=1e-5)
    assert shares["r2_ohm"]["derivative"] == pytest.approx(c, rel=1e-5)
    mc = v["monte_carlo"]
    assert mc["samples"] == 10000
    # The mean within 4 standard errors of the nominal (V is nearly linear over ±1 %), σ
    # within 4 standard errors of σ's estimate (≈ σ/√(2n)).
    assert abs(mc["mean"] - 6e6) < 4 * sigma / 100
    assert abs(mc["std"] - sigma) < 4 * sigma / math.sqrt(2 * 10000)
    assert mc["min"] <= mc["p1"] <= mc["p5"] <= mc["p50"] <= mc["p95"] <= mc["p99"] <= mc["max"]
    assert v["worst_case"]["min"] <= mc["min"] and mc["max"] <= v["worst_case"]["max"]
    hist = mc["histogram"]
    assert len(hist["edges"]) == len(hist["counts"]) + 1 == 45  # ⌈2·10000^(1/3)⌉ = 44 bins
    assert hist["edges"][0] == mc["min"] and hist["edges"][-1] == mc["max"]
    assert sum(hist["counts"]) == 10000
    # The text output e_series gives no string output here; every output is numeric.
    assert all("worst_case" in o for o in result["outputs"].values())


def test_divider_figures_published_in_the_docs_are_the_services(api):
    """docs/analysis.md's table, exactly: the seeded samples are the same on every run, so
    the page's Monte Carlo figures are what the service answers, not an example of it."""
    result, _ = tolerance(api, divider_body())
    v = result["outputs"]["vout_uv"]
    assert [v["rss"][k] for k in ("sigma", "min", "max")] == [13952.33, 5958143.02, 6041856.98]
    mc = v["monte_carlo"]
    assert [mc[k] for k in ("mean", "std", "p1", "p5", "p50", "p95", "p99", "min", "max")] == [
        6000039.35, 14004.32, 5967642.62, 5976993.40, 6000142.99, 6022958.39, 6032557.49,
        5950396.51, 6047767.15]
    assert [(s["key"], s["share_pct"], s["derivative"]) for s in v["sensitivity"]] in (
        [("r1_ohm", 50, -300), ("r2_ohm", 50, 300)], [("r2_ohm", 50, 300), ("r1_ohm", 50, -300)])
    volts = result["outputs"]["vout_v"]
    assert [volts["nominal"], volts["worst_case"]["min"], volts["worst_case"]["max"],
            volts["rss"]["min"], volts["rss"]["max"]] == [6, 5.94, 6.06, 5.9581, 6.0419]
    assert volts["monte_carlo"]["std"] == 0.014


def test_the_same_body_gives_the_same_bytes_and_another_seed_other_samples(api):
    body = divider_body(samples=2000, seed=42)

    def result_bytes(r):
        text = r.text
        return text[text.index('"result":'):text.index(',"meta":')]

    _, first = tolerance(api, body)
    _, second = tolerance(api, body)
    assert result_bytes(first) == result_bytes(second)
    _, other = tolerance(api, divider_body(samples=2000, seed=43))
    a = first.json()["result"]["outputs"]["vout_uv"]
    b = other.json()["result"]["outputs"]["vout_uv"]
    assert a["monte_carlo"]["mean"] != b["monte_carlo"]["mean"]
    assert a["rss"] == b["rss"]  # RSS and the corners do not depend on the seed
    assert a["worst_case"]["min"] == b["worst_case"]["min"] == 5940000


def test_uniform_distribution_and_per_input_overrides(api):
    body = {"inputs": DIVIDER_INPUTS, "distribution": "uniform", "samples": 20000,
            "tolerances": {"r1_ohm": {"abs": 100}, "r2_ohm": {"min": 9900, "max": 10100,
                                                             "distribution": "normal"}}}
    result, _ = tolerance(api, body)
    assert result["distribution"] == "uniform"
    assert [t["distribution"] for t in result["toleranced"]] == ["uniform", "normal"]
    v = result["outputs"]["vout_uv"]
    c = 12 * 10000 / 20000 ** 2 * 1e6
    u1 = 200 / math.sqrt(12)  # a uniform over ±100 Ω
    u2 = 100 / 3 * TRUNCATED_STD
    sigma = c * math.sqrt(u1 ** 2 + u2 ** 2)
    assert v["rss"]["sigma"] == pytest.approx(sigma, abs=0.006)
    shares = {s["key"]: s["share_pct"] for s in v["sensitivity"]}
    assert shares["r1_ohm"] == pytest.approx(100 * u1 ** 2 / (u1 ** 2 + u2 ** 2), abs=0.006)
    assert [s["key"] for s in v["sensitivity"]] == ["r1_ohm", "r2_ohm"]  # largest first
    assert abs(v["monte_carlo"]["std"] - sigma) < 4 * sigma / math.sqrt(2 * 20000)


def test_off_centre_range_and_an_integer_input(api):
    # LED: R = (Vs − n·Vf)/I; n ∈ {2, 3, 4} around 3, so R takes three values.
    body = {"inputs": {"supply_v": 12, "led_forward_v": 2, "led_current_ma": 20,
                       "led_count": 3},
            "tolerances": {"led_count": {"abs": 1}, "supply_v": {"min": 11.5, "max": 13}},
            "samples": 500}
    result, _ = tolerance(api, body, path=LED + "/tolerance", version=LED_VERSION)
    assert [t["key"] for t in result["toleranced"]] == ["supply_v", "led_count"]
    counts = {p["led_count"] for o in result["outputs"].values() if "worst_case" in o
              for p in (o["worst_case"]["min_at"], o["worst_case"]["max_at"])}
    assert counts <= {2, 3, 4} and counts & {2, 4}
    r = result["outputs"]["resistance_ohm"]
    assert r["worst_case"]["min"] == pytest.approx((11.5 - 4 * 2) / 0.02, abs=0.5)
    assert r["worst_case"]["max"] == pytest.approx((13 - 2 * 2) / 0.02, abs=0.5)


def test_failed_samples_are_counted_with_the_first_and_left_out(api):
    # wake 59.5 s ± 1 s against a 60 s period: the tool refuses every wake longer than it.
    inputs = {**BATTERY_DEFAULTS, "wake_duration_ms": 59500}
    body = {"inputs": inputs, "tolerances": {"wake_duration_ms": {"abs": 1000}},
            "distribution": "uniform", "samples": 1000}
    result, _ = tolerance(api, body, path=BATTERY + "/tolerance", version="1.0.0")
    failed = result["failed_samples"]
    assert 150 < failed < 350  # a quarter of a uniform range, ± 7 standard deviations
    first = result["first_failed_sample"]
    assert first["inputs"]["wake_duration_ms"] > 60000
    assert first["field"] == "wake_duration_ms" and "longer than cycle_period_s" in first["message"]
    assert result["failed_corners"] == 1
    assert result["first_failed_corner"]["inputs"] == {"wake_duration_ms": 60500}
    mc = result["outputs"]["avg_current_ua"]["monte_carlo"]
    assert mc["samples"] == 1000 - failed and sum(mc["histogram"]["counts"]) == 1000 - failed


def test_every_sample_refused_is_422_and_gives_the_units_back(api):
    inputs = {**BATTERY_DEFAULTS, "wake_duration_ms": 60000}  # the period itself: computes
    body = {"inputs": inputs, "tolerances": {"wake_duration_ms": {"min": 60000, "max": 70000}},
            "distribution": "uniform", "samples": 100}
    err = check_error(api.post(BATTERY + "/tolerance", body), 422, "UNPROCESSABLE", api.accounts,
                      field="inputs.wake_duration_ms",
                      contains=["no result for any of the 100 samples", "longer than"])
    assert "wake_duration_ms = " in err["message"]
    inputs["wake_duration_ms"] = 61000  # the nominal itself refused
    body = {"inputs": inputs, "tolerances": {"battery_capacity_mah": {"pct": 1}}}
    check_error(api.post(BATTERY + "/tolerance", body), 422, "UNPROCESSABLE", api.accounts,
                field="inputs.wake_duration_ms", contains=["at the nominal inputs"])


def test_text_outputs_are_counted_and_seen_at_the_corners(api):
    inputs = {**MOSFET_DEFAULTS, "ambient_temp_c": 85}
    body = {"inputs": inputs, "samples": 2000,
            "tolerances": {"drain_current_a": {"pct": 40}, "ambient_temp_c": {"abs": 10}}}
    version = api.get(MOSFET + "/schema").json()["result"]["version"]
    result, _ = tolerance(api, body, path=MOSFET + "/tolerance", version=version)
    status = result["outputs"]["status"]
    assert list(status) == ["nominal", "samples", "corners"]
    assert status["nominal"] == "ok"  # 85 + 31 = 116 °C, under 80 % of 150 °C
    counts = [c["count"] for c in status["samples"]]
    assert sum(counts) == 2000 and counts == sorted(counts, reverse=True)
    assert {c["value"] for c in status["samples"]} <= {"ok", "marginal", "danger"}
    # Corners: 3 A at 75 °C is 86 °C (ok); 7 A at 95 °C is 95 + 60.8 = 155.8 °C (danger).
    assert status["corners"][0] == "ok" and "danger" in status["corners"]
    tj = result["outputs"]["junction_temp_c"]
    assert tj["worst_case"]["max"] == pytest.approx(95 + 62 * 7 * 7 * 0.02, abs=0.05)


# --- solve --------------------------------------------------------------------------------

def execute_at(api, inputs, key, value, version=DIVIDER_VERSION, path=DIVIDER):
    r = api.post(path, {**inputs, key: value})
    return check_success(r, api.accounts, version=version)["result"]


def test_solve_divider_round_trips_through_execute(api):
    body = {"inputs": DIVIDER_INPUTS, "vary": "r2_ohm",
            "target": {"output": "vout_v", "value": 3.3}}
    r = api.post(SOLVE, body)
    result = check_success(r, api.accounts, version=DIVIDER_VERSION)["result"]
    assert list(result) == ["vary", "target", "solutions", "reachable", "evaluations",
                            "complete"]
    assert result["vary"] == "r2_ohm" and result["complete"] is True
    [s] = result["solutions"]
    assert s["value"] == pytest.approx(10000 * 3.3 / 8.7, rel=1e-14)  # R2 = R1·V/(Vin − V)
    at = execute_at(api, DIVIDER_INPUTS, "r2_ohm", s["value"])
    assert at == s["result"]
    assert at["vout_uv"] == 3300000  # 2 decimals of µV: the target to 1e-8 V
    lo, hi = result["reachable"]["min"], result["reachable"]["max"]
    assert lo == pytest.approx(12 * 100 / 10100) and hi == pytest.approx(12 * 1e7 / (1e7 + 1e4))


def test_solve_finds_every_root_nearest_the_nominal_first(api):
    # P(R1) = Vin²·R1/(R1 + R2)² peaks at R1 = R2 = 10 kΩ (3.6 mW); 3.2 mW is reached at
    # R1 = 5 kΩ and 20 kΩ (R1² − 25000·R1 + 10⁸ = 0).
    for nominal, order in ((9000, [5000, 20000]), (18000, [20000, 5000])):
        inputs = {**DIVIDER_INPUTS, "r1_ohm": nominal}
        body = {"inputs": inputs, "vary": "r1_ohm",
                "target": {"output": "r1_power_mw", "value": 3.2}}
        result = check_success(api.post(SOLVE, body), api.accounts,
                               version=DIVIDER_VERSION)["result"]
        values = [s["value"] for s in result["solutions"]]
        assert values == pytest.approx(order, rel=1e-12)
        for s in result["solutions"]:
            assert execute_at(api, inputs, "r1_ohm", s["value"])["r1_power_mw"] == 3.2
        # The peak, 3.6 mW, is reached only at R1 = R2; the scan's points come close.
        assert 3.59 < result["reachable"]["max"] <= 3.6


def test_solve_the_varied_input_may_be_left_out(api):
    body = {"inputs": {"vin_v": 12, "r2_ohm": 10000}, "vary": "r1_ohm",
            "target": {"output": "vout_v", "value": 4}}
    result = check_success(api.post(SOLVE, body), api.accounts, version=DIVIDER_VERSION)["result"]
    assert [s["value"] for s in result["solutions"]] == pytest.approx([20000], rel=1e-14)


def test_no_solution_is_422_with_the_reachable_range(api):
    body = {"inputs": DIVIDER_INPUTS, "vary": "r2_ohm",
            "target": {"output": "vout_v", "value": 13}}
    err = check_error(api.post(SOLVE, body), 422, "NO_SOLUTION", api.accounts,
                      field="target.value", tool_version=DIVIDER_VERSION,
                      contains=["r2_ohm from 100 to 10000000", "vout_v = 13", "reaches 0.1188"])
    assert "11.988" in err["message"]


# --- validation: every error names its field ---------------------------------------------

@pytest.mark.parametrize("body,field,part", [
    ({"tolerances": ONE_PCT}, "inputs.vin_v", "is required"),
    ({"inputs": {**DIVIDER_INPUTS, "r3_ohm": 1}, "tolerances": ONE_PCT}, "inputs.r3_ohm",
     "unknown"),
    ({"inputs": {**DIVIDER_INPUTS, "vin_v": "12"}, "tolerances": ONE_PCT}, "inputs.vin_v",
     "without quotes"),
    ({"inputs": {**DIVIDER_INPUTS, "vin_v": 5000}, "tolerances": ONE_PCT}, "inputs.vin_v",
     "1000"),
    ({"inputs": [], "tolerances": ONE_PCT}, "inputs", "object"),
    ({"inputs": DIVIDER_INPUTS}, "tolerances", "is required"),
    ({"inputs": DIVIDER_INPUTS, "tolerances": {}}, "tolerances", "got 0"),
    ({"inputs": DIVIDER_INPUTS, "tolerances": {f"k{i}": {"pct": 1} for i in range(13)}},
     "tolerances", "1 to 12"),
    ({"inputs": DIVIDER_INPUTS, "tolerances": {"r3_ohm": {"pct": 1}}}, "tolerances.r3_ohm",
     "did you mean 'r1_ohm'"),
    ({"inputs": DIVIDER_INPUTS, "tolerances": {"e_series": {"pct": 1}}},
     "tolerances.e_series", "only number and integer inputs"),
    ({"inputs": DIVIDER_INPUTS, "tolerances": {"r1_ohm": 1}}, "tolerances.r1_ohm",
     "must be an object"),
    ({"inputs": DIVIDER_INPUTS, "tolerances": {"r1_ohm": {"pct": 1, "abs": 5}}},
     "tolerances.r1_ohm", "exactly one range"),
    ({"inputs": DIVIDER_INPUTS, "tolerances": {"r1_ohm": {}}}, "tolerances.r1_ohm",
     "exactly one range"),
    ({"inputs": DIVIDER_INPUTS, "tolerances": {"r1_ohm": {"min": 9000}}},
     "tolerances.r1_ohm.max", "required"),
    ({"inputs": DIVIDER_INPUTS, "tolerances": {"r1_ohm": {"pct": 0}}},
     "tolerances.r1_ohm.pct", "greater than 0"),
    ({"inputs": DIVIDER_INPUTS, "tolerances": {"r1_ohm": {"abs": "5"}}},
     "tolerances.r1_ohm.abs", "without quotes"),
    ({"inputs": DIVIDER_INPUTS, "tolerances": {"r1_ohm": {"min": 10001, "max": 11000}}},
     "tolerances.r1_ohm.min", "at most the nominal"),
    ({"inputs": DIVIDER_INPUTS, "tolerances": {"r1_ohm": {"min": 9000, "max": 9999}}},
     "tolerances.r1_ohm.max", "at least the nominal"),
    ({"inputs": DIVIDER_INPUTS, "tolerances": {"r1_ohm": {"min": 10000, "max": 10000}}},
     "tolerances.r1_ohm", "empty range"),
    ({"inputs": {**DIVIDER_INPUTS, "r1_ohm": 100}, "tolerances": {"r1_ohm": {"pct": 5}}},
     "tolerances.r1_ohm", "goes below its minimum of 100"),
    ({"inputs": {**DIVIDER_INPUTS, "r2_ohm": 1e7}, "tolerances": {"r2_ohm": {"abs": 1}}},
     "tolerances.r2_ohm", "goes above its maximum of 10000000"),
    ({"inputs": DIVIDER_INPUTS, "tolerances": {"r1_ohm": {"pct": 1, "sigma": 2}}},
     "tolerances.r1_ohm.sigma", "unknown member"),
    ({"inputs": DIVIDER_INPUTS, "tolerances": {"r1_ohm": {"pct": 1, "distribution": "beta"}}},
     "tolerances.r1_ohm.distribution", '"normal" or "uniform"'),
    ({**divider_body(), "distribution": "gauss"}, "distribution", '"normal" or "uniform"'),
    ({**divider_body(), "samples": 99}, "samples", "from 100 to 100000"),
    ({**divider_body(), "samples": 100001}, "samples", "from 100 to 100000"),
    ({**divider_body(), "samples": 150.5}, "samples", "an integer"),
    ({**divider_body(), "samples": "1000"}, "samples", "without quotes"),
    ({**divider_body(), "seed": -1}, "seed", "from 0 to 9007199254740991"),
    ({**divider_body(), "seed": 2 ** 53}, "seed", "from 0 to 9007199254740991"),
    ({**divider_body(), "vary": "r1_ohm"}, "vary", "unknown member"),
])
def test_tolerance_validation_errors_name_the_field(api, body, field, part):
    err = check_error(api.post(TOL, body), 400, "VALIDATION_ERROR", api.accounts, field=field,
                      tool_version=DIVIDER_VERSION)
    assert part in err["message"], err["message"]


def test_integer_range_must_hold_another_integer(api):
    body = {"inputs": {"supply_v": 12, "led_forward_v": 2, "led_current_ma": 20, "led_count": 3},
            "tolerances": {"led_count": {"abs": 0.5}}}
    check_error(api.post(LED + "/tolerance", body), 400, "VALIDATION_ERROR", api.accounts,
                field="tolerances.led_count", contains=["holds no integer but the nominal"])


def solve_body(**parts):
    body = {"inputs": DIVIDER_INPUTS, "vary": "r2_ohm",
            "target": {"output": "vout_v", "value": 3.3}}
    body.update(parts)
    return {k: v for k, v in body.items() if v is not None}


@pytest.mark.parametrize("body,field,part", [
    (solve_body(vary=None), "vary", "is required"),
    (solve_body(vary="e_series"), "vary", "not a numeric input"),
    (solve_body(vary="r3_ohm"), "vary", "solve for one of: vin_v, r1_ohm, r2_ohm, load_ohm"),
    (solve_body(vary=3), "vary", "must be a string"),
    (solve_body(target=None), "target", "is required"),
    (solve_body(target=3.3), "target", "must be an object"),
    (solve_body(target={"value": 3.3}), "target.output", "is required"),
    (solve_body(target={"output": "vout", "value": 3.3}), "target.output",
     "not a number output"),
    (solve_body(target={"output": 1, "value": 3.3}), "target.output", "must be a string"),
    (solve_body(target={"output": "vout_v"}), "target.value", "is required"),
    (solve_body(target={"output": "vout_v", "value": "3.3"}), "target.value", "without quotes"),
    (solve_body(target={"output": "vout_v", "value": 3.3, "tol": 1}), "target.tol",
     "unknown member"),
    (solve_body(inputs={"vin_v": 12, "r1_ohm": 10000, "r2_ohm": 0}), "inputs.r2_ohm", "100"),
    (solve_body(inputs={"r1_ohm": 10000}), "inputs.vin_v", "is required"),
    (solve_body(samples=100), "samples", "unknown member"),
])
def test_solve_validation_errors_name_the_field(api, body, field, part):
    err = check_error(api.post(SOLVE, body), 400, "VALIDATION_ERROR", api.accounts, field=field,
                      tool_version=DIVIDER_VERSION)
    assert part in err["message"], err["message"]


def test_mosfet_status_is_not_a_solve_target(api):
    body = {"inputs": MOSFET_DEFAULTS, "vary": "ambient_temp_c",
            "target": {"output": "status", "value": 1}}
    check_error(api.post(MOSFET + "/solve", body), 400, "VALIDATION_ERROR", api.accounts,
                field="target.output", contains=["not a number output", "junction_temp_c"])


@pytest.mark.parametrize("path", [TOL, SOLVE])
def test_raw_bodies_routing_and_access(api, path):
    check_error(api.post(path, raw="{nope"), 400, "INVALID_JSON", api.accounts,
                tool_version=DIVIDER_VERSION)
    check_error(api.post(path, raw="[1]"), 400, "INVALID_JSON", api.accounts,
                tool_version=DIVIDER_VERSION)
    check_error(api.post(path, divider_body(), content_type="text/plain"), 415,
                "UNSUPPORTED_MEDIA_TYPE", api.accounts, tool_version=DIVIDER_VERSION)
    r = api.post(path, divider_body(), key=None)
    check_error(r, 401, "UNAUTHORIZED", api.accounts, tool_version=DIVIDER_VERSION)
    assert r.headers.get("WWW-Authenticate") == "Bearer"
    r = api.get(path, key=api.key)
    check_error(r, 405, "METHOD_NOT_ALLOWED", api.accounts, tool_version=DIVIDER_VERSION)
    assert r.headers["Allow"] == "POST, OPTIONS"
    suffix = path.rsplit("/", 1)[1]
    check_error(api.post(f"/v1/electronics/voltage-dividr/{suffix}", divider_body()), 404,
                "NOT_FOUND", api.accounts, contains=["voltage-dividr"])


# --- what an analysis costs --------------------------------------------------------------

def used(api, key):
    return api.get("/v1/me", key=key).json()["result"]["quota"]["used"]


@pytest.mark.skipif(not KEYS_AVAILABLE, reason=NO_KEYS_REASON)
def test_one_rate_unit_and_one_quota_unit_per_1000_evaluations(api):
    key = api.keys["analysis"]
    for attempt in range(3):  # a minute boundary between the requests: measure again
        start = used(api, key)
        before = api.get("/v1/tools", key=key)
        r = api.post(TOL, divider_body(samples=2500), key=key)  # 1 + 4 + 4 + 2500 evaluations
        s = api.post(SOLVE, solve_body(), key=key)
        if header_int(s, "X-RateLimit-Reset") == header_int(before, "X-RateLimit-Reset"):
            break
    tol = check_success(r, api.accounts, version=DIVIDER_VERSION)
    solve = check_success(s, api.accounts, version=DIVIDER_VERSION)
    assert header_int(s, "X-RateLimit-Remaining") == header_int(before, "X-RateLimit-Remaining") - 2
    assert tol["result"]["evaluations"] == 2509
    assert solve["result"]["evaluations"] <= 1000
    assert used(api, key) - start == 3 + 1  # ⌈2509/1000⌉ and one for the solve
    assert solve["meta"]["quota_remaining"] == tol["meta"]["quota_remaining"] - 1
    # A 422 gives every unit back.
    body = {"inputs": {**BATTERY_DEFAULTS, "wake_duration_ms": 61000},
            "tolerances": {"battery_capacity_mah": {"pct": 1}}}
    check_error(api.post(BATTERY + "/tolerance", body, key=key), 422, "UNPROCESSABLE",
                api.accounts, field="inputs.wake_duration_ms")
    check_error(api.post(SOLVE, solve_body(target={"output": "vout_v", "value": 20}), key=key),
                422, "NO_SOLUTION", api.accounts, field="target.value",
                tool_version=DIVIDER_VERSION)
    assert used(api, key) - start == 4


@pytest.mark.skipif(not KEYS_AVAILABLE, reason=NO_KEYS_REASON)
def test_the_quota_must_cover_the_evaluations_before_anything_runs(api):
    key = api.keys["analysis10"]  # monthly quota 10
    r = api.post(TOL, divider_body(samples=10000), key=key)  # 10 009 evaluations: 11 units
    err = check_error(r, 429, "QUOTA_EXCEEDED", api.accounts, tool_version=DIVIDER_VERSION)
    assert "needs 11 units" in err["message"] and "has 10 left" in err["message"]
    assert header_int(r, "Retry-After") >= 1
    assert used(api, key) == 0
    r = api.post(TOL, divider_body(samples=9991), key=key)  # 10 000 evaluations: 10 units
    assert check_success(r, api.accounts, version=DIVIDER_VERSION)["meta"]["quota_remaining"] == 0
    check_error(api.post(SOLVE, solve_body(), key=key), 429, "QUOTA_EXCEEDED", api.accounts,
                tool_version=DIVIDER_VERSION)
    assert used(api, key) == 10


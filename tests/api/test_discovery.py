"""Discovery endpoints (spec §2.1 and §4): schema, tools listing with
pagination, tools/{slug}, domains, health. All work without a key."""
import re

import pytest

from support import (BATTERY, COST, MOSFET, PCB, SEMVER_RE, check_error, check_ok_result,
                     check_success)

RECORD_KEYS = ["tool", "domain", "version", "name", "description", "standard", "inputs",
               "outputs", "endpoint"]
SUMMARY_KEYS = ["tool", "domain", "version", "name", "description", "standard", "endpoint"]
INPUT_FIELDS = {"key", "label", "required", "unit", "help", "type", "min", "max", "step",
                "default", "options"}
OUTPUT_FIELDS = {"key", "label", "type", "unit", "precision", "options"}

TOOLS = {
    "mcu-deep-sleep-battery": ("iot-mcu", BATTERY, None),
    "mosfet-thermal-junction": ("electronics", MOSFET, None),
    "llm-api-cost-calculator": ("programming-dev", COST, None),
    "pcb-trace-width": ("pcb-design", PCB, "IPC-2221"),
}
DOMAIN_TARGETS = {"iot-mcu": 12, "electronics": 24, "pcb-design": 12, "programming-dev": 12}

# Input descriptors from spec §2.2-2.4 and the tools' descriptors: key -> (type, unit, min, max, step, default)
SPEC_INPUTS = {
    "mcu-deep-sleep-battery": [
        ("battery_capacity_mah", "number", "mAh", 100, 30000, 100, 2000),
        ("sleep_current_ua", "number", "µA", 1, 10000, 1, 10),
        ("wake_current_ma", "number", "mA", 1, 2000, 1, 80),
        ("wake_duration_ms", "number", "ms", 1, 600000, 10, 250),
        ("cycle_period_s", "number", "s", 1, 86400, 1, 60),
        ("battery_efficiency_pct", "number", "% (usable capacity)", 50, 100, 1, 80)],
    "mosfet-thermal-junction": [
        ("drain_current_a", "number", "A", 0.001, 1000, 0.1, 5),
        ("rds_on_mohm", "number", "mΩ", 0.1, 10000, 0.1, 20),
        ("theta_ja_c_per_w", "number", "°C/W (junction-to-ambient)", 0.1, 500, 0.5, 62),
        ("ambient_temp_c", "number", "°C", -40, 125, 1, 25),
        ("duty_cycle", "number", "(fraction; 1 = continuously on)", 0.01, 1, 0.01, 1),
        ("max_junction_temp_c", "number", "°C", 100, 200, 5, 150)],
    "llm-api-cost-calculator": [
        ("model", "enum", None, None, None, None, "provider-a/model-b-4.6"),
        ("input_tokens_per_call", "integer", "tok", 1, 1000000, 100, 2000),
        ("output_tokens_per_call", "integer", "tok", 1, 1000000, 50, 500),
        ("calls_per_month", "integer", "", 1, 1000000000, 1000, 100000),
        ("cached_input_fraction", "number", "fraction 0..1", 0, 1, 0.05, 0),
        ("use_batch_api", "boolean", None, None, None, None, False)],
    "pcb-trace-width": [
        ("current_a", "number", "A", 0.01, 35, 0.1, 1),
        ("temp_rise_c", "number", "°C", 1, 100, 1, 10),
        ("copper_weight_oz", "number", "oz/ft²", 0.5, 3, 0.5, 1),
        ("layer", "enum", None, None, None, None, "external")],
}
SPEC_OUTPUTS = {
    "mcu-deep-sleep-battery": [("avg_current_ua", "number", "µA", 1),
                               ("avg_current_ma", "number", "mA", 3),
                               ("lifetime_hours", "number", "h", 1),
                               ("lifetime_days", "number", "days", 1),
                               ("lifetime_years", "number", "years", 2),
                               ("daily_wakes", "number", None, 0)],
    "mosfet-thermal-junction": [("power_dissipation_w", "number", "W", 3),
                                ("temp_rise_c", "number", "°C", 1),
                                ("junction_temp_c", "number", "°C", 1),
                                ("headroom_c", "number", "°C", 1),
                                ("status", "string", None, None)],
    "llm-api-cost-calculator": [("model_name", "string", None, None),
                                ("provider", "string", None, None),
                                ("monthly_cost_usd", "number", "$", 2),
                                ("cost_per_call_usd", "number", "$", 5),
                                ("input_cost_monthly_usd", "number", "$", 2),
                                ("output_cost_monthly_usd", "number", "$", 2),
                                ("monthly_cost_no_optim_usd", "number",
                                 "$ (cost without cache or batch)", 2),
                                ("cache_savings_usd", "number", "$ per month", 2),
                                ("batch_savings_usd", "number", "$ per month", 2),
                                ("effective_input_rate_per_mtok", "number", "$/Mtok", 3),
                                ("effective_output_rate_per_mtok", "number", "$/Mtok", 3),
                                ("pricing_as_of", "string", None, None)],
    "pcb-trace-width": [("width_mil", "number", "mil", 1), ("width_mm", "number", "mm", 3),
                        ("cross_section_mil2", "number", "mil²", 1),
                        ("copper_thickness_um", "number", "µm", 1),
                        ("resistance_mohm_per_cm", "number", "mΩ/cm", 2),
                        ("voltage_drop_mv_per_cm", "number", "mV/cm", 2),
                        ("power_loss_mw_per_cm", "number", "mW/cm", 2)],
}
ENUM_OPTIONS = {
    "model": ["provider-a/model-a-4.7", "provider-a/model-b-4.6", "provider-a/model-c-4.5",
              "provider-b/model-5.5", "provider-b/model-5.4", "provider-b/model-5.4-mini",
              "provider-b/model-5.4-nano", "provider-b/model-5", "provider-b/model-5-mini",
              "provider-b/model-4.1", "provider-b/model-4.1-mini", "provider-b/model-4o-mini"],
    "layer": ["external", "internal"],
}
OPTIONAL_INPUTS = {"model", "cached_input_fraction", "use_batch_api"}


def check_record(rec, slug):
    domain, path, standard = TOOLS[slug]
    assert list(rec)[:len(RECORD_KEYS)] == RECORD_KEYS, list(rec)
    assert rec["tool"] == slug and rec["domain"] == domain
    assert rec["version"] == "1.0.0"
    assert isinstance(rec["name"], str) and rec["name"]
    assert isinstance(rec["description"], str) and len(rec["description"]) > 20
    assert rec["standard"] == standard
    assert rec["endpoint"] == path == f"/v1/{domain}/{slug}"

    spec_in = SPEC_INPUTS[slug]
    assert [i["key"] for i in rec["inputs"]] == [s[0] for s in spec_in]
    for desc, (key, typ, unit, lo, hi, step, default) in zip(rec["inputs"], spec_in):
        assert set(desc) <= INPUT_FIELDS, (key, set(desc) - INPUT_FIELDS)
        assert desc["type"] == typ, key
        assert isinstance(desc["label"], str) and desc["label"], key
        if "help" in desc:
            assert isinstance(desc["help"], str) and desc["help"]
        if key in OPTIONAL_INPUTS:
            assert "required" not in desc, f"{key}: `required` must be absent"
        else:
            assert desc.get("required") is True, f"{key}: required must be true"
        if unit is None:
            assert "unit" not in desc, f"{key}: no unit in the spec, so `unit` is absent"
        else:
            assert desc.get("unit") == unit, (key, desc.get("unit"))
        if typ in ("number", "integer"):
            assert (desc["min"], desc["max"], desc["step"]) == (lo, hi, step), key
            assert "options" not in desc
        else:
            assert not {"min", "max", "step"} & set(desc), key
        assert desc["default"] == default, key
        assert type(desc["default"]) is not bool or typ == "boolean", key
        if typ == "enum":
            assert desc["options"] == ENUM_OPTIONS[key]
            assert desc["default"] in desc["options"]
        elif typ == "boolean":
            assert desc["default"] is False and "options" not in desc

    spec_out = SPEC_OUTPUTS[slug]
    assert [o["key"] for o in rec["outputs"]] == [s[0] for s in spec_out]
    for desc, (key, typ, unit, precision) in zip(rec["outputs"], spec_out):
        assert set(desc) <= OUTPUT_FIELDS, (key, set(desc) - OUTPUT_FIELDS)
        assert desc["type"] == typ and isinstance(desc["label"], str) and desc["label"]
        if typ == "number":
            assert desc["precision"] == precision, key
            assert type(desc["precision"]) is int
        else:
            assert "precision" not in desc, key
        if unit is None:
            assert desc.get("unit", "") == "", (key, desc.get("unit"))
        else:
            assert desc["unit"] == unit, (key, desc.get("unit"))
    by_key = {o["key"]: o for o in rec["outputs"]}
    if slug == "mosfet-thermal-junction":
        assert by_key["status"]["options"] == ["ok", "marginal", "danger"]
    if slug == "llm-api-cost-calculator":
        assert by_key["provider"]["options"] == ["provider-a", "provider-b"]


@pytest.mark.parametrize("slug", list(TOOLS))
def test_schema_record(api, slug):
    domain, path, _ = TOOLS[slug]
    r = api.get(path + "/schema")
    rec = check_ok_result(r, api.accounts, tool_version="1.0.0")
    assert list(rec) == RECORD_KEYS, "the schema result is exactly the §2.1 record"
    check_record(rec, slug)


@pytest.mark.parametrize("slug", list(TOOLS))
def test_schema_works_with_key_too(api, slug):
    _, path, _ = TOOLS[slug]
    r = api.get(path + "/schema", key=api.key)
    assert r.status_code == 200
    assert r.json()["result"] == api.get(path + "/schema").json()["result"]


@pytest.mark.parametrize("slug", list(TOOLS))
def test_tool_by_slug_record_plus_extras(api, slug):
    r = api.get(f"/v1/tools/{slug}")
    rec = check_ok_result(r, api.accounts, tool_version="1.0.0")
    check_record(rec, slug)
    schema = api.get(TOOLS[slug][1] + "/schema").json()["result"]
    assert {k: rec[k] for k in RECORD_KEYS} == schema
    refs = rec["references"]
    assert isinstance(refs, list) and refs and all(isinstance(x, str) and x for x in refs)
    examples = rec["examples"]
    assert isinstance(examples, list) and examples
    # every example is a request that really works
    for ex in examples:
        assert ex["method"] == "POST" and ex["path"] == rec["endpoint"]
        assert isinstance(ex["body"], dict)
        check_success(api.post(ex["path"], ex["body"]), api.accounts, tool=slug)


def catalog_from_source():
    """slug -> domain for every tool file src/tools/<domain>/<slug>.cpp (the convention the
    registry test enforces), independent of what the server reports."""
    import pathlib
    root = pathlib.Path(__file__).resolve().parents[2] / "src" / "tools"
    return {p.stem: p.parent.name for p in root.glob("*/*.cpp") if "-" in p.stem}


CATALOG = catalog_from_source()


def test_tools_default_listing(api, service_version):
    r = api.get("/v1/tools")
    res = check_ok_result(r, api.accounts, service_version=service_version)
    assert list(res) == ["items", "page", "limit", "total", "pages"]
    total = len(CATALOG)
    assert (res["page"], res["limit"], res["total"], res["pages"]) == (
        1, 20, total, (total + 19) // 20)
    assert len(res["items"]) == min(total, 20)
    # the default page is the first 20 of the full, stably ordered listing
    full = api.get("/v1/tools?limit=100").json()["result"]["items"]
    assert res["items"] == full[:20]
    assert sorted(i["tool"] for i in full) == sorted(CATALOG)
    assert set(TOOLS) <= {i["tool"] for i in full}
    for item in res["items"]:
        assert list(item) == SUMMARY_KEYS, list(item)
        assert item["domain"] == CATALOG[item["tool"]]
        assert item["endpoint"] == f"/v1/{item['domain']}/{item['tool']}"
        if item["tool"] in TOOLS:
            domain, path, standard = TOOLS[item["tool"]]
            assert item["domain"] == domain and item["endpoint"] == path
            assert item["standard"] == standard
        assert SEMVER_RE.match(item["version"])
        rec = api.get(item["endpoint"] + "/schema").json()["result"]
        assert {k: rec[k] for k in SUMMARY_KEYS} == item



def test_tools_pagination(api):
    total = len(CATALOG)
    full = api.get("/v1/tools?limit=100").json()["result"]["items"]
    assert len(full) == total
    seen = []
    for page in range(1, total + 1):
        res = check_ok_result(api.get(f"/v1/tools?limit=1&page={page}"), api.accounts)
        assert (res["page"], res["limit"], res["total"], res["pages"]) == (page, 1, total, total)
        assert len(res["items"]) == 1
        seen += res["items"]
    assert seen == full
    res = api.get("/v1/tools?limit=3&page=2").json()["result"]
    assert res["items"] == full[3:6] and res["pages"] == (total + 2) // 3
    res = api.get(f"/v1/tools?page={total + 1}&limit=1").json()["result"]
    assert res["items"] == [] and res["total"] == total
    res = api.get("/v1/tools?limit=100").json()["result"]
    assert res["limit"] == 100 and res["items"] == full


@pytest.mark.parametrize("query,field", [
    ("page=0", "page"), ("page=-1", "page"), ("page=abc", "page"), ("page=1.5", "page"),
    ("page=", "page"), ("page=99999999999999999999", "page"),
    ("limit=0", "limit"), ("limit=101", "limit"), ("limit=-5", "limit"), ("limit=x", "limit"),
    ("limit=", "limit"), ("limit=2.0", "limit"),
    ("domain=nope", "domain"), ("domain=IOT-MCU", "domain"),
    ("foo=1", "foo"), ("page=1&page=2", "page"), ("limit=5&sort=name", "sort"),
])
def test_tools_bad_query_400_names_parameter(api, query, field, service_version):
    err = check_error(api.get("/v1/tools?" + query), 400, "VALIDATION_ERROR", api.accounts,
                      field=field, service_version=service_version)
    assert field in err["message"]


def test_tools_domain_filter(api):
    for _ in range(2):
        for domain in DOMAIN_TARGETS:
            expected = sorted(s for s, d in CATALOG.items() if d == domain)
            res = check_ok_result(api.get(f"/v1/tools?domain={domain}"), api.accounts)
            assert (res["total"], res["pages"]) == (len(expected), (len(expected) + 19) // 20)
            assert len(res["items"]) == min(len(expected), 20)
            res = check_ok_result(api.get(f"/v1/tools?domain={domain}&limit=100"), api.accounts)
            assert [i["domain"] for i in res["items"]] == [domain] * len(expected)
            assert (res["total"], res["pages"]) == (len(expected), 1)
            assert sorted(i["tool"] for i in res["items"]) == expected


def test_tools_query_values_read_exactly(api):
    # new connections and a keep-alive one, varied lengths: every value must be read as sent
    import requests
    for i in range(6):
        r = requests.get(api.server.url("/v1/tools?domain=iot-mcu"), timeout=10)
        assert r.status_code == 200, r.text
        r = api.get(f"/v1/tools?page=1&limit={i + 1}")
        assert r.status_code == 200, r.text
        assert r.json()["result"]["limit"] == i + 1


def test_domains(api, service_version):
    res = check_ok_result(api.get("/v1/domains"), api.accounts, service_version=service_version)
    items = res["items"]
    assert [d["domain"] for d in items] == list(DOMAIN_TARGETS)
    all_tools = api.get("/v1/tools?limit=100").json()["result"]["items"]
    assert len(all_tools) == len(CATALOG)
    for d in items:
        assert d["target"] == DOMAIN_TARGETS[d["domain"]]
        live = sum(1 for t in all_tools if t["domain"] == d["domain"])
        assert d["live"] == live == sum(1 for dom in CATALOG.values() if dom == d["domain"])
        assert live >= 1
        assert isinstance(d["name"], str) and d["name"]
        assert isinstance(d["description"], str) and d["description"]


def test_health_without_key(api, service_version):
    r = api.get("/v1/health")
    res = check_ok_result(r, api.accounts, service_version=service_version)
    assert list(res) == ["status", "version", "uptime_s"]
    assert res["status"] == "ok" and SEMVER_RE.match(res["version"])
    assert isinstance(res["uptime_s"], int) and 0 <= res["uptime_s"] < 3600
    assert "WWW-Authenticate" not in r.headers


def test_health_with_bogus_key_still_ok(api):
    r = api.get("/v1/health", key="garbage")
    assert r.status_code == 200 and r.json()["result"]["status"] == "ok"


def test_discovery_needs_no_key(api):
    for path in ["/v1/tools", "/v1/domains", "/v1/tools/pcb-trace-width",
                 "/v1/pcb-design/pcb-trace-width/schema", "/v1/health"]:
        r = api.get(path)
        assert r.status_code == 200, (path, r.text)
        assert "WWW-Authenticate" not in r.headers


def test_endpoints_are_consistent_with_execute(api):
    for item in api.get("/v1/tools").json()["result"]["items"]:
        assert re.fullmatch(r"/v1/[a-z0-9-]+/[a-z0-9-]+", item["endpoint"])
        r = api.request("OPTIONS", item["endpoint"])
        assert r.status_code == 204

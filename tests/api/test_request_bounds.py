"""Every integer taken from a request is bounded before any arithmetic, and every body is
read by one JSON rule, black-box (docs/api.md, "Integers in requests" and "One JSON rule").

- GET /v1/tools?page=184467440737095517&limit=100 makes an unbounded (page − 1) · limit
  wrap around and read before the tool list: SIGSEGV, with no key needed. Each
  integer a request carries (query, body fields, admin fields, MCP arguments) is checked
  here at and past its bounds: 400 naming it, and the server still serving after each.
- A repeated key and a number past the double range (1e400) get the same answer on every
  surface: REST bodies, MCP tools/call arguments, admin bodies.
"""
import json

import pytest
import requests

from support import (BATTERY, BATTERY_DEFAULTS, KEYS_AVAILABLE, NO_KEYS_REASON, check_error,
                     create_key)

MCP = "/mcp"
BATTERY_TOOL = "iot-mcu_mcu-deep-sleep-battery"
DIVIDER = "/v1/electronics/voltage-divider"
DIVIDER_INPUTS = {"vin_v": 12, "r1_ohm": 10000, "r2_ohm": 10000}
ONE_PCT = {"r1_ohm": {"pct": 1}, "r2_ohm": {"pct": 1}}
ADMIN_TOKEN = "adm_" + "b" * 40

needs_keys = pytest.mark.skipif(not KEYS_AVAILABLE, reason=NO_KEYS_REASON)


def assert_still_serving(server):
    """The process is alive and answers a new connection."""
    assert server.proc.poll() is None, f"the server exited: {server.stderr_lines[-20:]}"
    r = requests.get(server.url("/v1/tools?limit=1"), timeout=10)
    assert r.status_code == 200 and len(r.json()["result"]["items"]) == 1, r.text


# --- the original probe -----------------------------------------------------------------

def test_huge_page_without_a_key_is_400_and_the_server_lives(api):
    r = api.get("/v1/tools?page=184467440737095517&limit=100")
    check_error(r, 400, "VALIDATION_ERROR", api.accounts, field="page",
                message="page must be an integer from 1 to 1000000")
    assert_still_serving(api.server)


# --- GET /v1/tools: page and limit --------------------------------------------------------

@pytest.mark.parametrize("value", ["0", "-1", "1000001", "9223372036854775807",
                                   "9223372036854775808", "99999999999999999999999", "1e3",
                                   "+1", " 1", "0x10", "1.0", ""])
def test_page_out_of_bounds_is_400_naming_page(api, value):
    r = api.get(f"/v1/tools?page={requests.utils.quote(value)}&limit=100")
    check_error(r, 400, "VALIDATION_ERROR", api.accounts, field="page")
    assert_still_serving(api.server)


@pytest.mark.parametrize("value", ["0", "-5", "101", "9223372036854775807",
                                   "18446744073709551617", "1e2", ""])
def test_limit_out_of_bounds_is_400_naming_limit(api, value):
    r = api.get(f"/v1/tools?page=2&limit={requests.utils.quote(value)}")
    check_error(r, 400, "VALIDATION_ERROR", api.accounts, field="limit")
    assert_still_serving(api.server)


def test_pages_past_the_end_up_to_the_bound_are_empty_pages(api):
    first = api.get("/v1/tools?limit=100").json()["result"]
    for page in (first["pages"] + 1, 1000000):
        r = api.get(f"/v1/tools?page={page}&limit=100")
        assert r.status_code == 200, r.text
        result = r.json()["result"]
        assert result == {"items": [], "page": page, "limit": 100, "total": first["total"],
                          "pages": first["pages"]}


# --- GET /v1/usage: month -----------------------------------------------------------------

@needs_keys
@pytest.mark.parametrize("value", ["0000-01", "9999-12", "-001-01", "2026-13", "2026-00",
                                   "99999999999-01", "2026-1"])
def test_usage_month_out_of_bounds_is_400_naming_month(api, value):
    r = api.get(f"/v1/usage?month={value}", key=api.key)
    check_error(r, 400, "VALIDATION_ERROR", api.accounts, field="month")
    assert_still_serving(api.server)


# --- integers in bodies -------------------------------------------------------------------

@needs_keys
@pytest.mark.parametrize("raw,field", [
    ('{"inputs":%s,"tolerances":%s,"samples":18446744073709551616}', "samples"),
    ('{"inputs":%s,"tolerances":%s,"samples":-9223372036854775809}', "samples"),
    ('{"inputs":%s,"tolerances":%s,"samples":1e400}', "samples"),
    ('{"inputs":%s,"tolerances":%s,"seed":18446744073709551615}', "seed"),
    ('{"inputs":%s,"tolerances":%s,"seed":-1}', "seed"),
    ('{"inputs":%s,"tolerances":%s,"seed":9007199254740992}', "seed"),
])
def test_tolerance_integers_out_of_bounds_are_400_naming_them(api, raw, field):
    body = raw % (json.dumps(DIVIDER_INPUTS), json.dumps(ONE_PCT))
    r = api.post(DIVIDER + "/tolerance", raw=body)
    check_error(r, 400, "VALIDATION_ERROR", api.accounts, field=field)
    assert_still_serving(api.server)


@needs_keys
@pytest.mark.parametrize("points", ["18446744073709551616", "-9223372036854775809", "1e308",
                                    "1e400", "201", "1"])
def test_sweep_points_out_of_bounds_are_400_naming_them(api, points):
    body = ('{"inputs":%s,"vary":{"key":"cycle_period_s","from":30,"to":120,"points":%s}}'
            % (json.dumps(BATTERY_DEFAULTS), points))
    r = api.post(BATTERY + "/sweep", raw=body)
    check_error(r, 400, "VALIDATION_ERROR", api.accounts, field="vary.points")
    assert_still_serving(api.server)


@needs_keys
@pytest.mark.parametrize("value", ["18446744073709551616", "-9223372036854775809",
                                   "9223372036854775807"])
def test_execute_input_past_int64_is_400_naming_it(api, value):
    body = json.dumps(BATTERY_DEFAULTS).replace('"cycle_period_s": 60',
                                                f'"cycle_period_s": {value}')
    r = api.post(BATTERY, raw=body)
    check_error(r, 400, "VALIDATION_ERROR", api.accounts, field="cycle_period_s")
    assert_still_serving(api.server)


# --- one JSON rule: REST ------------------------------------------------------------------

@needs_keys
def test_rest_refuses_a_repeated_key_and_1e400_naming_the_field(api):
    r = api.post(BATTERY, raw='{"cycle_period_s":60,"cycle_period_s":61}')
    check_error(r, 400, "VALIDATION_ERROR", api.accounts, field="cycle_period_s",
                contains=["appears more than once"])
    r = api.post(BATTERY, raw='{"battery_capacity_mah":1e400}')
    check_error(r, 400, "VALIDATION_ERROR", api.accounts, field="battery_capacity_mah",
                message="battery_capacity_mah must be a finite number")


# --- MCP ----------------------------------------------------------------------------------

def mcp_call(api, arguments_json, id=7, name=BATTERY_TOOL):
    raw = ('{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"%s","arguments":%s}}'
           % (id, name, arguments_json))
    return api.post(MCP, raw=raw, key=api.key)


def tool_error(r):
    assert r.status_code == 200, r.text
    res = r.json()["result"]
    assert res["isError"] is True, res
    return res["_meta"]["toolcalc/error"], res["content"][0]["text"]


@needs_keys
def test_mcp_arguments_follow_the_rest_rules(api):
    base = json.dumps(BATTERY_DEFAULTS)[:-1]
    # A repeated key: refused, naming it, as REST does (last-wins no more).
    err, text = tool_error(mcp_call(api, base + ', "cycle_period_s": 61}'))
    assert err == {"code": "VALIDATION_ERROR", "field": "cycle_period_s"}
    assert "cycle_period_s appears more than once" in text
    # 1e400: "must be a finite number", naming the field (not a JSON parse error).
    err, text = tool_error(mcp_call(api, base.replace('"battery_capacity_mah": 2000',
                                                      '"battery_capacity_mah": 1e400') + "}"))
    assert err == {"code": "VALIDATION_ERROR", "field": "battery_capacity_mah"}
    assert text == "battery_capacity_mah must be a finite number"
    # An integer past int64: bounded like REST.
    err, _ = tool_error(mcp_call(api, base.replace('"cycle_period_s": 60',
                                                   '"cycle_period_s": 18446744073709551616') + "}"))
    assert err == {"code": "VALIDATION_ERROR", "field": "cycle_period_s"}
    # The analysis tools too.
    raw = ('{"tool":"electronics_voltage-divider","inputs":%s,"tolerances":%s,"samples":1e400,'
           '"samples":5}' % (json.dumps(DIVIDER_INPUTS), json.dumps(ONE_PCT)))
    err, _ = tool_error(mcp_call(api, raw, name="tolerance_analysis"))
    assert err == {"code": "VALIDATION_ERROR", "field": "samples"}
    raw = ('{"tool":"electronics_voltage-divider","inputs":%s,"tolerances":%s,"samples":1e400}'
           % (json.dumps(DIVIDER_INPUTS), json.dumps(ONE_PCT)))
    err, text = tool_error(mcp_call(api, raw, name="tolerance_analysis"))
    assert err == {"code": "VALIDATION_ERROR", "field": "samples"}
    assert "must be a finite number" in text
    assert_still_serving(api.server)


def test_mcp_message_with_a_repeated_key_is_an_invalid_request_naming_it(api):
    r = api.post(MCP, raw='{"jsonrpc":"2.0","id":3,"method":"ping","method":"tools/list"}',
                 key=None)
    assert r.status_code == 400, r.text
    body = r.json()
    assert body["id"] == 3 and body["error"]["code"] == -32600
    assert "method appears more than once" in body["error"]["message"]
    assert_still_serving(api.server)


# --- admin --------------------------------------------------------------------------------

@pytest.fixture
def admin_server(start_server, tmp_path):
    s = start_server(data_dir=tmp_path / "admin", env={"TOOLCALC_ADMIN_TOKEN": ADMIN_TOKEN})
    assert s.wait_for_log(r"admin API on ", timeout=2)
    return s


def admin(server, method, path, raw):
    return requests.request(method, server.url("/admin/v1" + path), data=raw, timeout=10,
                            headers={"Authorization": f"Bearer {ADMIN_TOKEN}",
                                     "Content-Type": "application/json"})


def admin_error(r, field):
    assert r.status_code == 400, r.text
    err = r.json()["error"]
    assert err["code"] == "VALIDATION_ERROR" and err["field"] == field, err
    return err["message"]


@needs_keys
def test_admin_integers_and_json_rule(admin_server):
    s = admin_server
    for field, value in [("rate_per_minute", "9223372036854775808"),
                         ("rate_per_minute", "18446744073709551616"),
                         ("rate_per_minute", "-9223372036854775809"),
                         ("rate_per_minute", "0"),
                         ("monthly_quota", "-1"),
                         ("monthly_quota", "9223372036854775807")]:
        admin_error(admin(s, "POST", "/keys", '{"plan":"free","%s":%s}' % (field, value)), field)
        assert_still_serving(s)
    for field in ("rate_per_minute", "monthly_quota"):
        msg = admin_error(admin(s, "POST", "/keys", '{"plan":"free","%s":1e400}' % field), field)
        assert msg == f"{field} must be a finite number"
    msg = admin_error(admin(s, "POST", "/keys", '{"plan":"free","label":"a","label":"b"}'),
                      "label")
    assert "label appears more than once" in msg
    created = admin(s, "POST", "/keys", '{"plan":"free"}')
    assert created.status_code == 201, created.text
    prefix = created.json()["result"]["item"]["prefix"]
    for grace in ("9223372036854775808", "18446744073709551616", "-1", '"99999999999999999999d"',
                  '"9223372036854775807s"', '"106751991167300d"'):
        admin_error(admin(s, "POST", f"/keys/{prefix}/rotate", '{"grace":%s}' % grace), "grace")
    msg = admin_error(admin(s, "POST", f"/keys/{prefix}/rotate", '{"grace":1e400}'), "grace")
    assert msg == "grace must be a finite number"
    msg = admin_error(admin(s, "PATCH", f"/keys/{prefix}", '{"plan":"free","plan":"pro"}'),
                      "plan")
    assert "plan appears more than once" in msg
    assert_still_serving(s)

"""The MCP endpoint, black-box over HTTP: Streamable HTTP with JSON
responses, version negotiation, 202 for notifications, GET 405, tool names, tools/call on
the REST execute path (key, rate limit, quota), tool errors, the Origin rule and JSON-RPC
errors. The official SDK client is exercised by `make mcp-test` (tests/node)."""
import json
import time

import pytest

from support import (BATTERY, BATTERY_DEFAULTS, COST, COST_REQUIRED, KEYS_AVAILABLE,
                     NO_KEYS_REASON, BOGUS_KEY, check_common_headers, check_success,
                     create_key)

MCP = "/mcp"
BATTERY_TOOL = "iot-mcu_mcu-deep-sleep-battery"


def rpc(method, params=None, id=1):
    msg = {"jsonrpc": "2.0", "id": id, "method": method}
    if params is not None:
        msg["params"] = params
    return msg


@pytest.fixture(scope="module")
def mcp_key(api):
    """A key of this module's own, so its quota can be followed exactly."""
    if not KEYS_AVAILABLE:
        pytest.skip(NO_KEYS_REASON)
    key = create_key(api.data_dir, api.config, "big", label="mcp tests")
    deadline = time.monotonic() + 5
    while api.get("/v1/me", key=key).status_code != 200:
        assert time.monotonic() < deadline, "new key not accepted within 5 s"
        time.sleep(0.1)
    return key


def call(api, key, name, arguments, id=7):
    return api.post(MCP, rpc("tools/call", {"name": name, "arguments": arguments}, id), key=key)


@pytest.mark.parametrize("asked,answered", [("2025-06-18", "2025-06-18"),
                                            ("2025-11-25", "2025-11-25"),
                                            ("2024-11-05", "2025-11-25")])
def test_initialize(api, asked, answered, service_version):
    r = api.post(MCP, rpc("initialize", {"protocolVersion": asked, "capabilities": {},
                                         "clientInfo": {"name": "pytest", "version": "1"}}),
                 key=None)
    assert r.status_code == 200, r.text
    check_common_headers(r, api.accounts, service_version=service_version)
    body = r.json()
    assert body["jsonrpc"] == "2.0" and body["id"] == 1
    res = body["result"]
    assert res["protocolVersion"] == answered
    assert res["capabilities"] == {"tools": {}}
    assert res["serverInfo"]["name"] == "toolcalc"
    assert res["serverInfo"]["version"] == service_version
    assert "Mcp-Session-Id" not in r.headers


def test_notification_is_202_without_body(api):
    r = api.post(MCP, {"jsonrpc": "2.0", "method": "notifications/initialized"}, key=None)
    assert r.status_code == 202
    assert r.content == b""
    assert r.headers.get("X-Request-ID")


def test_get_is_405(api):
    r = api.get(MCP)
    assert r.status_code == 405
    assert r.headers["Allow"] == "POST, OPTIONS"
    assert r.json()["error"]["data"]["code"] == "METHOD_NOT_ALLOWED"


def test_tools_list_names_every_tool(api):
    r = api.post(MCP, rpc("tools/list"), key=None)
    assert r.status_code == 200, r.text
    tools = r.json()["result"]["tools"]
    items = api.get("/v1/tools?limit=100").json()["result"]["items"]
    assert [t["name"] for t in tools] == [f"{i['domain']}_{i['tool']}" for i in items] + \
        ["tolerance_analysis", "solve_for_input"]
    for t in tools:
        assert len(t["name"]) <= 64 and all(c.isalnum() or c in "_-" for c in t["name"])
        assert t["inputSchema"]["type"] == "object"
        assert t["outputSchema"]["type"] == "object"
        assert t["annotations"]["readOnlyHint"] is True


def test_tools_call_matches_rest_and_uses_quota(api, mcp_key):
    r = call(api, mcp_key, BATTERY_TOOL, BATTERY_DEFAULTS)
    assert r.status_code == 200, r.text
    assert r.headers["X-Tool-Version"] == "1.0.0"
    res = r.json()["result"]
    rest = check_success(api.post(BATTERY, BATTERY_DEFAULTS, key=mcp_key), True)
    assert res["isError"] is False
    assert res["structuredContent"] == rest["result"]
    assert [c["type"] for c in res["content"]] == ["text"]
    assert json.loads(res["content"][0]["text"]) == rest["result"]
    assert '"lifetime_years":0.53' in res["content"][0]["text"]
    assert res["_meta"]["toolcalc/quota_remaining"] == rest["meta"]["quota_remaining"] + 1
    # optional inputs take their defaults
    cost = call(api, mcp_key, "programming-dev_llm-api-cost-calculator", COST_REQUIRED)
    assert cost.json()["result"]["structuredContent"] == \
        check_success(api.post(COST, COST_REQUIRED, key=mcp_key), True)["result"]


def test_invalid_arguments_are_tool_errors_and_use_no_quota(api, mcp_key):
    before = api.get("/v1/me", key=mcp_key).json()["result"]["quota"]["used"]
    r = call(api, mcp_key, BATTERY_TOOL, {**BATTERY_DEFAULTS, "battery_capacity_mah": 5})
    assert r.status_code == 200
    res = r.json()["result"]
    assert res["isError"] is True
    assert res["content"] == [{"type": "text", "text": "battery_capacity_mah must be at least 100"}]
    assert "structuredContent" not in res
    assert res["_meta"]["toolcalc/error"] == {"code": "VALIDATION_ERROR",
                                              "field": "battery_capacity_mah"}
    r = call(api, mcp_key, BATTERY_TOOL, {**BATTERY_DEFAULTS, "wake_duration_ms": 600000})
    assert r.json()["result"]["isError"] is True
    assert r.json()["result"]["_meta"]["toolcalc/error"]["code"] == "UNPROCESSABLE"
    assert api.get("/v1/me", key=mcp_key).json()["result"]["quota"]["used"] == before


def test_tools_call_needs_a_key(api):
    r = call(api, None, BATTERY_TOOL, BATTERY_DEFAULTS, id="k")
    assert r.status_code == 401
    assert r.headers["WWW-Authenticate"] == "Bearer"
    body = r.json()
    assert body["id"] == "k"
    assert body["error"]["code"] == -32000
    assert body["error"]["data"]["code"] == "UNAUTHORIZED"
    if KEYS_AVAILABLE:
        r = api.post(MCP, rpc("tools/list"), key=BOGUS_KEY)
        assert r.status_code == 401
        assert r.json()["error"]["message"] == "invalid API key"


def test_unknown_tool_and_method_are_jsonrpc_errors(api, mcp_key):
    r = call(api, mcp_key, "iot-mcu.mcu-deep-sleep-battery", {}, id=3)
    assert r.status_code == 200
    err = r.json()["error"]
    assert err["code"] == -32602
    assert f"did you mean '{BATTERY_TOOL}'" in err["message"]
    r = api.post(MCP, rpc("resources/list", id=4), key=None)
    assert r.json() == {"jsonrpc": "2.0", "id": 4,
                        "error": {"code": -32601, "message": "method not found: resources/list"}}


# A whole key where the client names something the error quotes back: the version header
# (quoted up to 40 characters, a key's length), the method, the tool, a repeated member.
PASTED_KEY = "tc_live_" + "Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv"
PASTED_KEY_ECHOES = [
    ("version-header", rpc("tools/list"), {"MCP-Protocol-Version": PASTED_KEY}, 400, -32600),
    ("method", rpc(PASTED_KEY, id=2), None, 200, -32601),
    ("tool", rpc("tools/call", {"name": PASTED_KEY, "arguments": {}}, id=3), None, 200, -32602),
    ("repeated-member",
     ('{"jsonrpc":"2.0","id":4,"method":"ping","%s":1,"%s":2}' % (PASTED_KEY, PASTED_KEY)).encode(),
     None, 400, -32600),
]


@pytest.mark.parametrize("case", PASTED_KEY_ECHOES, ids=[c[0] for c in PASTED_KEY_ECHOES])
def test_protocol_errors_quote_a_pasted_key_by_its_prefix_only(api, case):
    _id, message, headers, status, code = case
    if isinstance(message, bytes):
        r = api.post(MCP, raw=message, key=None, headers=headers)
    else:
        r = api.post(MCP, message, key=None, headers=headers)
    assert r.status_code == status, r.text
    assert r.json()["error"]["code"] == code, r.text
    assert PASTED_KEY[12:] not in r.text
    assert f"{PASTED_KEY[:12]}[redacted]" in r.json()["error"]["message"], r.text


@pytest.mark.parametrize("raw,code", [(b"{nope", -32700),
                                      (b'[{"jsonrpc":"2.0","id":1,"method":"ping"}]', -32600),
                                      (b'{"id":1,"method":"ping"}', -32600)])
def test_malformed_messages_are_400(api, raw, code):
    r = api.post(MCP, raw=raw, key=None)
    assert r.status_code == 400
    assert r.json()["id"] is None
    assert r.json()["error"]["code"] == code


@pytest.mark.parametrize("origin,status", [("http://localhost:5173", 200),
                                           ("http://127.0.0.1:8080", 200),
                                           ("https://evil.example", 403), ("null", 403)])
def test_origin_is_checked(api, origin, status):
    r = api.post(MCP, rpc("ping"), key=None, headers={"Origin": origin})
    assert r.status_code == status, r.text
    if status == 403:
        assert r.json()["error"]["data"]["code"] == "FORBIDDEN"
    else:
        assert r.json()["result"] == {}


# --- tolerance_analysis and solve_for_input -----------------------------------------------

DIVIDER = "/v1/electronics/voltage-divider"
DIVIDER_TOOL = "electronics_voltage-divider"
DIVIDER_INPUTS = {"vin_v": 12, "r1_ohm": 10000, "r2_ohm": 10000}
TOLERANCE_BODY = {"inputs": DIVIDER_INPUTS, "samples": 300,
                  "tolerances": {"r1_ohm": {"pct": 1}, "r2_ohm": {"pct": 1}}}
SOLVE_BODY = {"inputs": DIVIDER_INPUTS, "vary": "r2_ohm",
              "target": {"output": "vout_v", "value": 3.3}}


def test_analysis_tools_are_listed_with_their_schemas(api):
    tools = {t["name"]: t for t in api.post(MCP, rpc("tools/list"), key=None).json()["result"]["tools"]}
    tol, solve = tools["tolerance_analysis"], tools["solve_for_input"]
    assert tol["inputSchema"]["required"] == ["tool", "tolerances"]
    assert solve["inputSchema"]["required"] == ["tool", "vary", "target"]
    assert DIVIDER_TOOL in tol["inputSchema"]["properties"]["tool"]["enum"]
    assert DIVIDER_TOOL in solve["inputSchema"]["properties"]["tool"]["enum"]
    assert "outputs" in tol["outputSchema"]["properties"]
    assert "solutions" in solve["outputSchema"]["properties"]


@pytest.mark.parametrize("name,body,path", [("tolerance_analysis", TOLERANCE_BODY, "/tolerance"),
                                            ("solve_for_input", SOLVE_BODY, "/solve")])
def test_analysis_tools_answer_what_rest_answers(api, mcp_key, name, body, path):
    rest = check_success(api.post(DIVIDER + path, body, key=mcp_key), True, version="2.0.0")
    r = call(api, mcp_key, name, {"tool": DIVIDER_TOOL, **body})
    assert r.status_code == 200, r.text
    assert r.headers["X-Tool-Version"] == "2.0.0"
    res = r.json()["result"]
    assert res["isError"] is False
    assert res["structuredContent"] == rest["result"]
    assert json.loads(res["content"][0]["text"]) == rest["result"]
    assert res["_meta"]["toolcalc/quota_remaining"] == rest["meta"]["quota_remaining"] - 1


@pytest.mark.parametrize("name,arguments,code,field,part", [
    ("tolerance_analysis", {"tolerances": {}}, "VALIDATION_ERROR", "tool", "tool (a string)"),
    ("tolerance_analysis", {"tool": "electronics.voltage-divider"}, "VALIDATION_ERROR", "tool",
     "did you mean 'electronics_voltage-divider'"),
    ("tolerance_analysis", {"tool": DIVIDER_TOOL, "inputs": DIVIDER_INPUTS,
                            "tolerances": {"r1_ohm": {"pct": 200}}},
     "VALIDATION_ERROR", "tolerances.r1_ohm", "below its minimum"),
    ("solve_for_input", {**SOLVE_BODY, "tool": DIVIDER_TOOL, "vary": "e_series"},
     "VALIDATION_ERROR", "vary", "not a numeric input"),
    ("solve_for_input", {**SOLVE_BODY, "tool": DIVIDER_TOOL,
                         "target": {"output": "vout_v", "value": 20}},
     "NO_SOLUTION", "target.value", "reaches"),
])
def test_analysis_tool_errors_are_tool_results_and_use_no_quota(api, mcp_key, name, arguments,
                                                                 code, field, part):
    before = api.get("/v1/me", key=mcp_key).json()["result"]["quota"]["used"]
    r = call(api, mcp_key, name, arguments)
    assert r.status_code == 200, r.text
    res = r.json()["result"]
    assert res["isError"] is True
    assert part in res["content"][0]["text"], res
    assert res["_meta"]["toolcalc/error"] == {"code": code, "field": field}
    assert api.get("/v1/me", key=mcp_key).json()["result"]["quota"]["used"] == before

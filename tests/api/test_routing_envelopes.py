"""Routing, envelopes and headers (point 5, spec §2.7 and §8), CORS."""
import pytest

from support import (BATTERY, BATTERY_DEFAULTS, BIG_RATE, COST, COST_REQUIRED, REQUEST_ID_RE,
                     check_common_headers, check_error, check_success, header_int)


def test_success_envelope_and_headers(api):
    r = api.post(BATTERY, BATTERY_DEFAULTS)
    body = check_success(r, api.accounts, tool="mcu-deep-sleep-battery", domain="iot-mcu")
    assert r.headers["X-Tool-Version"] == "1.0.0"
    assert r.headers["X-Request-ID"] == body["meta"]["request_id"]
    assert "Retry-After" not in r.headers
    assert "WWW-Authenticate" not in r.headers


def test_request_ids_unique_across_calls_and_kinds(api):
    ids = []
    for _ in range(5):
        ids.append(check_success(api.post(BATTERY, BATTERY_DEFAULTS),
                                 api.accounts)["meta"]["request_id"])
        ids.append(api.get("/v1/health").headers["X-Request-ID"])
        r = api.post(BATTERY, {})
        ids.append(r.json()["meta"]["request_id"])
        assert r.headers["X-Request-ID"] == ids[-1]
        ids.append(api.get("/v1/nope").headers["X-Request-ID"])
        ids.append(api.request("OPTIONS", BATTERY).headers["X-Request-ID"])
    assert all(REQUEST_ID_RE.match(i) for i in ids), ids
    assert len(set(ids)) == len(ids), "request ids repeat"


def test_unknown_path_404(api, service_version):
    # "/" is the playground's page (test_playground.py).
    for path in ["/v1/nope", "/v2/health", "/v1", "/v1/", "/health",
                 "/v1/iot-mcu/mcu-deep-sleep-battery/schema/extra", "/v1/tools/",
                 "/v1/iot-mcu/mcu-deep-sleep-battery/other"]:
        r = api.get(path)
        check_error(r, 404, "NOT_FOUND", api.accounts, service_version=service_version)
        assert "Allow" not in r.headers


@pytest.mark.parametrize("path", ["/v1/health/", "/V1/health", "/v1/HEALTH", "//v1/health",
                                  "/v1/IOT-MCU/mcu-deep-sleep-battery/schema",
                                  "/v1/iot-mcu/MCU-Deep-Sleep-Battery/schema",
                                  "/v1/iot-mcu/mcu-deep-sleep-battery/schema/",
                                  "/v1/tools/mcu-deep-sleep-battery/",
                                  "/v1/iot-mcu%2Fmcu-deep-sleep-battery/schema"])
def test_paths_are_exact(api, path):
    r = api.get(path)
    assert r.status_code == 404, (path, r.status_code, r.text)
    assert r.json()["error"]["code"] == "NOT_FOUND"


def test_client_request_id_is_not_echoed(api):
    sent = "req_" + "A" * 24
    r = api.post(BATTERY, BATTERY_DEFAULTS, headers={"X-Request-ID": sent})
    body = check_success(r, api.accounts)
    assert r.headers["X-Request-ID"] != sent and body["meta"]["request_id"] != sent
    r = api.get("/v1/health", headers={"X-Request-ID": sent})
    assert r.headers["X-Request-ID"] != sent


def test_unknown_path_404_on_post_too(api, service_version):
    r = api.post("/v1/nope/nope/nope", BATTERY_DEFAULTS)
    check_error(r, 404, "NOT_FOUND", api.accounts, service_version=service_version)


def test_unknown_tool_execute_404_names_tool(api, service_version):
    r = api.post("/v1/iot-mcu/no-such-tool", BATTERY_DEFAULTS)
    check_error(r, 404, "NOT_FOUND", api.accounts, contains=["no-such-tool"],
                service_version=service_version)


def test_tool_in_wrong_domain_404_names_tool(api):
    r = api.post("/v1/electronics/mcu-deep-sleep-battery", BATTERY_DEFAULTS)
    err = check_error(r, 404, "NOT_FOUND", api.accounts)
    assert "mcu-deep-sleep-battery" in err["message"]
    # the message points to where the slug does live
    assert "/v1/iot-mcu/mcu-deep-sleep-battery" in err["message"]


def test_unknown_tool_schema_and_slug_404(api, service_version):
    r = api.get("/v1/iot-mcu/no-such-tool/schema")
    check_error(r, 404, "NOT_FOUND", api.accounts, contains=["no-such-tool"],
                service_version=service_version)
    r = api.get("/v1/tools/no-such-tool")
    check_error(r, 404, "NOT_FOUND", api.accounts, contains=["no-such-tool"],
                service_version=service_version)


@pytest.mark.parametrize("method", ["GET", "PUT", "DELETE", "PATCH"])
def test_execute_wrong_method_405(api, method, service_version):
    r = api.request(method, BATTERY, key=api.key)
    check_error(r, 405, "METHOD_NOT_ALLOWED", api.accounts)
    allow = [m.strip() for m in r.headers["Allow"].split(",")]
    assert "POST" in allow and "GET" not in allow


@pytest.mark.parametrize("path", ["/v1/tools", "/v1/domains", "/v1/health", "/v1/me",
                                  "/v1/tools/mcu-deep-sleep-battery",
                                  "/v1/iot-mcu/mcu-deep-sleep-battery/schema"])
@pytest.mark.parametrize("method", ["POST", "DELETE"])
def test_discovery_wrong_method_405(api, path, method):
    r = api.request(method, path, key=api.key, headers={"Content-Type": "application/json"},
                    data=b"{}")
    check_error(r, 405, "METHOD_NOT_ALLOWED", api.accounts)
    allow = [m.strip() for m in r.headers["Allow"].split(",")]
    assert "GET" in allow and "POST" not in allow


@pytest.mark.parametrize("ctype", [None, "text/plain", "application/x-www-form-urlencoded",
                                   "application/jsonx", "multipart/form-data; boundary=x"])
def test_execute_non_json_content_type_415(api, ctype):
    r = api.post(BATTERY, BATTERY_DEFAULTS, content_type=ctype)
    check_error(r, 415, "UNSUPPORTED_MEDIA_TYPE", api.accounts, tool_version="1.0.0")


@pytest.mark.parametrize("ctype", ["application/json", "application/json; charset=utf-8",
                                   "Application/JSON", "application/json;charset=UTF-8"])
def test_execute_json_content_type_variants_accepted(api, ctype):
    check_success(api.post(BATTERY, BATTERY_DEFAULTS, content_type=ctype), api.accounts)


def test_x_tool_version_on_tool_responses(api):
    # responses about one tool carry its version, also when they are errors
    r = api.get("/v1/iot-mcu/mcu-deep-sleep-battery/schema")
    assert r.headers["X-Tool-Version"] == r.json()["result"]["version"] == "1.0.0"
    r = api.get("/v1/tools/mcu-deep-sleep-battery")
    assert r.headers["X-Tool-Version"] == r.json()["result"]["version"] == "1.0.0"
    r = api.post(BATTERY, {**BATTERY_DEFAULTS, "battery_capacity_mah": 1})
    assert r.status_code == 400 and r.headers["X-Tool-Version"] == "1.0.0"
    r = api.post(BATTERY, {**BATTERY_DEFAULTS, "wake_duration_ms": 60001})
    assert r.status_code == 422 and r.headers["X-Tool-Version"] == "1.0.0"


def test_x_tool_version_is_service_version_elsewhere(api, service_version):
    for path in ["/v1/health", "/v1/tools", "/v1/domains", "/v1/nope"]:
        r = api.get(path)
        assert r.headers["X-Tool-Version"] == service_version, path


def test_service_version_matches_cli(api, service_version):
    from support import run_cli
    out = run_cli("--version").stdout.strip()
    assert out == f"toolcalc {service_version}"


# --- CORS --------------------------------------------------------------------------------

@pytest.mark.parametrize("path,method", [
    (BATTERY, "POST"), ("/v1/tools", "GET"), ("/v1/health", "GET"), ("/v1/me", "GET"),
    ("/v1/iot-mcu/mcu-deep-sleep-battery/schema", "GET"), ("/v1/domains", "GET"),
    ("/v1/tools/pcb-trace-width", "GET")])
def test_preflight_204_before_auth(api, path, method):
    # no Authorization header, and a bogus one: preflight is answered before auth
    for key in (None, "not-a-key"):
        r = api.request("OPTIONS", path, key=key, headers={
            "Origin": "https://example.org",
            "Access-Control-Request-Method": method,
            "Access-Control-Request-Headers": "authorization, content-type"})
        assert r.status_code == 204, r.text
        assert r.content == b""
        check_common_headers(r, api.accounts)
        methods = [m.strip() for m in r.headers["Access-Control-Allow-Methods"].split(",")]
        assert method in methods
        allowed = [h.strip().lower() for h in r.headers["Access-Control-Allow-Headers"].split(",")]
        assert "authorization" in allowed and "content-type" in allowed
        assert "WWW-Authenticate" not in r.headers
        assert r.headers.get("Access-Control-Max-Age") == "86400"


def test_preflight_unknown_path_404(api):
    r = api.request("OPTIONS", "/v1/nope")
    check_error(r, 404, "NOT_FOUND", api.accounts)


def test_cors_headers_on_error_responses(api):
    # check_error asserts Access-Control-Allow-Origin and Expose-Headers on each
    check_error(api.post(BATTERY, {}, headers={"Origin": "https://a.example"}), 400,
                "VALIDATION_ERROR", api.accounts, field="battery_capacity_mah")
    check_error(api.get("/v1/zzz", headers={"Origin": "https://a.example"}), 404,
                "NOT_FOUND", api.accounts)
    check_error(api.post(BATTERY, raw="{", headers={"Origin": "https://a.example"}), 400,
                "INVALID_JSON", api.accounts)


def test_rate_limit_headers_on_every_kind(api):
    """X-RateLimit-* on 200, 400, 404, 405, 415, 422, 204 and discovery (check_* assert)."""
    check_success(api.post(BATTERY, BATTERY_DEFAULTS), api.accounts)
    check_error(api.post(BATTERY, {}), 400, "VALIDATION_ERROR", api.accounts,
                field="battery_capacity_mah")
    check_error(api.get("/v1/nope"), 404, "NOT_FOUND", api.accounts)
    check_error(api.get(BATTERY, key=api.key), 405, "METHOD_NOT_ALLOWED", api.accounts)
    check_error(api.post(BATTERY, BATTERY_DEFAULTS, content_type="text/plain"), 415,
                "UNSUPPORTED_MEDIA_TYPE", api.accounts)
    check_error(api.post(BATTERY, {**BATTERY_DEFAULTS, "wake_duration_ms": 70000}), 422,
                "UNPROCESSABLE", api.accounts, field="wake_duration_ms")
    r = api.request("OPTIONS", COST)
    assert r.status_code == 204
    check_common_headers(r, api.accounts)
    for path in ["/v1/health", "/v1/tools", "/v1/domains"]:
        check_common_headers(api.get(path), api.accounts)


def test_keyed_calls_count_down_rate_remaining(api):
    if not api.accounts:
        pytest.skip("needs real accounts")
    a = api.post(COST, COST_REQUIRED)
    b = api.post(COST, COST_REQUIRED)
    assert header_int(a, "X-RateLimit-Limit") == header_int(b, "X-RateLimit-Limit") == BIG_RATE
    ra, rb = header_int(a, "X-RateLimit-Remaining"), header_int(b, "X-RateLimit-Remaining")
    if header_int(a, "X-RateLimit-Reset") == header_int(b, "X-RateLimit-Reset"):
        assert rb == ra - 1

"""The OpenAPI 3.1 document, black-box: served raw at /v1/openapi.json
without a key, the same bytes as `toolcalc openapi`, following the base path, and saying of
every tool exactly what its description record says. Linting is `make lint-openapi`
(Redocly); checking live traffic against it is `make contract-test` (Prism)."""
import json

import pytest

from support import (BATTERY, KEYS_AVAILABLE, BOGUS_KEY, check_common_headers, check_error,
                     check_json_content_type, run_cli)

DOC = "/v1/openapi.json"


def pascal(slug):
    return "".join(p[:1].upper() + p[1:] for p in slug.replace("_", "-").split("-"))


@pytest.fixture(scope="module")
def doc(api):
    r = api.get(DOC)
    assert r.status_code == 200, r.text
    return r.json()


def test_served_raw_without_key_and_with_the_usual_headers(api, service_version):
    r = api.get(DOC)
    assert r.status_code == 200
    check_json_content_type(r)
    body = r.json()
    assert "ok" not in body, "the document is served as is, not in the envelope"
    assert body["openapi"] == "3.1.0"
    assert body["info"]["version"] == service_version
    check_common_headers(r, api.accounts, service_version=service_version)


def test_same_bytes_as_the_cli(api):
    r = api.get(DOC)
    cli = run_cli("openapi").stdout
    assert r.content.decode() == cli


def test_invalid_key_is_401_and_post_is_405(api, service_version):
    if KEYS_AVAILABLE:
        check_error(api.get(DOC, key=BOGUS_KEY), 401, "UNAUTHORIZED", api.accounts,
                    service_version=service_version)
    check_error(api.post(DOC, {}), 405, "METHOD_NOT_ALLOWED", api.accounts,
                service_version=service_version)


def test_cli_server_url_and_base_path():
    doc = json.loads(run_cli("openapi", "--base-path", "api/", "--server-url",
                             "https://calc.example.com/").stdout)
    assert doc["servers"][0]["url"] == "https://calc.example.com/api"
    assert json.loads(run_cli("openapi").stdout)["servers"][0]["url"] == "/"


def test_server_url_follows_the_served_base_path(start_server):
    s = start_server(base_path="/svc/api")
    import requests
    r = requests.get(s.url(DOC), timeout=10)
    assert r.status_code == 200
    assert r.json()["servers"][0]["url"] == "/svc/api"
    assert r.text == run_cli("openapi", "--base-path", "/svc/api").stdout


def test_every_endpoint_and_shared_component(doc):
    paths = doc["paths"]
    for p in ["/v1/tools", "/v1/tools/{slug}", "/v1/domains", "/v1/me", "/v1/usage",
              "/v1/health", "/v1/openapi.json", "/mcp"]:
        assert p in paths, p
    comps = doc["components"]
    for h in ["X-Request-ID", "X-Tool-Version", "X-RateLimit-Limit", "X-RateLimit-Remaining",
              "X-RateLimit-Reset", "RateLimit-Policy", "RateLimit", "Retry-After"]:
        assert h in comps["headers"], h
    # Every response of every operation names the IETF fields with the X-RateLimit-* ones.
    for path, item in paths.items():
        for method, op in item.items():
            for status, resp in op["responses"].items():
                if "$ref" in resp:
                    resp = comps["responses"][resp["$ref"].split("/")[-1]]
                names = set(resp.get("headers", {}))
                assert {"RateLimit-Policy", "RateLimit"} <= names, (path, method, status)
    assert comps["securitySchemes"]["bearerAuth"] == {**comps["securitySchemes"]["bearerAuth"],
                                                      "type": "http", "scheme": "bearer"}
    for name in ["SuccessEnvelope", "ErrorEnvelope", "ErrorCode", "ResultEnvelope"]:
        assert name in comps["schemas"], name
    assert {"VALIDATION_ERROR", "UNAUTHORIZED", "NOT_FOUND", "UNPROCESSABLE", "RATE_LIMITED",
            "QUOTA_EXCEEDED", "INTERNAL"} <= set(comps["schemas"]["ErrorCode"]["enum"])
    assert doc["security"] == [{}, {"bearerAuth": []}]
    assert paths["/v1/me"]["get"]["security"] == [{"bearerAuth": []}]
    assert paths["/v1/health"]["get"]["security"] == []


def test_every_tool_described_as_its_record_says(api, doc):
    tools = api.get("/v1/tools?limit=100").json()["result"]["items"]
    schemas = doc["components"]["schemas"]
    assert len(tools) >= 4
    for t in tools:
        op = doc["paths"][t["endpoint"]]["post"]
        assert op["security"] == [{"bearerAuth": []}]
        assert {"200", "400", "401", "413", "415", "422", "429", "500"} <= set(op["responses"])
        ref = op["requestBody"]["content"]["application/json"]["schema"]["$ref"]
        assert ref == f"#/components/schemas/{pascal(t['tool'])}Input"
        inp = schemas[pascal(t["tool"]) + "Input"]
        record = api.get(t["endpoint"] + "/schema").json()["result"]
        assert inp["additionalProperties"] is False
        assert list(inp["properties"]) == [i["key"] for i in record["inputs"]]
        assert inp["required"] == [i["key"] for i in record["inputs"] if i.get("required")]
        for i in record["inputs"]:
            prop = inp["properties"][i["key"]]
            assert prop["title"] == i["label"]
            assert prop["default"] == i["default"]
            kind = {"number": "number", "integer": "integer", "enum": "string",
                    "boolean": "boolean"}[i["type"]]
            assert prop["type"] == kind
            if "min" in i:
                assert prop["minimum"] == i["min"] and prop["maximum"] == i["max"]
            if i["type"] == "enum":
                assert prop["enum"] == i["options"]
            if i.get("unit"):
                assert f"Unit: {i['unit']}." in prop["description"]
            if i.get("help"):
                assert i["help"] in prop["description"]
        res = schemas[pascal(t["tool"]) + "Result"]
        assert res["required"] == [o["key"] for o in record["outputs"]]
        for o in record["outputs"]:
            prop = res["properties"][o["key"]]
            assert prop["type"] == o["type"]
            if o.get("options"):
                assert prop["enum"] == o["options"]
        env = schemas[pascal(t["tool"]) + "Response"]
        assert env["allOf"][0] == {"$ref": "#/components/schemas/SuccessEnvelope"}
        assert env["allOf"][1]["properties"]["tool"] == {"const": t["tool"]}


def test_example_requests_run(api, doc):
    """The request examples in the document are accepted by the server as they stand."""
    op = doc["paths"][BATTERY]["post"]
    for name, ex in op["requestBody"]["content"]["application/json"]["examples"].items():
        r = api.post(BATTERY, ex["value"])
        assert r.status_code == 200, (name, r.text)


def test_every_tool_has_tolerance_and_solve_with_exact_schemas(api, doc):
    """…/tolerance and …/solve per tool (docs/api.md): the input keys, numeric inputs and
    outputs enumerated, and the limits the server enforces."""
    tools = api.get("/v1/tools?limit=100").json()["result"]["items"]
    schemas = doc["components"]["schemas"]
    for t in tools:
        record = api.get(t["endpoint"] + "/schema").json()["result"]
        numeric = [i["key"] for i in record["inputs"] if i["type"] in ("number", "integer")]
        numbers = [o["key"] for o in record["outputs"] if o["type"] == "number"]
        name = pascal(t["tool"])
        if not numeric:
            assert t["endpoint"] + "/tolerance" not in doc["paths"]
            continue
        for kind in ("tolerance", "solve"):
            if kind == "solve" and not numbers:
                continue
            op = doc["paths"][f"{t['endpoint']}/{kind}"]["post"]
            assert op["operationId"] == kind + name
            assert op["security"] == [{"bearerAuth": []}]
            assert {"200", "400", "401", "415", "422", "429", "500", "503"} <= set(op["responses"])
            ref = op["requestBody"]["content"]["application/json"]["schema"]["$ref"]
            assert ref == f"#/components/schemas/{name}{kind.title()}Request"
        req = schemas[name + "ToleranceRequest"]
        assert req["additionalProperties"] is False
        assert list(req["properties"]) == ["inputs", "tolerances", "distribution", "samples",
                                           "seed"]
        assert req["properties"]["inputs"]["properties"].keys() == \
            {i["key"] for i in record["inputs"]}
        tol = req["properties"]["tolerances"]
        assert list(tol["properties"]) == numeric
        assert (tol["minProperties"], tol["maxProperties"]) == (1, 12)
        samples = req["properties"]["samples"]
        assert (samples["minimum"], samples["maximum"], samples["default"]) == (100, 100000, 10000)
        res = schemas[name + "ToleranceResult"]["properties"]["outputs"]
        assert res["required"] == [o["key"] for o in record["outputs"]]
        for o in record["outputs"]:
            piece = "ToleranceNumberOutput" if o["type"] == "number" else "ToleranceTextOutput"
            assert res["properties"][o["key"]] == {"$ref": f"#/components/schemas/{piece}"}
        if numbers:
            solve = schemas[name + "SolveRequest"]["properties"]
            assert solve["vary"]["enum"] == numeric
            assert solve["target"]["properties"]["output"]["enum"] == numbers
            item = schemas[name + "SolveResult"]["properties"]["solutions"]["items"]
            assert item["properties"]["result"] == {"$ref": f"#/components/schemas/{name}Result"}
    for piece in ("ToleranceRange", "ToleranceNumberOutput", "ToleranceTextOutput",
                  "ToleranceFailedPoint", "ToleranceInputValues"):
        assert piece in schemas, piece
    assert "NO_SOLUTION" in schemas["ErrorCode"]["enum"]

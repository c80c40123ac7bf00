"""GET /llms.txt (docs/api.md, "llms.txt"): the catalog for agents that read text, in the
llms.txt convention, generated from the registry: every tool with its endpoint, purpose,
inputs and outputs, as the discovery endpoints describe them; no key, never counted."""
import re
from decimal import Decimal

import requests

from support import header_int

LINE = re.compile(r"^- \[(?P<name>[^\]]+)\]\((?P<link>[^)]+)\): (?P<rest>.*)$")


def number(v):
    """A descriptor number as the text writes it: the shortest form, never an exponent
    (0.000001, not 1e-06)."""
    return format(Decimal(repr(v)) if isinstance(v, float) else Decimal(v), "f")


def input_text(i):
    kind = {"number": "number", "integer": "integer", "boolean": "boolean"}.get(i["type"])
    if kind is None:
        kind = "one of " + ", ".join(f"`{o}`" for o in i["options"])
    s = f"`{i['key']}` ({kind}"
    if i.get("unit"):
        s += f", {i['unit']}"
    if "min" in i and "max" in i:
        s += f", {number(i['min'])} to {number(i['max'])}"
    elif "min" in i:
        s += f", at least {number(i['min'])}"
    elif "max" in i:
        s += f", at most {number(i['max'])}"
    if i.get("required"):
        s += ", required"
    elif isinstance(i["default"], bool):
        s += f", default {'true' if i['default'] else 'false'}"
    elif isinstance(i["default"], str):
        s += f", default `{i['default']}`"
    else:
        s += f", default {number(i['default'])}"
    return s + ")"


def test_every_tool_with_endpoint_purpose_inputs_and_outputs(api):
    r = api.get("/llms.txt")
    assert r.status_code == 200
    assert r.headers["Content-Type"] == "text/plain; charset=utf-8"
    text = r.text
    lines = text.split("\n")
    assert lines[0] == "# toolcalc" and lines[1] == ""
    # The analysis endpoints are named beside the sweep.
    assert "/v1/{domain}/{slug}/sweep`" in text and "`/tolerance`" in text and "`/solve`" in text
    tools = api.get("/v1/tools?limit=100").json()["result"]["items"]
    domains = api.get("/v1/domains").json()["result"]["items"]
    live = [d for d in domains if d["live"] > 0]
    assert lines[2] == (f"> Engineering and cost calculators over JSON/HTTP: {len(tools)} tools in "
                        f"{len(live)} domains. Each tool is a pure function of its inputs, with its "
                        "formula, bounds and references documented and worked examples checked "
                        "against published sources.")
    assert "`POST /v1/{domain}/{slug}`" in text and "`/mcp`" in text
    assert "- [OpenAPI document](/v1/openapi.json): " in text

    # One H2 per live domain, in catalog order; under each, its tools in order.
    headings = [l[3:] for l in lines if l.startswith("## ")]
    assert headings == ["API"] + [d["name"] for d in live]
    listed = [LINE.match(l) for l in lines if l.startswith("- [") and "/v1/tools/" in l
              and "?limit" not in l]
    assert [m.group("link") for m in listed] == [f"/v1/tools/{t['tool']}" for t in tools]
    for m, t in zip(listed, tools):
        details = api.get(f"/v1/tools/{t['tool']}").json()["result"]
        assert m.group("name") == details["name"]
        rest = m.group("rest")
        assert rest.startswith(details["description"]), t["tool"]
        if details["standard"]:
            assert f"Standard: {details['standard']}." in rest
        assert f"`POST {details['endpoint']}`" in rest
        inputs = "; ".join(input_text(i) for i in details["inputs"])
        assert f"Inputs: {inputs}. Outputs: " in rest, (t["tool"], rest)
        for o in details["outputs"]:
            assert f"`{o['key']}`" in rest.split("Outputs: ", 1)[1], (t["tool"], o["key"])
    assert text.endswith(".\n")


def test_no_key_never_counted_get_only_and_under_the_base_path(start_server):
    s = start_server(base_path="/calc")
    origin = f"http://127.0.0.1:{s.port}"
    at_root = requests.get(origin + "/llms.txt", timeout=10)
    under_base = requests.get(s.url("/llms.txt"), timeout=10)
    assert at_root.status_code == under_base.status_code == 200
    assert at_root.text == under_base.text  # links carry the base path either way
    assert "- [Voltage Divider](/calc/v1/tools/voltage-divider): " in at_root.text
    assert "`POST /calc/v1/electronics/voltage-divider`" in at_root.text
    before = requests.get(s.url("/v1/tools"), timeout=10)
    for _ in range(5):
        r = requests.get(origin + "/llms.txt", headers={"Authorization": "Bearer tc_live_bogus"},
                         timeout=10)
        assert r.status_code == 200  # an invalid key is ignored here
    after = requests.get(s.url("/v1/tools"), timeout=10)
    if header_int(after, "X-RateLimit-Reset") == header_int(before, "X-RateLimit-Reset"):
        assert header_int(after, "X-RateLimit-Remaining") == \
            header_int(before, "X-RateLimit-Remaining") - 1
    r = requests.post(origin + "/llms.txt", data=b"x", timeout=10)
    assert r.status_code == 405 and r.headers["Allow"] == "GET, OPTIONS"
    assert requests.get(origin + "/calc/v1/llms.txt", timeout=10).status_code == 404
    assert s.stop() == 0

#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets (fuzz/corpus/<target>/).

    TOOLCALC_BIN=build/toolcalc python3 fuzz/make_seeds.py

Seeds are small, valid or nearly valid inputs that show the fuzzer the shape of what each
target reads; they are committed, and regenerated with this script when tools or files
change (the tool seeds use each tool's descriptor and examples, read from a running
server's GET /v1/tools/{slug}). Existing seed files are overwritten, others left alone.
"""
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parent.parent
CORPUS = ROOT / "fuzz" / "corpus"

FUZZ_KEY = "tc_test_fuzzfuzzfuzzfuzzfuzzfuzzfuzzfuzz"
TINY_KEY = "tc_test_tinytinytinytinytinytinytinytiny"
REVOKED_KEY = "tc_live_revokedrevokedrevokedrevokedrevo"


def write(target, name, data):
    d = CORPUS / target
    d.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    (d / name).write_bytes(data)


def fetch_tools(binary):
    """The tools in registry order with their details, from a short-lived server."""
    with tempfile.TemporaryDirectory() as data:
        # One details request per tool: more than the default anonymous rate per minute.
        config = pathlib.Path(data) / "toolcalc.toml"
        config.write_text("[plans.anonymous]\nrate_per_minute = 100000\n")
        proc = subprocess.Popen(
            [binary, "serve", "--listen", "127.0.0.1:0", "--data", data, "--threads", "1",
             "--config", str(config)],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            line = proc.stdout.readline()
            port = re.search(r":(\d+) \(", line)
            if not port:
                sys.exit(f"make_seeds: unexpected server output: {line!r}")
            base = f"http://127.0.0.1:{port.group(1)}"
            for _ in range(50):
                try:
                    urllib.request.urlopen(base + "/v1/health")
                    break
                except OSError:
                    time.sleep(0.1)
            # Every page of the listing, so that every registered tool gets seeds.
            items, page = [], 1
            while True:
                listing = json.load(urllib.request.urlopen(
                    f"{base}/v1/tools?limit=100&page={page}"))["result"]
                items += listing["items"]
                if page >= listing["pages"]:
                    break
                page += 1
            if len(items) != listing["total"]:
                sys.exit(f"make_seeds: listed {len(items)} of {listing['total']} tools")
            tools = []
            for item in items:
                details = json.load(urllib.request.urlopen(base + "/v1/tools/" + item["tool"]))
                tools.append(details["result"])
            # fuzz_tools indexes the tools in slug order
            return sorted(tools, key=lambda t: t["tool"])
        finally:
            proc.terminate()
            proc.wait()


# ---------------------------------------------------------------- fuzz_tools

def tool_seeds(tools):
    for index, tool in enumerate(tools):
        prefix = bytes([index])
        slug = tool["tool"]
        n = 0

        def seed(body):
            nonlocal n
            if isinstance(body, (dict, list)):
                body = json.dumps(body, separators=(",", ":"))
            write("fuzz_tools", f"{slug}-{n:02d}", prefix + body.encode())
            n += 1

        for example in tool.get("examples", [])[:2]:
            seed(example["body"])
        seed({})
        inputs = tool["inputs"]
        numeric = [i for i in inputs if i["type"] in ("number", "integer")]
        enums = [i for i in inputs if i["type"] == "enum"]
        # bounds and just past them, all inputs at once
        seed({i["key"]: i["min"] for i in numeric if "min" in i})
        seed({i["key"]: i["max"] for i in numeric if "max" in i})
        if numeric:
            first = numeric[0]
            seed('{"%s":1e400}' % first["key"])
            seed('{"%s":-0}' % first["key"])
            seed('{"%s":"5"}' % first["key"])
            seed('{"%s":NaN}' % first["key"])
            seed('{"%s":1,"%s":2,"unknown_input":null}' % (first["key"], first["key"]))
        for e in enums[:2]:
            for option in e.get("options", [])[-2:]:
                seed({e["key"]: option})
            seed({e["key"]: "no-such-option"})
        if index == 0 and numeric:
            seed("[]")
            seed('{"a":[[[[{}]]]]}')
            seed('{"\\u0000":"\\ud800"}')
            seed('{"%s":4.9e-324}' % first["key"])


# ---------------------------------------------------------------- fuzz_analysis

def analysis_seeds(tools):
    """Per tool with a numeric input: tolerance bodies (byte 0 after the tool byte) and solve
    bodies (byte 1), valid ones around the defaults and nearly valid variants."""
    for index, tool in enumerate(tools):
        slug = tool["tool"]
        inputs = tool["inputs"]
        numeric = [i for i in inputs if i["type"] in ("number", "integer")]
        outputs = [o["key"] for o in tool["outputs"] if o["type"] == "number"]
        if not numeric:
            continue
        defaults = {i["key"]: i["default"] for i in inputs if "default" in i}
        n = 0

        def seed(kind, body):
            nonlocal n
            if isinstance(body, (dict, list)):
                body = json.dumps(body, separators=(",", ":"))
            write("fuzz_analysis", f"{slug}-{n:02d}", bytes([index, kind]) + body.encode())
            n += 1

        first = numeric[0]
        tol = {i["key"]: {"pct": 1} for i in numeric[:3]}
        seed(0, {"inputs": defaults, "tolerances": tol, "samples": 100})
        seed(0, {"inputs": defaults, "distribution": "uniform", "samples": 100, "seed": 7,
                 "tolerances": {first["key"]: {"min": first["min"], "max": first["max"],
                                               "distribution": "normal"}}})
        seed(0, {"inputs": defaults, "tolerances": {first["key"]: {"abs": 1e300}}})
        seed(0, {"inputs": defaults, "tolerances": {first["key"]: {"pct": 1, "abs": 1}},
                 "samples": 99})
        if outputs:
            seed(1, {"inputs": defaults, "vary": first["key"],
                     "target": {"output": outputs[0], "value": 1}})
            seed(1, {"inputs": defaults, "vary": numeric[-1]["key"],
                     "target": {"output": outputs[-1], "value": -0.5}})
            seed(1, {"vary": first["key"], "target": {"output": outputs[0], "value": "1"}})


ANALYSIS_WORDS = ["inputs", "tolerances", "pct", "abs", "min", "max", "distribution",
                  "normal", "uniform", "samples", "seed", "vary", "target", "output", "value"]


def analysis_dict(tools):
    """fuzz/fuzz_analysis.dict: JSON tokens, the body's members, every input and output key."""
    words = ANALYSIS_WORDS + [i["key"] for t in tools for i in t["inputs"]] + \
        [o["key"] for t in tools for o in t["outputs"]]
    lines = ["# Written by fuzz/make_seeds.py."]
    lines += [dict_entry(t) for t in JSON_TOKENS]
    lines += [dict_entry(w) for w in dict.fromkeys(words)]
    (ROOT / "fuzz" / "fuzz_analysis.dict").write_text("\n".join(lines) + "\n")


JSON_TOKENS = ["{", "}", "[", "]", ":", ",", "\"", "true", "false", "null", "-0", "0.0",
               "1e400", "-1e400", "1e-400", "4.9e-324", "1.7976931348623157e308",
               "9007199254740993", "18446744073709551616", "NaN", "Infinity", "\"5\"",
               "\\u0000", "\\ud800", "\\u00e9"]


def dict_entry(token):
    return '"' + token.replace("\\", "\\\\").replace('"', '\\"') + '"'


def tools_dict(tools):
    """fuzz/fuzz_tools.dict: JSON tokens, then every input key and enum option."""
    words = []
    for tool in tools:
        for i in tool["inputs"]:
            words.append('"' + i["key"] + '"')
            words += ['"' + o + '"' for o in i.get("options", [])]
    lines = ["# JSON tokens, then the tools' input keys and options (written by make_seeds.py)"]
    lines += [dict_entry(t) for t in JSON_TOKENS]
    lines += [dict_entry(w) for w in dict.fromkeys(words)]
    (ROOT / "fuzz" / "fuzz_tools.dict").write_text("\n".join(lines) + "\n")


# ---------------------------------------------------------------- fuzz_http

def request(method, path, headers=(), body=b"", version="HTTP/1.1", length=True):
    if isinstance(body, str):
        body = body.encode()
    lines = [f"{method} {path} {version}", "Host: localhost"]
    lines += list(headers)
    if length and body:
        lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


def http_seeds(tools):
    auth = f"Authorization: Bearer {FUZZ_KEY}"
    json_ct = "Content-Type: application/json"
    execute = "/api/v1/iot-mcu/mcu-deep-sleep-battery"
    body = ('{"battery_capacity_mah":2000,"sleep_current_ua":10,"wake_current_ma":80,'
            '"wake_duration_ms":250,"cycle_period_s":60,"battery_efficiency_pct":80}')
    s = {}
    s["health"] = request("GET", "/api/v1/health")
    s["tools"] = request("GET", "/api/v1/tools")
    s["tools-query"] = request("GET", "/api/v1/tools?domain=iot-mcu&page=1&limit=2")
    s["tools-bad-query"] = request("GET", "/api/v1/tools?page=0&limit=1000&x=%zz")
    s["tool-details"] = request("GET", "/api/v1/tools/pcb-trace-width")
    s["domains"] = request("GET", "/api/v1/domains")
    s["schema"] = request("GET", "/api/v1/electronics/mosfet-thermal-junction/schema", [auth])
    s["me"] = request("GET", "/api/v1/me", [auth])
    s["me-anonymous"] = request("GET", "/api/v1/me")
    s["execute"] = request("POST", execute, [auth, json_ct], body)
    # Sweeps and the playground's files.
    sweep_body = ('{"inputs":' + body + ',"vary":{"key":"cycle_period_s","from":30,"to":120,'
                  '"points":4}}')
    s["sweep"] = request("POST", execute + "/sweep", [auth, json_ct], sweep_body)
    s["sweep-nested-duplicate"] = request(
        "POST", execute + "/sweep", [auth, json_ct],
        '{"inputs":{"x":1,"x":2},"vary":{"key":"wake_duration_ms","from":2e4,"to":1e5,"points":200}}')
    s["playground-page"] = request("GET", "/api/")
    s["playground-head"] = request("HEAD", "/vendor/uPlot.min.css")
    s["playground-etag"] = request("GET", "/app.js", ['If-None-Match: W/"0", *'])
    for tool in tools:
        for example in tool.get("examples", [])[:1]:
            b = json.dumps(example["body"], separators=(",", ":"))
            s[f"execute-{tool['tool']}"] = request(
                "POST", "/api" + tool["endpoint"], [auth, json_ct], b)
    s["execute-no-key"] = request("POST", execute, [json_ct], body)
    s["execute-tiny-key-429"] = request("POST", execute, [f"Authorization: Bearer {TINY_KEY}",
                                                          json_ct], body)
    s["execute-revoked-key"] = request("POST", execute, [f"Authorization: Bearer {REVOKED_KEY}",
                                                         json_ct], body)
    s["execute-bad-key"] = request("POST", execute, ["Authorization: Basic Zm9vOmJhcg==",
                                                     json_ct], body)
    s["execute-invalid-json"] = request("POST", execute, [auth, json_ct], '{"battery_capacity_mah":NaN,')
    s["execute-empty"] = request("POST", execute, [auth, json_ct], b"", length=False)
    s["execute-text-plain"] = request("POST", execute, [auth, "Content-Type: text/plain"], body)
    s["execute-get-405"] = request("GET", execute, [auth])
    s["execute-unknown-tool"] = request("POST", "/api/v1/iot-mcu/no-such-tool", [auth, json_ct], "{}")
    s["options-preflight"] = request(
        "OPTIONS", execute, ["Origin: https://example.com",
                             "Access-Control-Request-Method: POST",
                             "Access-Control-Request-Headers: authorization, content-type"])
    s["head"] = request("HEAD", "/api/v1/health")
    s["delete"] = request("DELETE", "/api/v1/tools")
    s["not-found"] = request("GET", "/v1/tools")
    s["absolute-form"] = request("GET", "http://localhost/api/v1/health")
    s["percent-and-utf8-path"] = request("GET", "/api/v1/tools/%70cb-trace-width/\xc3\xa9".encode(
        "latin-1").decode("latin-1"))
    s["pipelined"] = (request("GET", "/api/v1/health") + request("POST", execute, [auth, json_ct], body)
                      + request("GET", "/api/v1/me", [auth]))
    s["pipelined-close"] = (request("GET", "/api/v1/health", ["Connection: close"])
                            + request("GET", "/api/v1/health"))
    chunked = (body[:40].encode(), body[40:].encode())
    s["chunked"] = request("POST", execute, [auth, json_ct, "Transfer-Encoding: chunked"],
                           b"%x\r\n%s\r\n%x;ext=1\r\n%s\r\n0\r\nTrailer: x\r\n\r\n" % (
                               len(chunked[0]), chunked[0], len(chunked[1]), chunked[1]),
                           length=False)
    s["expect-100-continue"] = request("POST", execute, [auth, json_ct, "Expect: 100-continue"], body)
    s["http10"] = request("GET", "/api/v1/health", version="HTTP/1.0")
    s["http10-keep-alive"] = (request("GET", "/api/v1/health", ["Connection: keep-alive"],
                                      version="HTTP/1.0")
                              + request("GET", "/api/v1/domains", version="HTTP/1.0"))
    s["oversized-header"] = request("GET", "/api/v1/health", ["X-Padding: " + "a" * 9000])
    s["oversized-content-length"] = request("POST", execute, [auth, json_ct, "Content-Length: 70000"],
                                            b"{", length=False)
    s["content-length-short"] = request("POST", execute, [auth, json_ct, "Content-Length: 10"],
                                        body, length=False)
    s["content-length-long"] = request("POST", execute, [auth, json_ct, "Content-Length: 500"],
                                       body, length=False)
    s["content-length-duplicate"] = request("POST", execute, [auth, json_ct, "Content-Length: 2",
                                                              "Content-Length: 3"], b"{}", length=False)
    s["content-length-and-chunked"] = request(
        "POST", execute, [auth, json_ct, "Content-Length: 4", "Transfer-Encoding: chunked"],
        b"2\r\n{}\r\n0\r\n\r\n", length=False)
    s["bad-request-line"] = b"GET  /api/v1/health HTTP/1.1\r\n\r\n"
    s["bad-version"] = b"GET /api/v1/health HTTP/2.0\r\nHost: x\r\n\r\n"
    s["bare-lf"] = b"GET /api/v1/health HTTP/1.1\nHost: x\n\n"
    s["header-no-colon"] = b"GET /api/v1/health HTTP/1.1\r\nHost x\r\n\r\n"
    s["control-chars-in-header"] = b"GET /api/v1/health HTTP/1.1\r\nX-A: a\x01b\r\n\r\n"
    s["long-target"] = request("GET", "/api/v1/tools/" + "a" * 300)
    s["request-id-header"] = request("GET", "/api/v1/health", ["X-Request-ID: \"><script>"])
    for name, data in s.items():
        write("fuzz_http", name, data)


# ---------------------------------------------------------------- fuzz_config

def config_seeds():
    # selector bytes: 0 domains, 1 pricing, 2 service config, 3 plans, 4 registry with the
    # pricing file, 5 registry with the domains file (fuzz_config.cpp)
    domains = (ROOT / "catalog" / "domains.toml").read_text()
    pricing = (ROOT / "catalog" / "llm-pricing.toml").read_text()
    config = (ROOT / "config" / "toolcalc.toml").read_text()
    seeds = {
        "domains": (0, domains),
        "domains-one": (0, '[[domain]]\nname = "x"\ndisplay_name = "X"\ndescription = "d"\ntarget = 1\n'),
        "domains-bad-target": (0, '[[domain]]\nname = "x"\ndisplay_name = "X"\ndescription = "d"\ntarget = -1\n'),
        "domains-not-array": (0, 'domain = "x"\n'),
        "pricing": (1, pricing),
        "pricing-minimal": (1, 'pricing_as_of = 2026-11-01\n[[model]]\nid = "provider-a/model-b-4.6"\n'
                               'model_name = "B"\nprovider = "provider-a"\ninput_per_mtok = 3.0\n'
                               'cached_input_per_mtok = 0.3\noutput_per_mtok = 15\n'),
        "pricing-nan": (1, 'pricing_as_of = "2026-02-30"\n[[model]]\nid = "provider-a/model-b-4.6"\n'
                           'model_name = "B"\nprovider = "provider-a"\ninput_per_mtok = nan\n'
                           'cached_input_per_mtok = inf\noutput_per_mtok = -1\n'),
        "pricing-duplicate": (1, 'pricing_as_of = "2026-11-01"\n' + ('[[model]]\nid = "provider-b/m"\n'
                                 'model_name = "M"\nprovider = "provider-b"\ninput_per_mtok = 1\n'
                                 'cached_input_per_mtok = 1\noutput_per_mtok = 1\n') * 2),
        "config": (2, config),
        "config-empty": (2, ""),
        "config-listen-v6": (2, '[server]\nlisten = "[::1]:0"\nthreads = 256\nbase_path = "/api"\n'),
        "config-bad-values": (2, '[server]\nlisten = ":99999"\nmax_connections = 0\n[store]\nbackend = "x"\n'),
        "config-unknown": (2, '[server]\nlisten = "127.0.0.1:8080"\nfoo = 1\n'),
        "config-plans": (2, '[plans.free]\nrate_per_minute = 1\nmonthly_quota = 0\n[plans.new]\nrate_per_minute = 100000000\n'),
        "plans": (3, '[plans.pro]\nrate_per_minute = 600\nmonthly_quota = 100000\n[plans.anonymous]\nrate_per_minute = 60\n'),
        "plans-bad": (3, '[plans.anonymous]\nmonthly_quota = 5\n[plans.x]\nrate_per_minute = "fast"\n'),
        "plans-not-table": (3, 'plans = 5\n'),
        "registry-pricing": (4, pricing),
        "registry-pricing-odd-names": (4, 'pricing_as_of = "2026-11-01"\n[[model]]\n'
                                          'id = "provider-a/model-b-4.6"\nmodel_name = "Q\\"\\u0001\\u00e9"\n'
                                          'provider = "provider-a"\ninput_per_mtok = 1e300\n'
                                          'cached_input_per_mtok = 0\noutput_per_mtok = 0.000001\n'),
        "registry-domains": (5, domains),
        "registry-domains-missing-one": (5, domains.split("[[domain]]\nname = \"pcb-design\"")[0]),
    }
    for name, (selector, text) in seeds.items():
        write("fuzz_config", name, bytes([selector]) + text.encode())


# ---------------------------------------------------------------- fuzz_resp

def rate_reply(steps):
    """The reply of the rate-steps script (src/store/redis_counters.cpp): {allowed, used,
    allowed, used} per step."""
    out = f"*{4 * steps}\r\n"
    for i in range(steps):
        out += f":1\r\n:{7 + i}\r\n:1\r\n:{5000 + i}\r\n"
    return out


def resp_seeds():
    # What Redis sends the pipeline (replies), and a command's arguments cut at 0xFF
    # (fuzz_resp.cpp reads the input both ways).
    seeds = {
        "rate-1": rate_reply(1),
        "rate-4": rate_reply(4),
        "rate-refused": "*4\r\n:0\r\n:60\r\n:0\r\n:0\r\n",
        "rate-then-release": rate_reply(2) + ":41\r\n",
        "status-ok": "+OK\r\n",
        "noscript": "-NOSCRIPT No matching script. Please use EVAL.\r\n",
        "misconf": "-MISCONF Errors writing to the AOF file: No space left on device\r\n",
        "auth-then-select": "+OK\r\n+OK\r\n" + rate_reply(1),
        "bulk": "$5\r\nhello\r\n",
        "bulk-crlf-inside": "$5\r\na\r\nbc\r\n",
        "bulk-empty": "$0\r\n\r\n",
        "bulk-nil": "$-1\r\n",
        "array-nil": "*-1\r\n",
        "array-empty": "*0\r\n",
        "nested": "*2\r\n*2\r\n:1\r\n$1\r\nx\r\n*1\r\n*0\r\n",
        "nested-8": "*1\r\n" * 8 + ":1\r\n",
        "exec-with-error": "*3\r\n+OK\r\n-ERR wrong type\r\n:3\r\n",
        "hgetall": "*4\r\n$6\r\nprefix\r\n$12\r\ntc_live_abcd\r\n$4\r\nplan\r\n$3\r\npro\r\n",
        "integers-edge": ":0\r\n:-1\r\n:9223372036854775807\r\n:-9223372036854775808\r\n",
        "integer-leading-zero": ":007\r\n",
        "integer-minus-zero": ":-0\r\n",
        "integer-overflow": ":9223372036854775808\r\n",
        "cut-in-array": rate_reply(2)[:-3],
        "cut-in-bulk": "$10\r\nhello",
        "bulk-without-crlf": "$3\r\nabcXY",
        "bulk-too-long": "$536870913\r\n",
        "array-too-long": "*2147483648\r\n",
        "bare-cr": "+O\rK\r\n",
        "bare-lf": "+OK\n:1\r\n",
        "http-not-resp": "HTTP/1.1 200 OK\r\n\r\n",
        "resp3-double": ",1.5\r\n",
        "command-evalsha": "EVALSHA\xff" + "a" * 40 + "\xff2\xfftc:rate:{17}:1795000000\xff"
                           "tc:quota:{key:17}:2026-11\xff1\xff600\xff120\xff100000",
        "command-crlf-args": "SET\xffk\r\n\xff\xff$3\r\n*1",
    }
    for name, text in seeds.items():
        write("fuzz_resp", name, text.encode("latin-1"))


def main():
    resp_seeds()
    binary = os.environ.get("TOOLCALC_BIN", str(ROOT / "build" / "toolcalc"))
    tools = fetch_tools(binary)
    tool_seeds(tools)
    tools_dict(tools)
    analysis_seeds(tools)
    analysis_dict(tools)
    http_seeds(tools)
    config_seeds()
    for target in sorted(p.name for p in CORPUS.iterdir()):
        print(f"{target}: {len(list((CORPUS / target).iterdir()))} seeds")


if __name__ == "__main__":
    main()

"""HTTP framing over raw sockets: header and body limits answered with
envelopes, pipelining, keep-alive, HTTP/1.0, malformed requests."""
import json
import socket
import time

import pytest

from support import (BATTERY, BATTERY_DEFAULTS, EXPOSED_HEADERS, REQUEST_ID_RE, RawReader,
                     connect, http_request)


def auth(api):
    return {"Authorization": f"Bearer {api.key}", "Content-Type": "application/json"}


def check_raw_error(resp, status, code, service_version=None):
    assert resp.status == status, (resp.status, resp.body)
    assert resp.headers["content-type"].startswith("application/json")
    body = resp.json()
    assert list(body) == ["ok", "error", "meta"]
    assert body["ok"] is False and body["error"]["code"] == code
    assert list(body["error"]) == ["code", "message"]
    rid = resp.headers["x-request-id"]
    assert REQUEST_ID_RE.match(rid) and body["meta"] == {"request_id": rid}
    assert resp.headers["access-control-allow-origin"] == "*"
    exposed = resp.headers["access-control-expose-headers"].lower()
    for h in EXPOSED_HEADERS:
        assert h.lower() in exposed
    for h in ("x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset",
              "x-tool-version"):
        assert h in resp.headers, f"{h} missing on {status}"
        if h != "x-tool-version":
            assert int(resp.headers[h]) >= 0
    if service_version is not None:
        assert resp.headers["x-tool-version"] == service_version
    return body["error"]


def test_header_block_over_8k_gets_431_then_close(api, service_version):
    s = connect(api.server.port)
    with s:
        s.sendall(b"GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 9000 + b"\r\n\r\n")
        reader = RawReader(s)
        resp = reader.read_response()
        err = check_raw_error(resp, 431, "HEADERS_TOO_LARGE", service_version)
        assert "8192" in err["message"]
        assert resp.headers.get("connection", "").lower() == "close"
        assert reader.closed_by_peer()


def test_many_headers_just_under_8k_accepted(api):
    s = connect(api.server.port)
    with s:
        headers = {f"X-Pad-{i}": "p" * 60 for i in range(100)}  # ~7.5 KiB
        s.sendall(http_request("GET", "/v1/health", headers=headers))
        resp = RawReader(s).read_response()
        assert resp.status == 200, resp.body


def test_content_length_over_64k_gets_413_before_body(api, service_version):
    s = connect(api.server.port)
    with s:
        head = (f"POST {BATTERY} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {api.key}\r\n"
                "Content-Type: application/json\r\nContent-Length: 65537\r\n\r\n")
        s.sendall(head.encode())
        # no body sent: the answer must come from the headers alone
        t0 = time.monotonic()
        reader = RawReader(s)
        resp = reader.read_response()
        assert time.monotonic() - t0 < 3
        err = check_raw_error(resp, 413, "PAYLOAD_TOO_LARGE", service_version)
        assert "65536" in err["message"]
        assert reader.closed_by_peer()


def test_body_of_exactly_64k_accepted(api):
    body = json.dumps(BATTERY_DEFAULTS).encode()
    body = body[:-1] + b" " * (65536 - len(body)) + b"}"
    assert len(body) == 65536
    s = connect(api.server.port)
    with s:
        s.sendall(http_request("POST", BATTERY, body, auth(api)))
        resp = RawReader(s).read_response()
        assert resp.status == 200, resp.body
        assert json.loads(resp.body)["result"]["daily_wakes"] == 1440


def test_chunked_body_over_64k_gets_413(api):
    s = connect(api.server.port)
    with s:
        head = (f"POST {BATTERY} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {api.key}\r\n"
                "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
        chunk = b"{" + b" " * 70000
        s.sendall(head.encode() + b"%x\r\n" % len(chunk) + chunk + b"\r\n")
        reader = RawReader(s)
        resp = reader.read_response()
        check_raw_error(resp, 413, "PAYLOAD_TOO_LARGE")
        assert reader.closed_by_peer()


def test_pipelined_requests_answered_in_order(api):
    reqs = []
    expected = []
    for i in range(10):
        if i % 3 == 2:
            reqs.append(http_request("GET", "/v1/health"))
            expected.append(("health", None))
        else:
            cap = 1000 + 100 * i
            body = json.dumps({**BATTERY_DEFAULTS, "battery_capacity_mah": cap}).encode()
            reqs.append(http_request("POST", BATTERY, body, auth(api)))
            avg_ma = (80 * 0.25 + 10 / 1000 * (60 - 0.25)) / 60
            expected.append(("battery", cap * 0.8 / avg_ma))
    s = connect(api.server.port)
    with s:
        s.sendall(b"".join(reqs))
        reader = RawReader(s)
        ids = set()
        for kind, hours in expected:
            resp = reader.read_response()
            assert resp.status == 200, resp.body
            body = resp.json()
            ids.add(body["meta"]["request_id"])
            assert body["meta"]["request_id"] == resp.headers["x-request-id"]
            if kind == "health":
                assert body["result"]["status"] == "ok"
            else:
                assert abs(body["result"]["lifetime_hours"] - hours) <= 0.051
        assert len(ids) == 10
        # the connection stays open for more
        s.sendall(http_request("GET", "/v1/health"))
        assert reader.read_response().status == 200


def test_keep_alive_serves_many_requests_on_one_connection(api):
    s = connect(api.server.port)
    with s:
        reader = RawReader(s)
        for _ in range(20):
            s.sendall(http_request("GET", "/v1/domains"))
            resp = reader.read_response()
            assert resp.status == 200 and resp.version == "HTTP/1.1"
            assert resp.headers.get("connection", "").lower() != "close"


def test_http10_without_keep_alive_closes(api):
    s = connect(api.server.port)
    with s:
        s.sendall(b"GET /v1/health HTTP/1.0\r\n\r\n")
        reader = RawReader(s)
        resp = reader.read_response()
        assert resp.status == 200 and resp.json()["result"]["status"] == "ok"
        assert resp.version == "HTTP/1.0"
        assert reader.closed_by_peer()


def test_http10_with_keep_alive_stays_open(api):
    s = connect(api.server.port)
    with s:
        reader = RawReader(s)
        for _ in range(2):
            s.sendall(b"GET /v1/health HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
            resp = reader.read_response()
            assert resp.status == 200
            assert resp.headers.get("connection", "").lower() == "keep-alive"


def test_connection_close_honoured(api):
    s = connect(api.server.port)
    with s:
        s.sendall(http_request("GET", "/v1/health", headers={"Connection": "close"}))
        reader = RawReader(s)
        assert reader.read_response().status == 200
        assert reader.closed_by_peer()


@pytest.mark.parametrize("junk", [
    b"GARBAGE\r\n\r\n",
    b"GET /v1/health\r\n\r\n",
    b"GET /v1/health HTTP/9.9\r\n\r\n",
    b"GET /v1/health HTTP/1.1\r\nBad Header Line\r\n\r\n",
    b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + b"\x00" * 40 + b"\r\n\r\n",
    b"POST /v1/health HTTP/1.1\r\nContent-Length: abc\r\n\r\n",
])
def test_malformed_request_gets_400_then_close(api, junk, service_version):
    s = connect(api.server.port)
    with s:
        s.sendall(junk)
        reader = RawReader(s)
        resp = reader.read_response()
        check_raw_error(resp, 400, "BAD_REQUEST", service_version)
        assert reader.closed_by_peer()


def test_malformed_after_good_request_on_same_connection(api):
    s = connect(api.server.port)
    with s:
        s.sendall(http_request("GET", "/v1/health") + b"NOT HTTP AT ALL\r\n\r\n")
        reader = RawReader(s)
        assert reader.read_response().status == 200
        check_raw_error(reader.read_response(), 400, "BAD_REQUEST")
        assert reader.closed_by_peer()


def test_expect_100_continue(api):
    body = json.dumps(BATTERY_DEFAULTS).encode()
    head = http_request("POST", BATTERY, b"", {**auth(api), "Content-Length": str(len(body)),
                                                 "Expect": "100-continue"})
    s = connect(api.server.port)
    with s:
        s.sendall(head)
        reader = RawReader(s)
        interim = reader.read_response()
        assert interim.status == 100
        s.sendall(body)
        resp = reader.read_response()
        assert resp.status == 200 and resp.json()["result"]["daily_wakes"] == 1440


def test_expect_100_continue_with_oversized_length_gets_413(api):
    head = http_request("POST", BATTERY, b"", {**auth(api), "Content-Length": "100000",
                                                 "Expect": "100-continue"})
    s = connect(api.server.port)
    with s:
        s.sendall(head)
        reader = RawReader(s)
        check_raw_error(reader.read_response(), 413, "PAYLOAD_TOO_LARGE")
        assert reader.closed_by_peer()


def test_body_split_across_packets(api):
    body = json.dumps(BATTERY_DEFAULTS).encode()
    data = http_request("POST", BATTERY, body, auth(api))
    s = connect(api.server.port)
    with s:
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        for i in range(0, len(data), 37):
            s.sendall(data[i:i + 37])
            time.sleep(0.002)
        resp = RawReader(s).read_response()
        assert resp.status == 200 and resp.json()["result"]["daily_wakes"] == 1440


def test_client_disconnect_mid_request_does_not_hurt_server(api):
    for _ in range(5):
        s = connect(api.server.port)
        s.sendall(b"POST " + BATTERY.encode() + b" HTTP/1.1\r\nContent-Length: 100\r\n\r\n{")
        s.close()
    assert api.get("/v1/health").status_code == 200

"""The web playground's files over HTTP (docs/playground.md): where they are served,
their content types and security headers, ETag/304 and HEAD, the values written into the
page, and that they are never authenticated, rate limited or counted.

Dedicated servers (the page is not part of the OpenAPI document, so these tests are skipped
in contract mode)."""
import re
import socket
import subprocess
import time

import requests

from support import BIN, REPO, TEST_KEY_RE, connect, header_int, http_request

CSP = ("default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
       "form-action 'none'; frame-ancestors 'none'")
WEB = REPO / "web"
UPLOT = REPO / "third_party" / "uplot"
TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
         ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml"}


def files():
    """(served name, bytes on disk) of every file the binary embeds."""
    out = [(p.name, p.read_bytes()) for p in sorted(WEB.iterdir())]
    out += [(f"vendor/{n}", (UPLOT / n).read_bytes()) for n in ("uPlot.iife.min.js",
                                                                 "uPlot.min.css")]
    return out


def check_static_headers(r, content_type, cors=True):
    assert r.status_code == 200, f"{r.status_code} {r.url}"
    assert r.headers["Content-Type"] == content_type
    assert r.headers["Content-Security-Policy"] == CSP
    assert r.headers["X-Content-Type-Options"] == "nosniff"
    assert r.headers["Cache-Control"] == "no-cache"
    assert re.fullmatch(r'"[0-9a-f]{16}"', r.headers["ETag"])
    # Development mode answers its own origin only: no CORS header there.
    assert r.headers.get("Access-Control-Allow-Origin") == ("*" if cors else None)
    assert re.match(r"^req_[A-Za-z0-9]{20,}$", r.headers["X-Request-ID"])


def test_dev_serves_every_file_at_the_root_and_under_the_base_path(start_server):
    s = start_server(dev=True)  # base path /api
    origin = f"http://127.0.0.1:{s.port}"
    dev_key = s.wait_for_line(TEST_KEY_RE.pattern).group(0)
    assert s.wait_for_line(r"^playground: http://127\.0\.0\.1:\d+/api/ \(the dev key is pre-filled\)$")
    for prefix in ("", "/api"):
        for name, data in files():
            r = requests.get(f"{origin}{prefix}/{name}", timeout=10)
            check_static_headers(r, TYPES[name[name.rfind("."):]], cors=False)
            if name == "index.html":
                continue
            assert r.content == data, name
        page = requests.get(f"{origin}{prefix}/", timeout=10)
        check_static_headers(page, "text/html; charset=utf-8", cors=False)
        assert '<meta name="toolcalc-api-base" content="/api">' in page.text
        assert f'<meta name="toolcalc-dev-key" content="{dev_key}">' in page.text
        assert "{{" not in page.text
        # Relative URLs: the same page works at / and at /api/, and nothing comes from
        # another origin.
        assert 'src="vendor/uPlot.iife.min.js"' in page.text
        assert "http://" not in page.text and "https://" not in page.text
    # Exact paths, as for the API.
    for path in ("/api", "/nope.js", "/api/nope.js", "/vendor/", "/api/app.js/"):
        r = requests.get(origin + path, timeout=10)
        assert r.status_code == 404, path
        assert r.headers["Content-Type"] == "application/json; charset=utf-8"
        assert r.json()["error"]["code"] == "NOT_FOUND"
    assert s.stop() == 0


def test_dev_answers_only_its_own_host_and_origin(start_server):
    """serve --dev (docs/playground.md, "Development mode"): the page holds the dev key, so
    a page of another origin must not read it, nor a DNS-rebinding page (another name for
    127.0.0.1) load it: no CORS headers, Host checked, a foreign Origin refused, 403."""
    s = start_server(dev=True)
    origin = f"http://127.0.0.1:{s.port}"
    dev_key = s.wait_for_line(TEST_KEY_RE.pattern).group(0)
    for host in (f"127.0.0.1:{s.port}", f"localhost:{s.port}", f"[::1]:{s.port}"):
        page = requests.get(origin + "/api/", headers={"Host": host}, timeout=10)
        assert page.status_code == 200, host
        assert dev_key in page.text
        assert "Access-Control-Allow-Origin" not in page.headers
    me = requests.get(origin + "/api/v1/me", timeout=10,
                      headers={"Authorization": f"Bearer {dev_key}", "Origin": origin})
    assert me.status_code == 200 and "Access-Control-Allow-Origin" not in me.headers
    for host in (f"rebind.example:{s.port}", "127.0.0.1", f"127.0.0.1:{s.port + 1}"):
        for path in ("/api/", "/api/v1/health", "/api/v1/me"):
            r = requests.get(origin + path, headers={"Host": host,
                                                     "Authorization": f"Bearer {dev_key}"},
                             timeout=10)
            assert r.status_code == 403, (host, path, r.status_code)
            assert r.json()["error"]["code"] == "FORBIDDEN"
            assert dev_key not in r.text and "Access-Control-Allow-Origin" not in r.headers
    for other in ("http://evil.example", f"http://localhost:{s.port + 1}", "null"):
        r = requests.post(origin + "/api/v1/iot-mcu/mcu-deep-sleep-battery", json={},
                          headers={"Origin": other, "Authorization": f"Bearer {dev_key}"},
                          timeout=10)
        assert r.status_code == 403 and r.json()["error"]["code"] == "FORBIDDEN", other
        pre = requests.options(origin + "/api/v1/me", headers={
            "Origin": other, "Access-Control-Request-Method": "GET"}, timeout=10)
        assert pre.status_code == 403 and "Access-Control-Allow-Origin" not in pre.headers
    assert s.stop() == 0


def test_etag_revalidation_and_head(start_server):
    s = start_server(base_path="/x")
    url = s.url("/app.js")
    first = requests.get(url, timeout=10)
    etag = first.headers["ETag"]
    again = requests.get(url, headers={"If-None-Match": etag}, timeout=10)
    assert again.status_code == 304
    assert again.content == b""
    assert again.headers["ETag"] == etag
    assert "Content-Length" not in again.headers
    assert requests.get(url, headers={"If-None-Match": f'"abc", W/{etag}'},
                        timeout=10).status_code == 304
    assert requests.get(url, headers={"If-None-Match": '"0000000000000000"'},
                        timeout=10).status_code == 200
    head = requests.head(url, timeout=10)
    assert head.status_code == 200
    assert head.headers["Content-Length"] == str(len(first.content))
    assert head.headers["ETag"] == etag
    assert s.stop() == 0


def test_head_response_has_no_body_on_the_wire(start_server):
    """Read off the socket: after HEAD's headers comes the next response, not a body."""
    s = start_server()
    sock = connect(s.port)
    sock.sendall(http_request("HEAD", "/style.css"))
    data = b""
    deadline = time.monotonic() + 5
    while b"\r\n\r\n" not in data and time.monotonic() < deadline:
        data += sock.recv(65536)
    head, _, rest = data.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200")
    assert b"content-length: %d" % len((WEB / "style.css").read_bytes()) in head.lower()
    sock.sendall(http_request("GET", "/v1/health"))
    more = rest
    while b"\r\n\r\n" not in more and time.monotonic() < deadline:
        more += sock.recv(65536)
    assert more.startswith(b"HTTP/1.1 200"), more[:200]  # the next response, not a body
    sock.close()
    assert s.stop() == 0


def test_never_authenticated_limited_or_counted(start_server, config_file):
    s = start_server()
    origin = f"http://127.0.0.1:{s.port}"
    before = requests.get(origin + "/v1/tools", timeout=10)
    for _ in range(10):
        r = requests.get(origin + "/app.js", headers={"Authorization": "Bearer tc_live_bogus"},
                         timeout=10)
        assert r.status_code == 200  # an invalid key is ignored here
        r = requests.head(origin + "/", timeout=10)
        assert r.status_code == 200
    after = requests.get(origin + "/v1/tools", timeout=10)
    if header_int(after, "X-RateLimit-Reset") == header_int(before, "X-RateLimit-Reset"):
        assert header_int(after, "X-RateLimit-Remaining") == \
            header_int(before, "X-RateLimit-Remaining") - 1
    r = requests.post(origin + "/", data=b"x", timeout=10)
    assert r.status_code == 405
    assert r.headers["Allow"] == "GET, HEAD, OPTIONS"
    assert r.json()["error"]["code"] == "METHOD_NOT_ALLOWED"
    r = requests.options(origin + "/vendor/uPlot.min.css", timeout=10)
    assert r.status_code == 204
    assert r.headers["Access-Control-Allow-Methods"] == "GET, HEAD, OPTIONS"
    assert s.stop() == 0


def test_base_path_and_no_dev_key_outside_dev(start_server):
    s = start_server(base_path="/calc")
    origin = f"http://127.0.0.1:{s.port}"
    for path in ("/", "/calc/"):
        page = requests.get(origin + path, timeout=10)
        check_static_headers(page, "text/html; charset=utf-8")
        assert '<meta name="toolcalc-api-base" content="/calc">' in page.text
        assert '<meta name="toolcalc-dev-key" content="">' in page.text
    # API answers keep their JSON type and no-store.
    r = requests.get(s.url("/v1/health"), timeout=10)
    assert r.headers["Content-Type"] == "application/json; charset=utf-8"
    assert r.headers["Cache-Control"] == "no-store"
    assert "Content-Security-Policy" not in r.headers
    assert requests.get(origin + "/api/", timeout=10).status_code == 404
    assert s.stop() == 0


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_dev_on_all_interfaces_does_not_put_the_key_in_the_page(tmp_path, config_file):
    port = free_port()
    proc = subprocess.Popen([BIN, "serve", "--dev", "--listen", f"0.0.0.0:{port}",
                             "--data", str(tmp_path / "data"), "--config", str(config_file),
                             "--threads", "1"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        lines = []
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            lines.append(line)
            if line.startswith("playground:"):
                break
        assert lines and "not on loopback: enter the key in the page" in lines[-1], lines
        page = requests.get(f"http://127.0.0.1:{port}/api/", timeout=10)
        assert '<meta name="toolcalc-dev-key" content="">' in page.text
        assert not TEST_KEY_RE.search(page.text)
    finally:
        proc.terminate()
        proc.wait(timeout=15)

"""TLS (docs/deploy.md, "TLS"): the nginx front of deploy/nginx/toolcalc.conf, as shipped
with only its ports, upstream and certificate paths rewritten, in front of a real server;
a self-signed certificate made here with the openssl CLI; a real HTTPS client that
verifies it."""
import json
import os
import re
import shutil
import socket
import ssl
import subprocess
import time

import requests

from support import BATTERY, BATTERY_DEFAULTS, REPO, create_key

DEPLOY_CONF = REPO / "deploy" / "nginx" / "toolcalc.conf"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def self_signed(directory):
    """A key and a certificate for 127.0.0.1 and localhost, valid for a day."""
    key, cert = directory / "privkey.pem", directory / "fullchain.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                    "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1",
                    "-subj", "/CN=toolcalc test", "-addext",
                    "subjectAltName=IP:127.0.0.1,DNS:localhost",
                    "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True, timeout=30)
    return key, cert


def rewrite(conf, https_port, http_port, upstream_port, key, cert):
    """The shipped file with test ports, upstream and paths: every rewrite must apply."""
    edits = [
        ("    listen 443 ssl http2;\n", f"    listen 127.0.0.1:{https_port} ssl http2;\n"),
        ("    listen [::]:443 ssl http2;\n", ""),
        ("    listen 80;\n", f"    listen 127.0.0.1:{http_port};\n"),
        ("    listen [::]:80;\n", ""),
        ("server 127.0.0.1:8080;", f"server 127.0.0.1:{upstream_port};"),
        ("/etc/toolcalc/tls/fullchain.pem", str(cert)),
        ("/etc/toolcalc/tls/privkey.pem", str(key)),
    ]
    for old, new in edits:
        assert old in conf, f"deploy/nginx/toolcalc.conf no longer has {old!r}"
        conf = conf.replace(old, new)
    return conf


def start_nginx(directory, site):
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    (directory / "site.conf").write_text(site)
    main = directory / "nginx.conf"
    # Started as root (CI), workers would run as nobody and could not write request bodies
    # into this test's private temporary directory.
    user = "user root root;\n" if os.geteuid() == 0 else ""
    main.write_text(
        user + "worker_processes 1;\ndaemon off;\n"
        f"pid {directory}/nginx.pid;\nerror_log {directory}/error.log warn;\n"
        "events { worker_connections 256; }\n"
        "http {\n  access_log off;\n"
        + "".join(f"  {t}_temp_path {directory}/{t};\n"
                  for t in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        + f"  include {directory}/site.conf;\n}}\n")
    check = subprocess.run([nginx, "-t", "-p", str(directory), "-c", str(main), "-e",
                            str(directory / "error.log")], capture_output=True, text=True)
    assert check.returncode == 0, check.stderr
    return subprocess.Popen([nginx, "-p", str(directory), "-c", str(main), "-e",
                             str(directory / "error.log")],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def raw_https_get(port, cert, path, headers):
    """(status, body) of one GET of `path` exactly as written, over TLS."""
    ctx = ssl.create_default_context(cafile=str(cert))
    lines = "".join(f"{k}: {v}\r\n" for k, v in headers.items())
    with socket.create_connection(("127.0.0.1", port), timeout=5) as raw, \
            ctx.wrap_socket(raw, server_hostname="127.0.0.1") as tls:
        tls.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{lines}"
                    "Connection: close\r\n\r\n".encode())
        data = b""
        while chunk := tls.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), body.decode()


def test_https_through_the_shipped_nginx_front(start_server, tmp_path, config_file):
    data = tmp_path / "tls-data"
    key = create_key(data, config_file, "big", label="tls")
    admin_token = "adm_" + "t" * 40
    server = start_server(data, env={"TOOLCALC_ADMIN_TOKEN": admin_token})
    tls_dir = tmp_path / "nginx"
    tls_dir.mkdir()
    pem_key, pem_cert = self_signed(tls_dir)
    https_port, http_port = free_port(), free_port()
    proc = start_nginx(tls_dir, rewrite(DEPLOY_CONF.read_text(), https_port, http_port,
                                        server.port, pem_key, pem_cert))
    base = f"https://127.0.0.1:{https_port}"
    try:
        session = requests.Session()
        # The client checks the chain and the name against this certificate only (not
        # REQUESTS_CA_BUNDLE, which would take precedence over session.verify).
        session.trust_env = False
        session.verify = str(pem_cert)
        deadline = time.monotonic() + 15
        while True:
            try:
                health = session.get(base + "/v1/health", timeout=5)
                break
            except requests.exceptions.SSLError:
                raise
            except requests.ConnectionError as e:
                assert proc.poll() is None, proc.stderr.read().decode()
                assert time.monotonic() < deadline, f"nginx did not answer within 15 s: {e}"
                time.sleep(0.05)
        assert health.status_code == 200 and health.json()["result"]["status"] == "ok"
        assert health.headers["Strict-Transport-Security"] == "max-age=63072000"

        r = session.post(base + BATTERY, json=BATTERY_DEFAULTS,
                         headers={"Authorization": f"Bearer {key}"}, timeout=10)
        assert r.status_code == 200, r.text
        assert r.json()["result"]["avg_current_ua"] == 343.3
        assert re.fullmatch(r"req_[A-Za-z0-9]+", r.headers["X-Request-ID"])
        # toolcalc's own refusals pass through unchanged
        bad = session.post(base + BATTERY, json={**BATTERY_DEFAULTS, "battery_capacity_mah": 1},
                           headers={"Authorization": f"Bearer {key}"}, timeout=10)
        assert bad.status_code == 400 and bad.json()["error"]["field"] == "battery_capacity_mah"
        # a body over toolcalc's 64 KiB limit is refused by nginx, in toolcalc's envelope
        big = session.post(base + BATTERY, data=b"x" * 70000,
                           headers={"Authorization": f"Bearer {key}",
                                    "Content-Type": "application/json"}, timeout=10)
        assert big.status_code == 413, big.text
        assert big.json()["ok"] is False
        assert big.json()["error"]["code"] == "PAYLOAD_TOO_LARGE"
        # one byte under the limit reaches toolcalc (and is refused there as bad JSON)
        edge = session.post(base + BATTERY, data=b" " * (65536 - 2) + b"{}",
                            headers={"Authorization": f"Bearer {key}",
                                     "Content-Type": "application/json"}, timeout=10)
        assert edge.status_code == 400, edge.text
        # The admin API and the metrics stay off the public front, at the root and under
        # any base path, however the path is spelled; toolcalc itself answers them (the
        # request id says who refused).
        admin = {"Authorization": f"Bearer {admin_token}"}
        direct = f"http://127.0.0.1:{server.port}"
        assert requests.get(direct + "/admin/v1/keys", headers=admin, timeout=5).status_code == 200
        assert requests.get(direct + "/metrics", timeout=5).status_code == 200
        # Sent as written (a client library would normalise some of these spellings).
        for path in ("/metrics", "/api/metrics", "/calc/v2/metrics", "/admin/v1/keys",
                     "/api/admin/v1/keys", "/%61dmin/v1/keys", "/api/%6Detrics",
                     "//admin/v1/openapi.json", "/v1/../admin/v1/keys", "/metrics?format=text"):
            status, body = raw_https_get(https_port, pem_cert, path, admin)
            assert status == 404, (path, status, body)
            assert json.loads(body)["meta"]["request_id"].startswith("nginx_"), (path, body)

        # the negotiated protocol, and a client that does not trust the certificate
        ctx = ssl.create_default_context(cafile=str(pem_cert))
        with socket.create_connection(("127.0.0.1", https_port)) as raw, \
                ctx.wrap_socket(raw, server_hostname="127.0.0.1") as tls:
            assert tls.version() in ("TLSv1.2", "TLSv1.3"), tls.version()
        try:
            requests.get(base + "/v1/health", timeout=5)
            raise AssertionError("an untrusted self-signed certificate was accepted")
        except requests.exceptions.SSLError:
            pass

        plain = requests.get(f"http://127.0.0.1:{http_port}/v1/tools?page=2",
                             allow_redirects=False, timeout=5)
        assert plain.status_code == 308
        assert plain.headers["Location"] == "https://127.0.0.1/v1/tools?page=2"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_nginx_front_limits_requests_in_flight_per_client(tmp_path):
    """The front's limit_conn (toolcalc behind it sees only nginx's address, so the front
    limits each client): with the limit rewritten from 256 to 1, and an upstream that
    accepts and never answers, a second request from the same address while the first is
    in flight is answered 503 SERVER_BUSY in toolcalc's envelope, with Retry-After: 1."""
    conf = DEPLOY_CONF.read_text()
    assert "limit_conn toolcalc_per_client 256;" in conf
    conf = conf.replace("limit_conn toolcalc_per_client 256;", "limit_conn toolcalc_per_client 1;")
    upstream = socket.socket()
    upstream.bind(("127.0.0.1", 0))
    upstream.listen(8)
    tls_dir = tmp_path / "nginx"
    tls_dir.mkdir()
    pem_key, pem_cert = self_signed(tls_dir)
    https_port, http_port = free_port(), free_port()
    proc = start_nginx(tls_dir, rewrite(conf, https_port, http_port,
                                        upstream.getsockname()[1], pem_key, pem_cert))
    ctx = ssl.create_default_context(cafile=str(pem_cert))
    opened = []

    def send_health():
        deadline = time.monotonic() + 15
        while True:
            try:
                raw = socket.create_connection(("127.0.0.1", https_port), timeout=10)
                break
            except ConnectionRefusedError:
                assert proc.poll() is None, proc.stderr.read().decode()
                assert time.monotonic() < deadline, "nginx did not listen within 15 s"
                time.sleep(0.05)
        tls = ctx.wrap_socket(raw, server_hostname="127.0.0.1")
        opened.append(tls)
        tls.sendall(b"GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        return tls

    try:
        send_health()
        held, _ = upstream.accept()  # the first request is in flight: nginx passed it on
        opened.append(held)
        second = send_health()
        answer = b""
        while b"}}" not in answer:
            chunk = second.recv(4096)
            assert chunk, answer
            answer += chunk
        head, _, body = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 503 "), head
        assert b"\r\nRetry-After: 1" in head, head
        envelope = json.loads(body)
        assert envelope["ok"] is False
        assert envelope["error"] == {"code": "SERVER_BUSY", "message":
                                     "too many open connections from this address; retry shortly"}
    finally:
        for s in opened:
            s.close()
        upstream.close()
        proc.terminate()
        proc.wait(timeout=10)

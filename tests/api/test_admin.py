"""The admin API, /admin/v1/keys (docs/operations.md, "Admin API"), on either store: off
(404) without a token, the token from TOOLCALC_ADMIN_TOKEN or TOOLCALC_ADMIN_TOKEN_FILE,
list/create/get/update/rotate/revoke with the CLI's rules, its own OpenAPI document (and
none of it in the public one), and one audit line per action that names no secret."""
import http.client
import json
import secrets
import time
import urllib.parse

import pytest
import requests

from support import (BATTERY, BATTERY_DEFAULTS, KEYS_AVAILABLE, LIVE_KEY_RE, NO_KEYS_REASON,
                     Client, check_error, check_ok_result, check_success, create_key, parse_log_line,
                     run_cli)

pytestmark = pytest.mark.skipif(not KEYS_AVAILABLE, reason=NO_KEYS_REASON)

TOKEN = "adm_" + secrets.token_urlsafe(32)


class Admin:
    def __init__(self, server, token=TOKEN):
        self.server = server
        self.token = token
        self.session = requests.Session()

    def call(self, method, path, body=None, token=None, raw=None, headers=None):
        h = {"Authorization": f"Bearer {token or self.token}", **(headers or {})}
        data = raw
        if body is not None:
            h["Content-Type"] = "application/json"
            data = json.dumps(body)
        return self.session.request(method, self.server.url("/admin/v1" + path), data=data,
                                    headers=h, timeout=10)

    def ok(self, method, path, body=None, status=200):
        r = self.call(method, path, body)
        assert r.status_code == status, r.text
        b = r.json()
        assert b["ok"] is True and list(b) == ["ok", "result", "meta"]
        assert r.headers["X-Request-ID"] == b["meta"]["request_id"]
        return b["result"]


@pytest.fixture
def admin_server(start_server, tmp_path):
    s = start_server(data_dir=tmp_path / "admin", env={"TOOLCALC_ADMIN_TOKEN": TOKEN})
    assert s.wait_for_log(r"admin API on ", timeout=2)
    return s


def lines_after_audit(server, action, prefix, timeout=10.0):
    """The index of the stderr line after the audit line of `action` on `prefix`, once it
    has been read: the server writes it before answering, but its stderr is read on another
    thread, so a line may arrive after the response."""
    deadline = time.monotonic() + timeout
    while True:
        lines = list(server.stderr_lines)
        for i in range(len(lines) - 1, -1, -1):
            rec = parse_log_line(lines[i])
            if (rec and rec.get("msg") == "admin action" and rec.get("action") == action
                    and rec.get("key_prefix") == prefix):
                return i + 1
        assert time.monotonic() < deadline, f"no audit line of {action} on {prefix}"
        time.sleep(0.05)


def audit_lines(server, since=0):
    time.sleep(0.2)
    out = []
    for line in server.stderr_lines[since:]:
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        if rec.get("msg") == "admin action":
            out.append(rec)
    return out


def test_off_without_a_token(api):
    """Without a token configured, /admin paths are unknown paths like any other: 404, or
    (a bearer that is no API key) 401 as everywhere."""
    for method, path in [("GET", "/admin/v1/keys"), ("POST", "/admin/v1/keys"),
                         ("GET", "/admin/v1/openapi.json"), ("DELETE", "/admin/v1/keys/x")]:
        check_error(api.request(method, path), 404, "NOT_FOUND", True, message="no such path")
        r = api.request(method, path, headers={"Authorization": "Bearer " + "x" * 40})
        check_error(r, 401, "UNAUTHORIZED", True, message="invalid API key")


def test_public_document_has_no_admin_path(api):
    doc = api.get("/v1/openapi.json").json()
    assert not [p for p in doc["paths"] if "admin" in p]
    assert "admin" not in json.dumps(doc["paths"]).lower()


def test_the_token_is_required_and_compared(admin_server):
    a = Admin(admin_server)
    r = requests.get(admin_server.url("/admin/v1/keys"), timeout=10)
    err = r.json()["error"]
    assert r.status_code == 401 and err == {"code": "UNAUTHORIZED", "message": "missing admin token"}
    assert r.headers["WWW-Authenticate"] == "Bearer"
    for wrong in (TOKEN[:-1], TOKEN + "x", "Z" + TOKEN[1:], "x" * 40):
        r = a.call("GET", "/keys", token=wrong)
        assert r.status_code == 401 and r.json()["error"]["message"] == "invalid admin token"
    # An API key is not an admin token.
    assert a.call("GET", "/keys", token="tc_live_" + "A" * 32).status_code == 401
    assert a.ok("GET", "/keys") == {"items": []}


def test_failed_authentications_are_limited_per_address(admin_server):
    """docs/operations.md, "Admin API": 10 failures from one address within 60 s of its
    first, then 429 with Retry-After for every admin request from that address (the right
    token too) until the window ends; another address is not affected; the failures write
    two warning lines, not one each."""
    a = Admin(admin_server)
    since = len(admin_server.stderr_lines)
    statuses = [a.call("GET", "/keys", token=f"wrong-{i}-" + "x" * 32).status_code
                for i in range(30)]
    assert statuses == [401] * 10 + [429] * 20, statuses
    r = a.call("GET", "/keys")
    assert r.status_code == 429, r.text
    assert r.json()["error"]["code"] == "RATE_LIMITED"
    assert 1 <= int(r.headers["Retry-After"]) <= 60
    # 127.0.0.2 is another address on the same loopback interface
    path = urllib.parse.urlsplit(admin_server.url("/admin/v1/keys")).path
    conn = http.client.HTTPConnection("127.0.0.1", admin_server.port, timeout=10,
                                      source_address=("127.0.0.2", 0))
    try:
        conn.request("GET", path, headers={"Authorization": f"Bearer {TOKEN}"})
        assert conn.getresponse().status == 200
    finally:
        conn.close()
    time.sleep(0.2)
    warnings = [json.loads(line) for line in admin_server.stderr_lines[since:]
                if '"admin: authentication' in line]
    assert [w["msg"] for w in warnings] == [
        "admin: authentication failed",
        "admin: authentication failures from one address; refusing it"], warnings
    assert warnings[1]["failures"] == "10" and warnings[1]["peer_ip"] == "127.0.0.1"


def test_keys_lifecycle_matches_the_cli(admin_server, config_file):
    a = Admin(admin_server)
    before = len(admin_server.stderr_lines)
    created = a.ok("POST", "/keys", {"plan": "tiny", "label": "via admin",
                                     "monthly_quota": 5}, status=201)
    key = created["key"]
    assert LIVE_KEY_RE.match(key) and "webhook_secret" not in created
    item = created["item"]
    prefix = key[:12]
    assert item["prefix"] == prefix and item["plan"] == "tiny" and item["label"] == "via admin"
    assert item["limits"] == {"rate_per_minute": {"value": 5, "source": "plan"},
                              "monthly_quota": {"value": 5, "source": "key"}}
    assert item["revoked_at"] is None and item["webhook_url"] is None
    assert item["usage"]["used"] == 0 and item["previous_secret_expires_at"] is None

    # Usable at once on this server (the admin API reloads the keys).
    c = Client(admin_server, {"main": key}, accounts=True)
    assert check_success(c.post(BATTERY, BATTERY_DEFAULTS), True)["meta"]["quota_remaining"] == 4

    # The CLI sees the same key.
    listed = run_cli("keys", "list", "--data", str(admin_server.data_dir), "--config",
                     str(config_file)).stdout
    assert prefix in listed and "via admin" in listed

    assert a.ok("GET", f"/keys/{prefix}")["prefix"] == prefix
    assert [k["prefix"] for k in a.ok("GET", "/keys")["items"]] == [prefix]

    updated = a.ok("PATCH", f"/keys/{prefix}", {"plan": "big", "rate_per_minute": 33,
                                                "monthly_quota": None})
    assert updated["item"]["limits"] == {"rate_per_minute": {"value": 33, "source": "key"},
                                         "monthly_quota": {"value": 1000000, "source": "plan"}}
    me = check_ok_result(c.get("/v1/me", key=key), True)
    assert me["plan"] == "big" and me["rate_limit_per_minute"] == 33

    time.sleep(1.3)  # the usage the admin API shows is the store's: written every second
    rotated = a.ok("POST", f"/keys/{prefix}/rotate", {"grace": "0"})
    new = rotated["key"]
    assert new[:12] == prefix and new != key and rotated["item"]["usage"]["used"] == 1
    check_error(c.get("/v1/me", key=key), 401, "UNAUTHORIZED", True)
    assert check_ok_result(c.get("/v1/me", key=new), True)["quota"]["used"] == 1

    revoked = a.ok("DELETE", f"/keys/{prefix}")
    assert revoked == {"prefix": prefix, "already_revoked": False}
    assert a.ok("DELETE", f"/keys/{prefix}") == {"prefix": prefix, "already_revoked": True}
    check_error(c.get("/v1/me", key=new), 401, "UNAUTHORIZED", True)
    assert a.ok("GET", f"/keys/{prefix}")["revoked_at"] is not None

    # One audit line per action: who, what, which key; never a key or the token.
    lines = audit_lines(admin_server, before)
    actions = [(r["action"], r["key_prefix"], r["status"]) for r in lines]
    assert actions == [("keys.create", prefix, "201"), ("keys.get", prefix, "200"),
                       ("keys.list", "", "200"), ("keys.update", prefix, "200"),
                       ("keys.rotate", prefix, "200"), ("keys.revoke", prefix, "200"),
                       ("keys.revoke", prefix, "200"), ("keys.get", prefix, "200")]
    ids = {r["admin"] for r in lines}
    assert len(ids) == 1 and next(iter(ids)).startswith("admin-") and len(next(iter(ids))) == 14
    output = "\n".join(admin_server.stdout_lines + admin_server.stderr_lines)
    for secret in (TOKEN, key, new, key[12:], new[12:]):
        assert secret not in output


def test_refusals(admin_server):
    a = Admin(admin_server)
    prefix = a.ok("POST", "/keys", {"plan": "big"}, status=201)["item"]["prefix"]

    def err(r, status, code, field=None):
        assert r.status_code == status, r.text
        e = r.json()["error"]
        assert e["code"] == code, e
        if field:
            assert e["field"] == field, e
        return e

    err(a.call("POST", "/keys", {}), 400, "VALIDATION_ERROR", "plan")
    assert "unknown plan 'gold'" in err(a.call("POST", "/keys", {"plan": "gold"}), 400,
                                        "VALIDATION_ERROR", "plan")["message"]
    err(a.call("POST", "/keys", {"plan": "big", "colour": "red"}), 400, "VALIDATION_ERROR",
        "colour")
    err(a.call("POST", "/keys", {"plan": "big", "rate_per_minute": 0}), 400, "VALIDATION_ERROR",
        "rate_per_minute")
    err(a.call("POST", "/keys", {"plan": "big", "monthly_quota": "lots"}), 400,
        "VALIDATION_ERROR", "monthly_quota")
    err(a.call("POST", "/keys", {"plan": "big", "webhook_url": "gopher://x"}), 400,
        "VALIDATION_ERROR", "webhook_url")
    err(a.call("POST", "/keys", raw="{", headers={"Content-Type": "application/json"}), 400,
        "INVALID_JSON")
    err(a.call("POST", "/keys", raw='{"plan":"big"}', headers={"Content-Type": "text/plain"}),
        415, "UNSUPPORTED_MEDIA_TYPE")
    err(a.call("POST", f"/keys/{prefix}/rotate", {"grace": "1w"}), 400, "VALIDATION_ERROR",
        "grace")
    err(a.call("GET", "/keys/tc_live_ZZZZ"), 404, "NOT_FOUND")
    err(a.call("PATCH", "/keys/tc_live_ZZZZ", {"plan": "big"}), 404, "NOT_FOUND")
    err(a.call("DELETE", "/keys/tc_live_ZZZZ"), 404, "NOT_FOUND")
    err(a.call("GET", "/nothing"), 404, "NOT_FOUND")
    r = a.call("PUT", "/keys")
    err(r, 405, "METHOD_NOT_ALLOWED")
    assert r.headers["Allow"] == "GET, POST, OPTIONS"
    a.ok("DELETE", f"/keys/{prefix}")
    err(a.call("PATCH", f"/keys/{prefix}", {"label": "x"}), 409, "CONFLICT")
    err(a.call("POST", f"/keys/{prefix}/rotate"), 409, "CONFLICT")


def test_every_path_answers_its_methods_and_is_audited(admin_server):
    """Each admin path answers the methods of its operations; any other is 405 naming them,
    a path it does not have is 404 (a trailing slash included), and every request past the
    token writes its audit line, with the action `none` when there was no operation."""
    a = Admin(admin_server)
    prefix = a.ok("POST", "/keys", {"plan": "big"}, status=201)["item"]["prefix"]
    before = lines_after_audit(admin_server, "keys.create", prefix)
    for method, path, allow in [("PUT", "/keys", "GET, POST, OPTIONS"),
                                ("POST", f"/keys/{prefix}", "GET, PATCH, DELETE, OPTIONS"),
                                ("GET", f"/keys/{prefix}/rotate", "POST, OPTIONS"),
                                ("POST", "/openapi.json", "GET, OPTIONS")]:
        r = a.call(method, path)
        assert r.status_code == 405, (method, path, r.text)
        assert r.json()["error"]["code"] == "METHOD_NOT_ALLOWED"
        assert r.headers["Allow"] == allow, (method, path)
    for path in ["/keys/", f"/keys/{prefix}/", f"/keys/{prefix}/rotate/x", "/keys//rotate",
                 "/nothing"]:
        r = a.call("GET", path)
        assert r.status_code == 404, (path, r.text)
        assert r.json()["error"]["code"] == "NOT_FOUND"
    actions = [(r["action"], r["key_prefix"], r["status"])
               for r in audit_lines(admin_server, before)]
    assert actions == [("none", "", "405"), ("none", prefix, "405"), ("none", prefix, "405"),
                       ("none", "", "405")] + [("none", "", "404")] * 5


def test_own_openapi_document(admin_server):
    a = Admin(admin_server)
    r = a.call("GET", "/openapi.json")
    assert r.status_code == 200
    doc = r.json()
    assert doc["openapi"] == "3.1.0" and doc["info"]["title"] == "toolcalc admin API"
    assert set(doc["paths"]) == {"/admin/v1/keys", "/admin/v1/keys/{prefix}",
                                 "/admin/v1/keys/{prefix}/rotate", "/admin/v1/openapi.json"}
    assert doc["components"]["securitySchemes"]["adminToken"]["scheme"] == "bearer"
    assert requests.get(admin_server.url("/admin/v1/openapi.json"), timeout=10).status_code == 401


def test_token_from_a_file_and_bad_tokens(start_server, tmp_path):
    f = tmp_path / "admin-token"
    f.write_text(TOKEN + "\n")
    s = start_server(data_dir=tmp_path / "file", env={"TOOLCALC_ADMIN_TOKEN_FILE": str(f)})
    assert Admin(s).ok("GET", "/keys") == {"items": []}
    for env, part in [({"TOOLCALC_ADMIN_TOKEN": "short"}, "at least 32 characters"),
                      ({"TOOLCALC_ADMIN_TOKEN": TOKEN, "TOOLCALC_ADMIN_TOKEN_FILE": str(f)},
                       "not both"),
                      ({"TOOLCALC_ADMIN_TOKEN_FILE": str(tmp_path / "missing")}, "cannot read")]:
        with pytest.raises(AssertionError) as e:
            start_server(data_dir=tmp_path / "bad", env=env)
        assert part in str(e.value), e.value

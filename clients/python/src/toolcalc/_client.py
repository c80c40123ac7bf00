"""The toolcalc API over HTTP with urllib: one Client, results with exact numbers, one
exception type, retries that honour Retry-After (docs/clients.md)."""
import email.utils
import http.client
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
from datetime import datetime, timezone

from . import _json
from ._errors import ToolcalcError

__all__ = ["Client", "Result"]

__version__ = "0.1.0"


class Result(dict):
    """The `result` object of a 200 response, as a dict (numbers exact: `int` or
    `decimal.Decimal`). The rest of the answer is kept beside it:

      envelope     the whole parsed body ({"ok": true, "tool": …, "result": …, "meta": …})
      meta         envelope["meta"] (latency_ms, quota_remaining, request_id)
      request_id   meta["request_id"] (= the X-Request-ID header)
      headers      the response headers (case-insensitive: headers["x-tool-version"])
    """

    def __init__(self, envelope, headers):
        super().__init__(envelope.get("result") or {})
        self.envelope = envelope
        self.meta = envelope.get("meta") or {}
        self.request_id = self.meta.get("request_id")
        self.headers = headers

    @property
    def quota_remaining(self):
        return self.meta.get("quota_remaining")


def _retry_after_seconds(value):
    """Retry-After as seconds: delta-seconds or an HTTP-date (RFC 9110 §10.2.3)."""
    if value is None:
        return None
    value = value.strip()
    if value.isdigit():
        return int(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return max(0, int((when - datetime.now(timezone.utc)).total_seconds() + 0.999))


class Client:
    """A client of one toolcalc server.

    base_url         the API's base, with its base path: "http://127.0.0.1:8080/api" under
                     `toolcalc serve --dev`, "https://api.example.com" without one.
    key              the API key (tc_live_…); None for the endpoints that need none.
    timeout          seconds for connecting and for each read of one attempt (urllib's
                     socket timeout); a timeout raises ToolcalcError code TIMEOUT.
    retries          how many times a request that is safe to repeat is sent again after
                     429 or 503 (0 turns retries off).
    max_retry_wait   the longest Retry-After honoured, in seconds: a longer one (a monthly
                     quota resets in days) raises at once instead of waiting.
    sleep            the function that waits between attempts (time.sleep; tests pass a
                     recorder).

    Which requests are repeated: GETs, and the computing POSTs (run, sweep, tolerance,
    solve). The server answers 429 and 503 before it runs or counts anything (docs/api.md),
    so sending one of those again can neither run a tool twice nor charge twice. Nothing is
    repeated after a timeout or a broken connection, where the server may have run the call.
    `request()` repeats a POST only when told that it is idempotent.
    """

    def __init__(self, base_url, key=None, *, timeout=30.0, retries=3, max_retry_wait=60.0,
                 sleep=time.sleep, user_agent=None):
        if not base_url.startswith(("http://", "https://")):
            raise ValueError(f"base_url must be an http:// or https:// URL, not {base_url!r}")
        if retries < 0:
            raise ValueError("retries must be 0 or more")
        self.base_url = base_url.rstrip("/")
        self.key = key
        self.timeout = timeout
        self.retries = retries
        self.max_retry_wait = max_retry_wait
        self._sleep = sleep
        self.user_agent = user_agent or f"toolcalc-python/{__version__}"
        self._endpoints = {}  # slug → /v1/{domain}/{slug}
        self._opener = urllib.request.build_opener()

    def __repr__(self):
        # Never the key itself: a repr ends up in logs and tracebacks.
        key = f"{self.key[:12]}…" if self.key else None
        return f"Client({self.base_url!r}, key={key!r})"

    # --- the endpoints ------------------------------------------------------------------

    def run(self, tool, /, **inputs):
        """Run a tool: `run("voltage-divider", vin_v=5, r1_ohm=1000, r2_ohm=1940)`.
        `tool` is a slug or "domain/slug"; inputs left out take their defaults."""
        return self._compute(self._endpoint(tool), inputs)

    def sweep(self, tool, key, start, stop, points, /, **inputs):
        """Run a tool over `points` values of the numeric input `key` from `start` to
        `stop`; the result is {"key", "points": [{"x", "result"} or {"x", "error"}]}."""
        body = {"inputs": inputs, "vary": {"key": key, "from": start, "to": stop,
                                           "points": points}}
        return self._compute(self._endpoint(tool) + "/sweep", body)

    def tolerance(self, tool, tolerances, /, *, inputs=None, distribution=None, samples=None,
                  seed=None):
        """Tolerance analysis: `tolerances` maps input keys to {"pct": P}, {"abs": A} or
        {"min": a, "max": b}; `inputs` are the nominal values (defaults where left out)."""
        body = {"inputs": dict(inputs or {}), "tolerances": tolerances}
        for name, value in (("distribution", distribution), ("samples", samples),
                            ("seed", seed)):
            if value is not None:
                body[name] = value
        return self._compute(self._endpoint(tool) + "/tolerance", body)

    def solve(self, tool, vary, output, value, /, **inputs):
        """Every value of the numeric input `vary` at which the output `output` equals
        `value`, the other inputs as given (defaults where left out)."""
        body = {"inputs": inputs, "vary": vary, "target": {"output": output, "value": value}}
        return self._compute(self._endpoint(tool) + "/solve", body)

    def schema(self, tool):
        """The tool's description record (inputs and outputs)."""
        return self._get_result(self._endpoint(tool) + "/schema")

    def tool(self, slug):
        """The tool's details: the record plus references and worked examples."""
        details = self._get_result(f"/v1/tools/{urllib.parse.quote(slug, safe='')}")
        self._endpoints[details["tool"]] = details["endpoint"]
        return details

    def tools(self, domain=None, *, page_size=100):
        """Every tool's summary, in catalog order, all pages."""
        items = []
        page = 1
        while True:
            query = {"page": page, "limit": page_size}
            if domain is not None:
                query["domain"] = domain
            listing = self._get_result("/v1/tools?" + urllib.parse.urlencode(query))
            items.extend(listing["items"])
            if page >= listing["pages"]:
                break
            page += 1
        for t in items:
            self._endpoints[t["tool"]] = t["endpoint"]
        return items

    def domains(self):
        """Every domain with its live and target tool counts."""
        return self._get_result("/v1/domains")["items"]

    def me(self):
        """The caller's plan, key prefix and this month's quota."""
        return self._get_result("/v1/me")

    def health(self):
        return self._get_result("/v1/health")

    def openapi(self):
        """The OpenAPI document (not an envelope)."""
        return self.request("GET", "/v1/openapi.json")[1]

    def request(self, method, path, body=None, *, idempotent=None):
        """Any endpoint: returns (Result, parsed body); raises ToolcalcError for non-2xx.
        `idempotent` (default: True for GET and HEAD only) allows retries after 429/503."""
        if idempotent is None:
            idempotent = method in ("GET", "HEAD")
        status, headers, parsed = self._send(method, path, body, idempotent)
        if isinstance(parsed, dict) and "result" in parsed:
            return Result(parsed, headers), parsed
        return None, parsed

    # --- internals ----------------------------------------------------------------------

    def _endpoint(self, tool):
        tool = tool.strip("/")
        if tool.startswith("v1/"):
            tool = tool[3:]
        if "/" in tool:
            return "/v1/" + tool
        if tool not in self._endpoints:
            self.tool(tool)
        return self._endpoints[tool]

    def _compute(self, path, body):
        result, _ = self.request("POST", path, body, idempotent=True)
        return result

    def _get_result(self, path):
        result, _ = self.request("GET", path)
        return dict(result)

    def _send(self, method, path, body, idempotent):
        data = None if body is None else _json.dumps(body).encode("utf-8")
        headers = {"Accept": "application/json", "User-Agent": self.user_agent}
        if data is not None:
            headers["Content-Type"] = "application/json"
        if self.key:
            headers["Authorization"] = f"Bearer {self.key}"
        url = self.base_url + path
        attempt = 0
        while True:
            status, resp_headers, raw = self._attempt(url, method, data, headers)
            if 200 <= status < 300:
                return status, resp_headers, self._parse(raw, status, resp_headers)
            retry_after = _retry_after_seconds(resp_headers.get("Retry-After"))
            if status in (429, 503) and idempotent and attempt < self.retries:
                wait = retry_after if retry_after is not None else min(2 ** attempt, 30)
                if wait <= self.max_retry_wait:
                    self._sleep(wait)
                    attempt += 1
                    continue
            raise self._error(status, resp_headers, raw, retry_after)

    def _attempt(self, url, method, data, headers):
        req = urllib.request.Request(url, data=data, method=method, headers=headers)
        try:
            try:
                with self._opener.open(req, timeout=self.timeout) as resp:
                    return resp.status, resp.headers, resp.read()
            except urllib.error.HTTPError as e:
                with e:
                    return e.code, e.headers, e.read()
        except urllib.error.URLError as e:
            if isinstance(e.reason, (socket.timeout, TimeoutError)):
                raise self._timeout(method, url) from e
            raise ToolcalcError(None, "CONNECTION_ERROR",
                                f"{method} {url}: {e.reason}") from e
        except (socket.timeout, TimeoutError) as e:
            raise self._timeout(method, url) from e
        except (ConnectionError, http.client.HTTPException, OSError) as e:
            raise ToolcalcError(None, "CONNECTION_ERROR", f"{method} {url}: {e}") from e

    def _timeout(self, method, url):
        return ToolcalcError(None, "TIMEOUT",
                             f"{method} {url}: no answer within {self.timeout} s")

    @staticmethod
    def _parse(raw, status, headers):
        try:
            return _json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as e:
            raise ToolcalcError(status, "INVALID_RESPONSE",
                                f"the body is not JSON ({headers.get('Content-Type')})",
                                request_id=headers.get("X-Request-ID")) from e

    @staticmethod
    def _error(status, headers, raw, retry_after):
        body = None
        try:
            body = _json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            pass
        error = body.get("error") if isinstance(body, dict) else None
        request_id = headers.get("X-Request-ID")
        if isinstance(body, dict) and isinstance(body.get("meta"), dict):
            request_id = body["meta"].get("request_id", request_id)
        if isinstance(error, dict) and "code" in error:
            return ToolcalcError(status, error["code"], error.get("message", ""),
                                 field=error.get("field"), request_id=request_id,
                                 retry_after=retry_after, body=body)
        text = raw[:200].decode("utf-8", "replace")
        return ToolcalcError(status, "INVALID_RESPONSE", f"HTTP {status}: {text}",
                             request_id=request_id, retry_after=retry_after, body=body)

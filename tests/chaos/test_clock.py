"""The wall clock stepped under a running server, with Debian's libfaketime: the server's
clock is the real one plus an offset read from a file at every call, which the test
rewrites (FAKETIME_TIMESTAMP_FILE, FAKETIME_NO_CACHE; the monotonic clock is left alone).

Back an hour: the rate window does not start afresh and every X-RateLimit-Reset stays
within the minute after the server's now. Forward across a month boundary: the monthly
quota resets at 00:00 UTC on the 1st, exactly once (back across the boundary the old
month is still used up; forward again the new month keeps its count), `resets_at` and
Retry-After always name the next 1st, and the counts of both months survive a restart.
"""
import calendar
import datetime
import json
import time

import pytest

import chaos

LIBFAKETIME = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1"
QUOTA = 5
RATE = 5

CLOCK_PLANS = f"""
[plans.q5]
rate_per_minute = 1000
monthly_quota = {QUOTA}

[plans.r5]
rate_per_minute = {RATE}
monthly_quota = 1000
"""


class FakeClock:
    """The server's wall clock: real time + offset, the offset in a file it re-reads."""

    def __init__(self, path):
        self.path = path
        self.offset = 0

    def set(self, when):
        """Makes the server's now `when` (an aware datetime) at this instant."""
        self.offset = round(when.timestamp() - time.time())
        self.path.write_text(f"{self.offset:+d}\n")

    def now(self):
        return time.time() + self.offset

    def env(self):
        return {"LD_PRELOAD": LIBFAKETIME, "FAKETIME_TIMESTAMP_FILE": str(self.path),
                "FAKETIME_NO_CACHE": "1", "FAKETIME_DONT_FAKE_MONOTONIC": "1"}


def utc(*args):
    return datetime.datetime(*args, tzinfo=datetime.timezone.utc)


def execute(port, key):
    status, headers, body = chaos.request(port, "POST", chaos.BATTERY, chaos.BATTERY_BODY, key)
    return status, headers, json.loads(body)


def check_rate_headers(headers, clock):
    """X-RateLimit-Reset is the end of the minute the server's clock is in."""
    reset = int(headers["x-ratelimit-reset"])
    now = clock.now()
    assert reset % 60 == 0, reset
    assert now - 2 < reset <= now + 62, f"X-RateLimit-Reset {reset} vs the server's now {now:.0f}"
    return reset


def test_clock_steps_back_an_hour_and_across_a_month_boundary(tmp_path):
    import os
    if not os.path.exists(LIBFAKETIME):
        pytest.fail(f"{LIBFAKETIME} is missing: `scripts/install-deps.sh test` installs faketime")
    cfg = chaos.write_config(tmp_path / "toolcalc.toml", extra="")
    cfg.write_text(cfg.read_text() + CLOCK_PLANS)
    data = tmp_path / "data"
    quota_key = chaos.create_key(data, cfg, "q5", "quota")
    rate_key = chaos.create_key(data, cfg, "r5", "rate")
    clock = FakeClock(tmp_path / "faketime.rc")
    # 40 s before the end of January 2027, at 10 s into a minute.
    clock.set(utc(2027, 1, 31, 23, 59, 10))
    server = chaos.Toolcalc(tmp_path, data, cfg, env=clock.env()).start()
    steps = {}
    try:
        port = server.port
        # January: the quota used up; Retry-After and resets_at name 1 February.
        for i in range(QUOTA):
            status, headers, body = execute(port, quota_key)
            assert status == 200, body
            assert body["meta"]["quota_remaining"] == QUOTA - 1 - i
            check_rate_headers(headers, clock)
        status, headers, body = execute(port, quota_key)
        assert status == 429 and body["error"]["code"] == "QUOTA_EXCEEDED", body
        feb1 = calendar.timegm((2027, 2, 1, 0, 0, 0))
        assert "2027-02-01T00:00:00Z" in body["error"]["message"]
        assert abs(int(headers["retry-after"]) - (feb1 - clock.now())) <= 2, headers
        q = chaos.me(port, quota_key)
        assert (q["period"], q["used"], q["resets_at"]) == ("2027-01", QUOTA,
                                                            "2027-02-01T00:00:00Z"), q
        # The rate key uses its whole window.
        for _ in range(RATE):
            assert execute(port, rate_key)[0] == 200
        status, headers, body = execute(port, rate_key)
        assert status == 429 and body["error"]["code"] == "RATE_LIMITED", body
        window_end = check_rate_headers(headers, clock)

        # Back an hour: no fresh window, no fresh month.
        t0 = time.monotonic()
        clock.set(utc(2027, 1, 31, 22, 59, 20))
        status, headers, body = execute(port, rate_key)
        steps["back an hour: answered in s"] = round(time.monotonic() - t0, 3)
        assert status == 429 and body["error"]["code"] == "RATE_LIMITED", body
        back_reset = check_rate_headers(headers, clock)
        assert back_reset == window_end - 3600, (back_reset, window_end)
        assert 1 <= int(headers["retry-after"]) <= 60
        status, headers, body = execute(port, quota_key)
        assert status == 429 and body["error"]["code"] == "QUOTA_EXCEEDED", body
        check_rate_headers(headers, clock)
        q = chaos.me(port, quota_key)
        assert (q["period"], q["used"]) == ("2027-01", QUOTA), q

        # Forward across the month boundary: the quota resets, once.
        clock.set(utc(2027, 2, 1, 0, 0, 5))
        status, headers, body = execute(port, quota_key)
        assert status == 200, body
        assert body["meta"]["quota_remaining"] == QUOTA - 1
        check_rate_headers(headers, clock)
        q = chaos.me(port, quota_key)
        assert (q["period"], q["used"], q["resets_at"]) == ("2027-02", 1,
                                                            "2027-03-01T00:00:00Z"), q
        # The new minute is a new window for the rate key.
        status, headers, _ = execute(port, rate_key)
        assert status == 200
        assert int(headers["x-ratelimit-remaining"]) == RATE - 1
        check_rate_headers(headers, clock)

        # Back across the boundary: January is still used up.
        clock.set(utc(2027, 1, 31, 23, 59, 50))
        status, headers, body = execute(port, quota_key)
        assert status == 429 and body["error"]["code"] == "QUOTA_EXCEEDED", body
        assert "2027-02-01T00:00:00Z" in body["error"]["message"]
        q = chaos.me(port, quota_key)
        assert (q["period"], q["used"]) == ("2027-01", QUOTA), q

        # Forward again: February keeps its count (not reset a second time).
        clock.set(utc(2027, 2, 1, 0, 0, 20))
        status, _, body = execute(port, quota_key)
        assert status == 200 and body["meta"]["quota_remaining"] == QUOTA - 2, body
        for i in range(QUOTA - 2):
            assert execute(port, quota_key)[0] == 200
        status, headers, body = execute(port, quota_key)
        assert status == 429 and body["error"]["code"] == "QUOTA_EXCEEDED", body
        assert "2027-03-01T00:00:00Z" in body["error"]["message"]
        assert server.stop() == 0

        # Both months' counts are in the store.
        server = chaos.Toolcalc(tmp_path, data, cfg, env=clock.env()).start()
        t0 = time.monotonic()
        q = chaos.me(server.port, quota_key)
        steps["restart: first answer in s"] = round(time.monotonic() - t0, 3)
        assert (q["period"], q["used"]) == ("2027-02", QUOTA), q
        clock.set(utc(2027, 1, 31, 23, 0, 0))
        q = chaos.me(server.port, quota_key)
        assert (q["period"], q["used"]) == ("2027-01", QUOTA), q
        assert server.stop() == 0
    finally:
        server.kill()
    chaos.record("wall clock stepped back 1 h and across a month boundary (faketime)", "sqlite",
                 quota_resets=1, served_beyond_quota=0, **steps)

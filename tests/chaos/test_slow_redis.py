"""A stalled Redis: `DEBUG SLEEP` (Redis itself blocked) and `CLIENT PAUSE` (Redis up,
its clients held). Requests fail closed: 503 STORE_UNAVAILABLE within the configured
timeout_ms (500 ms here), nothing acknowledged is lost, and service resumes by itself once
Redis answers again.
"""
import threading
import time

import pytest

import chaos

TIMEOUT_MS = 500
STALL_S = 2.0


def stall(redis, how):
    c = chaos.Resp(redis.port, timeout=10)
    try:
        if how == "DEBUG SLEEP":
            c.command("DEBUG", "SLEEP", str(STALL_S))  # returns when Redis wakes
        else:
            c.command("CLIENT", "PAUSE", str(int(STALL_S * 1000)), "ALL")
            time.sleep(STALL_S)
    finally:
        c.close()


@pytest.mark.parametrize("how", ["DEBUG SLEEP", "CLIENT PAUSE"])
def test_stalled_redis_fails_closed_within_timeout_then_recovers(tmp_path, redis, how):
    cfg = chaos.write_config(tmp_path / "toolcalc.toml", "redis", redis.url(1))
    data = tmp_path / "data"
    big = chaos.create_key(data, cfg, "big", "big")
    capped = chaos.create_key(data, cfg, "capped", "capped")
    server = chaos.Toolcalc(tmp_path, data, cfg).start()
    try:
        with chaos.Load(lambda: server.port, big, capped, clients=4) as load:
            time.sleep(1.0)
            before = dict(load.big.statuses)
            staller = threading.Thread(target=stall, args=(redis, how))
            t_stall = time.monotonic()
            staller.start()
            staller.join(timeout=STALL_S + 10)
            t_back = time.monotonic()
            during = {s: n - before.get(s, 0) for s, n in load.big.statuses.items()}
            recover_s = chaos.wait_until_served(lambda: server.port, big)
            time.sleep(1.0)
        used_big = chaos.me(server.port, big)["used"]
        used_capped = chaos.keys_list_used(data, cfg, capped)
        assert server.stop() == 0
    finally:
        server.kill()
    assert set(load.big.statuses) <= {200, 503}, load.big.statuses
    assert set(load.big.codes) <= {"STORE_UNAVAILABLE"}, load.big.codes
    assert during.get(503, 0) > 0, f"no 503 while Redis stalled: {during}"
    slowest_503 = load.big.max_latency[503]
    # Fail closed within the timeout: the watchdog closes the connection when the oldest
    # command has waited timeout_ms (src/store/redis_pipeline.cpp); slack for scheduling
    # on a busy machine and the client's own round trip.
    assert slowest_503 < TIMEOUT_MS / 1000 + 0.25, load.big.max_latency
    # A command that timed out was sent, and Redis runs it when it wakes: such a request
    # was answered 503 but may be counted (never more than the 503s).
    lost = chaos.check_counted(load.big, used_big, "big key",
                               may_count=load.big.statuses.get(503, 0))
    chaos.check_counted(load.capped, used_capped, "capped key",
                        may_count=load.capped.statuses.get(503, 0))
    chaos.check_capped(load.capped, used_capped)
    chaos.record(f"Redis stalled {STALL_S:.0f} s ({how})", "redis",
                 acknowledged=load.big.ok, counted=used_big, lost=lost,
                 counted_not_acknowledged=used_big - load.big.ok,
                 stalled_503=during.get(503, 0), slowest_503_s=round(slowest_503, 3),
                 stall_s=round(t_back - t_stall, 2), back_to_served_s=round(recover_s, 3))

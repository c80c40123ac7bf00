"""SIGKILL under load, then a restart on the same data: nothing acknowledged is lost, on
the embedded store (group commit: a 200 is sent only once its count is in a file, the
usage journal or the SQLite WAL) and on Redis (which writes its AOF before it replies);
and with Redis, SIGKILL of redis-server itself, restarted on its AOF.
"""
import signal
import time

import pytest

import chaos

LOAD_S = 2.0


def prepare(tmp_path, store, redis):
    cfg = chaos.write_config(tmp_path / "toolcalc.toml", store,
                             redis.url(1) if redis else None)
    data = tmp_path / "data"
    big = chaos.create_key(data, cfg, "big", "big")
    capped = chaos.create_key(data, cfg, "capped", "capped")
    return cfg, data, big, capped


@pytest.mark.parametrize("store", ["sqlite", "redis"])
def test_sigkill_under_load_loses_no_acknowledged_execution(tmp_path, store, request):
    redis = request.getfixturevalue("redis") if store == "redis" else None
    cfg, data, big, capped = prepare(tmp_path, store, redis)
    server = chaos.Toolcalc(tmp_path, data, cfg).start()
    current = {"port": server.port}
    try:
        with chaos.Load(lambda: current["port"], big, capped) as load:
            time.sleep(LOAD_S)
            t_kill = time.monotonic()
            server.proc.send_signal(signal.SIGKILL)
            server.proc.wait(timeout=10)
            current["port"] = None
            acked_at_kill = load.big.ok
            server = chaos.Toolcalc(tmp_path, data, cfg).start()
            current["port"] = server.port
            recover_s = chaos.wait_until_served(lambda: server.port, big)
            recovered_after_kill = time.monotonic() - t_kill
            time.sleep(0.5)  # load on the restarted server too
        used_big = chaos.me(server.port, big)["used"]
        used_capped = chaos.keys_list_used(data, cfg, capped)
        assert server.stop() == 0
    finally:
        server.kill()
    if store == "sqlite":  # the database itself, read by another process
        assert chaos.keys_list_used(data, cfg, big) == used_big
    lost = chaos.check_counted(load.big, used_big, "big key")
    chaos.check_counted(load.capped, used_capped, "capped key")
    chaos.check_capped(load.capped, used_capped)
    assert load.big.ok > 500 and acked_at_kill > 300, load.big.statuses
    assert load.capped.codes.get("QUOTA_EXCEEDED", 0) > 0, load.capped.codes
    assert set(load.big.statuses) == {200}, load.big.statuses
    chaos.record("SIGKILL of toolcalc under load, restart", store,
                 acknowledged=load.big.ok, counted=used_big, lost=lost,
                 in_flight_unanswered=load.big.unanswered,
                 capped_served=load.capped.ok, capped_counted=used_capped,
                 restart_to_served_s=round(recover_s, 3),
                 kill_to_served_s=round(recovered_after_kill, 3))


def test_redis_sigkill_under_load_then_restart_on_its_aof(tmp_path, redis):
    cfg, data, big, capped = prepare(tmp_path, "redis", redis)
    server = chaos.Toolcalc(tmp_path, data, cfg).start()
    try:
        with chaos.Load(lambda: server.port, big, capped) as load:
            time.sleep(LOAD_S)
            redis.kill()  # SIGKILL
            t_killed = time.monotonic()
            time.sleep(1.0)  # toolcalc without its store: 503, fail closed
            outage = dict(load.big.statuses)
            redis.start()  # same port, same directory: the AOF is replayed
            t_back = time.monotonic()
            recover_s = chaos.wait_until_served(lambda: server.port, big)
            time.sleep(0.5)
        assert server.alive(), server.stderr_text()[-2000:]
        used_big = chaos.me(server.port, big)["used"]
        used_capped = chaos.keys_list_used(data, cfg, capped)
        assert server.stop() == 0
    finally:
        server.kill()
    # A request in flight when Redis died may have been counted (its script ran and went
    # to the AOF) and answered 503: one per client at most.
    clients = len(load.threads)
    lost = chaos.check_counted(load.big, used_big, "big key", may_count=clients)
    chaos.check_counted(load.capped, used_capped, "capped key", may_count=clients)
    chaos.check_capped(load.capped, used_capped)
    assert set(load.big.statuses) <= {200, 503}, load.big.statuses
    assert set(load.big.codes) <= {"STORE_UNAVAILABLE"}, load.big.codes
    assert outage.get(503, 0) > 0, f"no 503 while Redis was down: {outage}"
    assert load.big.max_latency.get(503, 0) < 1.5, load.big.max_latency
    chaos.record("SIGKILL of redis-server under load, restart on its AOF", "redis",
                 acknowledged=load.big.ok, counted=used_big, lost=lost,
                 refused_503=load.big.statuses.get(503, 0),
                 unanswered=load.big.unanswered,
                 capped_served=load.capped.ok, capped_counted=used_capped,
                 redis_down_s=round(t_back - t_killed, 2),
                 redis_back_to_served_s=round(recover_s, 3))

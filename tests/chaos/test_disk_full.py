"""The data directory's file system full, then space returned: a small tmpfs holds the
database and the server's log (stdout and stderr to one file, as `>log 2>&1` would). While
it is full the server keeps answering: an execution whose count cannot reach the WAL is
answered 503 STORE_UNAVAILABLE and not counted, one whose count can is 200 and counted;
log lines that do not fit are dropped whole and counted. When space returns everything
works again, the log says how many lines were dropped, and it never holds a cut line.

Mounting a tmpfs needs root (CI runs as root).
"""
import errno
import json
import os
import re
import subprocess
import time

import pytest

import chaos

FS_SIZE = "64m"
FULL_S = 2.0


@pytest.fixture
def small_fs(tmp_path):
    if os.geteuid() != 0:
        pytest.fail("mounting a tmpfs needs root: run `make chaos` as root (CI does)")
    mnt = tmp_path / "fs"
    mnt.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={FS_SIZE},mode=0755", "tmpfs",
                    str(mnt)], check=True)
    try:
        yield mnt
    finally:
        subprocess.run(["umount", "-l", str(mnt)], check=False)


def fill(path):
    """Writes `path` until the file system refuses a single byte more; returns its size."""
    chunk = b"\0" * 65536
    with open(path, "wb", buffering=0) as f:
        size = len(chunk)
        while size:
            try:
                f.write(chunk[:size])
            except OSError as e:
                assert e.errno == errno.ENOSPC, e
                size //= 2
        return f.tell()


def test_disk_full_then_space_returned(tmp_path, small_fs):
    cfg = chaos.write_config(tmp_path / "toolcalc.toml")
    data = small_fs / "data"
    big = chaos.create_key(data, cfg, "big", "big")
    capped = chaos.create_key(data, cfg, "capped", "capped")
    log = small_fs / "server.log"
    server = chaos.Toolcalc(tmp_path, data, cfg, stdout_path=log, stderr_path=log)
    # One open file description for both streams, as a shell's `>log 2>&1`.
    server.prefix = ["sh", "-c", 'exec "$@" 2>&1', "sh"]
    server.start()
    probes = chaos.Tally()
    filler = small_fs / "filler"
    try:
        with chaos.Load(lambda: server.port, big, capped, clients=4) as load:
            time.sleep(1.0)
            before = dict(load.big.statuses)
            t_full = time.monotonic()
            wal_before = (data / "toolcalc.db-wal").stat().st_size
            filled = fill(filler)
            time.sleep(FULL_S)
            health, _, _ = chaos.request(server.port, "GET", "/v1/health")
            during = {s: n - before.get(s, 0) for s, n in load.big.statuses.items()}
            ok_during = load.big.ok
            filler.unlink()  # space returned
            t_freed = time.monotonic()
            size_at_free = log.stat().st_size
            recover_s = chaos.wait_until_served(lambda: server.port, big, tally=probes)
            while log.stat().st_size == size_at_free:
                assert time.monotonic() - t_freed < 5, "nothing logged 5 s after space returned"
                time.sleep(0.005)
            log_back_s = time.monotonic() - t_freed
            time.sleep(1.0)
        assert server.alive(), "the server died with its disk full"
        used_big = chaos.me(server.port, big)["used"]
        used_capped = chaos.keys_list_used(data, cfg, capped)
        status, _, metrics = chaos.request(server.port, "GET", "/metrics")
        assert status == 200, metrics
        m = re.search(rb"^toolcalc_log_lines_dropped_total (\d+)$", metrics, re.M)
        assert m, metrics[:2000]
        dropped_metric = int(m.group(1))
        assert server.stop() == 0
    finally:
        server.kill()
        if filler.exists():
            filler.unlink()
    assert health == 200
    assert filled > 0

    # Counting: exact, as the server was stopped gracefully at the end.
    assert load.big.unanswered == 0 and probes.unanswered == 0
    lost = chaos.check_counted(load.big, used_big - probes.ok, "big key")
    chaos.check_counted(load.capped, used_capped, "capped key")
    chaos.check_capped(load.capped, used_capped)
    assert used_big == load.big.ok + probes.ok, (used_big, load.big.ok, probes.ok)
    assert chaos.keys_list_used(data, cfg, big) == used_big
    assert set(load.big.statuses) <= {200, 503}, load.big.statuses
    assert set(load.big.codes) <= {"STORE_UNAVAILABLE"}, load.big.codes

    # The log: only whole lines; what was dropped is counted, once writing resumed.
    text = log.read_text(errors="strict")
    assert text.endswith("\n")
    access, dropped, messages = 0, {}, []
    for line in text.splitlines():
        entry = json.loads(line)  # a cut or interleaved line would not parse
        if "level" not in entry:
            assert list(entry) == ["time", "request_id", "key_prefix", "method", "path",
                                   "status", "latency_us"], entry
            access += 1
            continue
        messages.append(entry["msg"])
        if entry["msg"] == "log lines were dropped while the log could not be written":
            dropped[entry["log"]] = dropped.get(entry["log"], 0) + int(entry["dropped_lines"])
    assert any(m.startswith("listening on ") for m in messages), messages[:5]
    assert messages[-1] == "stopped", messages[-3:]
    # Every response was logged or counted as dropped: the load's, the recovery probes',
    # the health check's, the /v1/me call's and the /metrics call's.
    answered = load.big.answered + load.capped.answered + probes.answered + 3
    assert dropped.get("access log", 0) > 0, f"no access-log line dropped: {dropped}"
    assert access + dropped["access log"] == answered, (access, dropped, answered)
    # The metric counts every line dropped before it was read (none were after).
    assert dropped_metric == sum(dropped.values()), (dropped_metric, dropped)
    chaos.record("data directory's file system full, then freed", "sqlite",
                 acknowledged=load.big.ok, counted=used_big, lost=lost,
                 full_200=during.get(200, 0), full_503=during.get(503, 0),
                 access_lines=access, access_lines_dropped=dropped.get("access log", 0),
                 operational_lines_dropped=dropped.get("operational log", 0),
                 freed_to_served_s=round(recover_s, 3), freed_to_logging_s=round(log_back_s, 3),
                 full_for_s=round(t_freed - t_full, 2), ok_during_test=ok_during,
                 wal_bytes_when_filled=wal_before)

"""A store that held data never starts empty in silence: a data directory used before whose
database is missing, empty or unreadable stops `serve` and `toolcalc keys` with an error
naming what was found (and the file is left as it is); `--new-store` creates a new store on
purpose; a damaged usage-journal record is skipped and reported while the records around it
are taken (docs/operations.md, "The data directory"; docs/reliability.md, "Counts on disk").
"""
import hashlib
import json
import signal
import struct
import subprocess
import time

import pytest
import requests

from support import (BATTERY, BATTERY_DEFAULTS, BIN, CONFIG_TOML, USE_REDIS, Server,
                     create_key, run_cli)

pytestmark = pytest.mark.skipif(
    USE_REDIS, reason="the embedded store's files; the fleet's ledger is checked the same "
                      "way (tests/unit/store/store_directory_test.cpp)")

RECORD = 40  # bytes of a usage-journal record (store/usage_journal.hpp)


def execute(server, key):
    return requests.post(server.url(BATTERY), json=BATTERY_DEFAULTS,
                         headers={"Authorization": f"Bearer {key}"}, timeout=10)


def used(server, key):
    r = requests.get(server.url("/v1/me"), headers={"Authorization": f"Bearer {key}"},
                     timeout=10)
    assert r.status_code == 200, r.text
    return r.json()["result"]["quota"]["used"]


def serve_refused(data, config, *flags):
    """`toolcalc serve` expected to stop at start: its one error line."""
    r = subprocess.run([BIN, "serve", "--listen", "127.0.0.1:0", "--data", str(data),
                        "--config", str(config), "--threads", "1", *flags],
                       capture_output=True, text=True, timeout=30)
    assert r.returncode == 1, (r.returncode, r.stderr)
    errors = [json.loads(x) for x in r.stderr.splitlines() if '"level":"error"' in x]
    assert len(errors) == 1 and errors[0]["msg"] == "cannot serve", r.stderr
    return errors[0]["error"]


def used_directory(tmp_path, config):
    """A data directory a server used and stopped: a key, one execution counted."""
    data = tmp_path / "data"
    key = create_key(data, config, "big")
    server = Server(data, config, threads=1).start()
    try:
        assert execute(server, key).status_code == 200
    finally:
        assert server.stop() == 0
    return data, key


def test_a_first_start_in_an_empty_directory_creates_the_store(start_server, tmp_path,
                                                                config_file):
    data = tmp_path / "fresh"
    server = start_server(data)
    assert server.wait_for_log(r"^new store created$", timeout=5), server.stderr_lines
    marker = (data / "toolcalc.store-id").read_text()
    assert "\nid=" in marker and "\ncreated=" in marker, marker
    # `toolcalc keys` beside the server checks the directory too, and leaves the server's
    # database as it was: the server sees each key it creates (within the 1 s key refresh;
    # 10 s allowed here), and the write-ahead log stays while the server has it open.
    for _ in range(3):
        key = create_key(data, config_file, "big")
        deadline = time.monotonic() + 10
        while execute(server, key).status_code != 200:
            assert time.monotonic() < deadline, "a key created beside the server was not seen"
            time.sleep(0.1)
        assert (data / "toolcalc.db-wal").exists(), list(data.iterdir())


def test_a_missing_database_in_a_used_directory_is_refused_naming_what_was_found(
        tmp_path, config_file):
    data, key = used_directory(tmp_path, config_file)
    (data / "toolcalc.db").unlink()
    error = serve_refused(data, config_file)
    assert "found: toolcalc.store-id, usage.journal)" in error, error
    assert "toolcalc.db is missing" in error and "--new-store" in error, error
    assert not (data / "toolcalc.db").exists()
    # `toolcalc keys` opens the store too: the same refusal.
    r = run_cli("keys", "list", "--data", str(data), "--config", str(config_file), check=False)
    assert r.returncode == 1 and "toolcalc.db is missing" in r.stderr, r.stderr
    assert not (data / "toolcalc.db").exists()


@pytest.mark.parametrize("size, why", [
    (0, "its database toolcalc.db is empty (0 bytes): refusing to start with an empty store"),
    (4096, "cannot be read as a toolcalc database (database disk image is malformed)"),
])
def test_a_truncated_database_is_refused_and_left_as_it_is(tmp_path, config_file, size, why):
    data, key = used_directory(tmp_path, config_file)
    db = data / "toolcalc.db"
    with open(db, "r+b") as f:
        f.truncate(size)  # nothing, or its first page only
    digest = hashlib.sha256(db.read_bytes()).hexdigest()
    error = serve_refused(data, config_file)
    assert why in error and str(data) in error, error
    assert hashlib.sha256(db.read_bytes()).hexdigest() == digest
    assert db.stat().st_size == size
    r = run_cli("keys", "list", "--data", str(data), "--config", str(config_file), check=False)
    assert r.returncode == 1 and why in r.stderr, r.stderr
    assert hashlib.sha256(db.read_bytes()).hexdigest() == digest


def test_new_store_creates_an_empty_store_on_purpose_once(tmp_path, config_file):
    data, key = used_directory(tmp_path, config_file)
    (data / "toolcalc.db").unlink()
    old_marker = (data / "toolcalc.store-id").read_text()
    server = Server(data, config_file, threads=1, args=["--new-store"]).start()
    try:
        m = server.wait_for_log(r"^new, empty store created on purpose", timeout=5)
        assert m, server.stderr_lines
        warning = next(r for r in server.log_records() if r["msg"].startswith("new, empty"))
        assert warning["level"] == "warn" and "usage.journal" in warning["earlier_use"], warning
        assert execute(server, key).status_code == 401  # the old store's key is gone
    finally:
        assert server.stop() == 0
    assert (data / "toolcalc.store-id").read_text() != old_marker
    assert [p.name for p in data.glob("usage.journal.replaced-*")], list(data.iterdir())
    # For one start: with a store present, --new-store is refused; without it, it serves.
    assert "holds a store already" in serve_refused(data, config_file, "--new-store")
    server = Server(data, config_file, threads=1).start()
    assert server.stop() == 0


def journal_records(path):
    """The journal's run: (offset, seq, key id, units) of each record up to the first zeros."""
    blob = path.read_bytes()
    out = []
    for offset in range(0, len(blob) - RECORD + 1, RECORD):
        record = blob[offset:offset + RECORD]
        if record == bytes(RECORD):
            break
        seq, key_id, units = struct.unpack_from("<QqQ", record)
        out.append((offset, seq, key_id, units))
    return out


def test_a_damaged_journal_record_is_skipped_and_reported_and_the_others_taken(tmp_path):
    # Groups stay in the journal: no flush moves them into the database during the test.
    config = tmp_path / "toolcalc.toml"
    config.write_text(CONFIG_TOML + "\n[store]\nflush_interval_ms = 60000\n")
    data = tmp_path / "data"
    key = create_key(data, config, "big")
    server = Server(data, config, threads=1).start()
    try:
        for _ in range(40):  # one after another: a group (a journal record) each
            assert execute(server, key).status_code == 200
    finally:
        server.proc.send_signal(signal.SIGKILL)
        server.proc.wait(timeout=10)
    records = journal_records(data / "usage.journal")
    assert [r[1] for r in records] == list(range(1, 41)), records
    assert all(r[3] == 1 for r in records), records
    twentieth = records[19][0]
    with open(data / "usage.journal", "r+b") as f:
        f.seek(twentieth + 16)  # a bit of its units
        units = f.read(1)
        f.seek(twentieth + 16)
        f.write(bytes([units[0] ^ 0x04]))
    server = Server(data, config, threads=1).start()
    try:
        assert used(server, key) == 39
        damaged = [r for r in server.log_records() if "skipped" in r]
        assert len(damaged) == 1, server.stderr_lines
        assert damaged[0]["level"] == "error", damaged
        assert damaged[0]["skipped"] == "1" and damaged[0]["offsets"] == str(twentieth), damaged
        metrics = requests.get(server.url("/metrics"), timeout=10).text
        assert "\ntoolcalc_usage_journal_records_damaged_total 1\n" in metrics
    finally:
        assert server.stop() == 0

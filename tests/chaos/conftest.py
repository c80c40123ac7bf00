"""Fixtures of the chaos suite (`make chaos`): a working directory per test, a fresh
redis-server where a test runs on the shared store, and the figures file emptied once per
run. Run: TOOLCALC_BIN=/abs/path/build/toolcalc /usr/bin/python3 -m pytest -q -s tests/chaos
"""
import os

import pytest

import chaos


def pytest_report_header(config):
    return [f"toolcalc binary: {chaos.BIN}", f"figures: {chaos.FIGURES}"]


def pytest_sessionstart(session):
    if not os.access(chaos.BIN, os.X_OK):
        pytest.exit(f"toolcalc binary not found or not executable: {chaos.BIN}", returncode=2)
    chaos.FIGURES.parent.mkdir(parents=True, exist_ok=True)
    chaos.FIGURES.write_text("")


@pytest.fixture
def redis(tmp_path):
    """A redis-server of its own (AOF on, appendfsync everysec, as deploy/redis.conf), in
    the test's directory, so that it can be killed and restarted on its AOF."""
    # DEBUG SLEEP (test_slow_redis.py) is refused unless enabled, from loopback here.
    server = chaos.RedisServer(tmp_path / "redis", ["--enable-debug-command", "local"])
    (tmp_path / "redis").mkdir()
    server.start()
    try:
        yield server
    finally:
        server.cleanup()

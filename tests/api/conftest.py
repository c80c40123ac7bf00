"""Fixtures of the black-box API suite: one shared server for the whole session, plus a
factory for dedicated servers where a test needs fresh state or its own process.

Run: TOOLCALC_BIN=/abs/path/build/toolcalc /usr/bin/python3 -m pytest -q tests/api
"""
import os

import pytest

from support import (BIN, BOGUS_KEY, CONFIG_TOML, KEYS_AVAILABLE, NO_KEYS_REASON,
                     SESSION_KEYS, Client, Server, create_key)


def pytest_report_header(config):
    return [f"toolcalc binary: {BIN}",
            f"keys CLI: {'available' if KEYS_AVAILABLE else 'NOT available - ' + NO_KEYS_REASON}"]


def pytest_sessionstart(session):
    if not os.access(BIN, os.X_OK):
        pytest.exit(f"toolcalc binary not found or not executable: {BIN} "
                    f"(set TOOLCALC_BIN or build it first)", returncode=2)


@pytest.fixture(scope="session")
def config_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("config") / "toolcalc.toml"
    path.write_text(CONFIG_TOML)
    return path


@pytest.fixture(scope="session")
def shared_data_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("data")


@pytest.fixture(scope="session")
def api(shared_data_dir, config_file):
    """The shared server: 2 threads, temp data dir, small plans; stopped with SIGTERM."""
    if KEYS_AVAILABLE:
        keys = {label: create_key(shared_data_dir, config_file, plan, label=f"{label} key")
                for label, plan in SESSION_KEYS.items()}
    else:
        keys = {label: BOGUS_KEY for label in SESSION_KEYS}
    server = Server(shared_data_dir, config_file).start()
    client = Client(server, keys, accounts=KEYS_AVAILABLE)
    client.data_dir = shared_data_dir
    client.config = config_file
    try:
        yield client
    finally:
        client.session.close()
        rc = server.stop(timeout=15)
    assert rc == 0, f"shared server exited {rc} after SIGTERM; stderr: {server.stderr_lines}"
    assert server.wait_for_line(r"toolcalc stopped", timeout=2), server.stdout_lines


@pytest.fixture
def start_server(tmp_path, config_file):
    """Factory for dedicated servers; any left running are killed at teardown."""
    started = []

    def start(data_dir=None, config=config_file, **kw):
        s = Server(data_dir or (tmp_path / f"data{len(started)}"), config, **kw)
        started.append(s)
        return s.start()

    yield start
    for s in started:
        s.kill()


@pytest.fixture(scope="session")
def service_version(api):
    return api.service_version()

"""Fixtures of the black-box API suite: one shared server for the whole session, plus a
factory for dedicated servers where a test needs fresh state or its own process.

Run: TOOLCALC_BIN=/abs/path/build/toolcalc /usr/bin/python3 -m pytest -q tests/api
In parallel (what `make api-test` does): -n 4 --dist loadfile -m 'not alone', then -m alone.
Under pytest-xdist every worker is its own session: its own shared server, redis-server,
ports (kernel-chosen) and temporary directories; --dist loadfile keeps a file's tests in one
worker, in order, as they share that worker's server and keys.
"""
import os

import pytest

import contract
import support
from redis_server import RedisServer
from support import (BIN, BOGUS_KEY, CONFIG_TOML, KEYS_AVAILABLE, NO_KEYS_REASON,
                     SESSION_KEYS, Client, Server, create_key)


def pytest_report_header(config):
    return [f"toolcalc binary: {BIN}", f"store: {support.STORE}",
            f"keys CLI: {'available' if KEYS_AVAILABLE else 'NOT available - ' + NO_KEYS_REASON}"]


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "load: the 30 s wrk load run (test_load.py); skip with SKIP_LOAD=1 or "
                   "-m 'not load', shorten with LOAD_SECONDS=N")
    config.addinivalue_line(
        "markers", "alone: needs the machine to itself (CPU-bound, or its bound is measured): "
                   "`make api-test` runs the others in parallel (pytest -n, -m 'not alone'), "
                   "then these one at a time (-m alone)")


def pytest_collection_modifyitems(config, items):
    if not contract.ENABLED:
        return
    for item in items:
        module = item.fspath.basename
        if module in contract.SKIPPED_MODULES:
            item.add_marker(pytest.mark.skip(reason="contract mode: " +
                                             contract.SKIPPED_MODULES[module]))
        elif "api" not in item.fixturenames:
            item.add_marker(pytest.mark.skip(reason=contract.NOT_SHARED_REASON))


def pytest_sessionfinish(session):
    """Under pytest-xdist, a worker hands its contract figures to the controller, which
    prints the summary below."""
    workeroutput = getattr(session.config, "workeroutput", None)
    if contract.ENABLED and workeroutput is not None:
        s = contract.Stats
        workeroutput["contract"] = {"relayed": s.relayed, "refused": s.refused,
                                    "raw_direct": s.raw_direct, "refused_by": s.refused_by,
                                    "violations": s.violations}


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    """pytest-xdist's controller: a worker has finished; add its contract figures."""
    figures = getattr(node, "workeroutput", {}).get("contract")
    if not figures:
        return
    s = contract.Stats
    s.relayed += figures["relayed"]
    s.refused += figures["refused"]
    s.raw_direct += figures["raw_direct"]
    for reason, count in figures["refused_by"].items():
        s.refused_by[reason] = s.refused_by.get(reason, 0) + count
    s.violations.extend(tuple(v) for v in figures["violations"])


def pytest_terminal_summary(terminalreporter):
    if contract.ENABLED:
        s = contract.Stats
        terminalreporter.write_line(
            f"contract (Prism --errors): {s.relayed} responses checked against the OpenAPI "
            f"document, {s.refused} requests outside it answered directly, {s.raw_direct} "
            f"raw-byte requests sent directly, {len(s.violations)} violations")
        if s.refused_by:
            terminalreporter.write_line("  outside the document, by Prism's reason: " + ", ".join(
                f"{k} {v}" for k, v in sorted(s.refused_by.items())))
        for what, detail in s.violations:
            terminalreporter.write_line(f"  violation: {what}: {str(detail)[:1000]}")


def pytest_sessionstart(session):
    if not os.access(BIN, os.X_OK):
        pytest.exit(f"toolcalc binary not found or not executable: {BIN} "
                    f"(set TOOLCALC_BIN or build it first)", returncode=2)


@pytest.fixture(scope="session", autouse=True)
def redis_backend():
    """Under TOOLCALC_STORE=redis: the session's redis-server (AOF on), stopped after."""
    if not support.USE_REDIS:
        yield None
        return
    server = RedisServer().start()
    support.REDIS = server
    try:
        yield server
    finally:
        support.REDIS = None
        server.cleanup()


@pytest.fixture(scope="session")
def config_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("config") / "toolcalc.toml"
    path.write_text(CONFIG_TOML)
    return path


@pytest.fixture(scope="session")
def shared_data_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("data")


@pytest.fixture(scope="session")
def api(redis_backend, shared_data_dir, config_file):
    """The shared server: 2 threads, temp data dir, small plans; stopped with SIGTERM."""
    if KEYS_AVAILABLE:
        keys = {label: create_key(shared_data_dir, config_file, plan, label=f"{label} key")
                for label, plan in SESSION_KEYS.items()}
    else:
        keys = {label: BOGUS_KEY for label in SESSION_KEYS}
    server = Server(shared_data_dir, config_file).start()
    proxy = None
    if contract.ENABLED:  # the same suite through Prism
        try:
            proxy = contract.PrismProxy(server, shared_data_dir.parent / "contract").start()
        except BaseException:
            server.kill()
            raise
    client = Client(server, keys, accounts=KEYS_AVAILABLE, proxy=proxy)
    client.data_dir = shared_data_dir
    client.config = config_file
    try:
        yield client
    finally:
        client.session.close()
        if proxy:
            proxy.stop()
        rc = server.stop(timeout=15)
    assert rc == 0, f"shared server exited {rc} after SIGTERM; stderr: {server.stderr_lines}"
    assert server.wait_for_log(r"^stopped$", timeout=2), server.stderr_lines


@pytest.fixture
def start_server(redis_backend, tmp_path, config_file):
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

"""Fixtures of the Python client's tests: a real `toolcalc serve` under the base path /api
with keys on small plans, started with the black-box suite's helpers (tests/api/support.py).

Run (make client-test): the client is installed into a fresh venv first, and these tests
run with that venv's python, so they exercise the installed package, not the source tree.
"""
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO / "tests" / "api"))

import support  # noqa: E402  (tests/api/support.py)

CONFIG = """\
[plans.big]
rate_per_minute = 100000
monthly_quota = 1000000

[plans.tiny]
rate_per_minute = 2
monthly_quota = 1000

[plans.quota3]
rate_per_minute = 1000
monthly_quota = 3

[plans.anonymous]
rate_per_minute = 100000
"""

def pytest_report_header(config):
    return [f"toolcalc binary: {support.BIN}"]



@pytest.fixture(scope="session")
def server(tmp_path_factory):
    root = tmp_path_factory.mktemp("client")
    config = root / "toolcalc.toml"
    config.write_text(CONFIG)
    data = root / "data"
    keys = {plan: support.create_key(data, config, plan, label=f"python client {plan}")
            for plan in ("big", "tiny", "quota3")}
    s = support.Server(data, config, base_path="/api").start()
    s.keys = keys
    try:
        yield s
    finally:
        rc = s.stop()
    assert rc == 0, s.stderr_lines

"""The Debian package (`make package`, docs/deploy.md "Debian package") on this machine as
on a clean Debian 12: its contents and derived Depends, then `dpkg -i` + `apt-get -f
install`, the installed binary started as the `toolcalc` user with the packaged config,
called over HTTP, stopped, and the package purged. CI runs as root on a throwaway machine;
elsewhere the commands go through sudo, as scripts/install-deps.sh does.

Run: TOOLCALC_DEB=build/toolcalc_0.1.0_amd64.deb /usr/bin/python3 -m pytest -q tests/package
"""
import json
import os
import re
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest
import requests

REPO = Path(__file__).resolve().parents[2]
DEB = Path(os.environ.get("TOOLCALC_DEB", ""))
BUILD_DIR = Path(os.environ.get("TOOLCALC_BUILD_DIR", REPO / "build")).resolve()
SUDO = [] if os.geteuid() == 0 else ["sudo"]
# As the unit runs it: setpriv execs (no child process), so a signal reaches the server.
AS_TOOLCALC = ["setpriv", "--reuid=toolcalc", "--regid=toolcalc", "--init-groups"]
BATTERY = {"battery_capacity_mah": 2000, "sleep_current_ua": 10, "wake_current_ma": 80,
           "wake_duration_ms": 250, "cycle_period_s": 60, "battery_efficiency_pct": 80}


def run(*args, check=True, **kw):
    r = subprocess.run([*args], capture_output=True, text=True, timeout=300, **kw)
    if check and r.returncode != 0:
        raise AssertionError(f"{' '.join(args)} exited {r.returncode}\n{r.stdout}\n{r.stderr}")
    return r


def root(*args, **kw):
    return run(*SUDO, *args, **kw)


def installed():
    r = run("dpkg-query", "-W", "-f=${Status}", "toolcalc", check=False)
    return "installed" in r.stdout and "not-installed" not in r.stdout


@pytest.fixture(scope="module")
def deb():
    assert DEB.is_file(), f"no package at TOOLCALC_DEB={DEB!s} (run `make package`)"
    return DEB


@pytest.fixture(scope="module")
def install(deb):
    if installed():  # a run that died before its purge
        root("dpkg", "--purge", "toolcalc")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    if root("dpkg", "-i", str(deb), check=False, env=env).returncode != 0:
        root("apt-get", "-f", "install", "-y", "-q", env=env)  # pulls what Depends lists
    root("apt-get", "-f", "install", "-y", "-q", env=env)
    assert installed()
    try:
        yield
    finally:
        root("dpkg", "--purge", "toolcalc")


def test_contents_and_derived_depends(deb, tmp_path):
    listing = run("dpkg-deb", "-c", str(deb)).stdout
    paths = {line.split()[-1].lstrip(".") for line in listing.splitlines()}
    for p in ["/usr/bin/toolcalc", "/usr/share/toolcalc/catalog/domains.toml",
              "/usr/share/toolcalc/catalog/llm-pricing.toml", "/etc/toolcalc/toolcalc.toml",
              "/lib/systemd/system/toolcalc.service", "/usr/share/doc/toolcalc/operations.md",
              "/usr/share/doc/toolcalc/deploy.md"]:
        assert p in paths, f"{p} not in the package:\n{listing}"
    info = run("dpkg-deb", "-f", str(deb), "Package", "Version", "Depends").stdout
    depends = re.search(r"^Depends: (.*)$", info, re.M).group(1)
    names = {d.strip().split()[0] for d in depends.split(",")}
    # derived by dpkg-shlibdeps from the binary's libraries, plus the maintainer scripts' adduser
    assert {"libc6", "libstdc++6", "libssl3", "libsqlite3-0", "libhiredis0.14", "libfmt9",
            "libtomlplusplus3", "libboost-json1.81.0", "libboost-url1.81.0",
            "adduser"} <= names, depends
    conffiles = run("dpkg-deb", "-I", str(deb), "conffiles").stdout.split()
    assert conffiles == ["/etc/toolcalc/toolcalc.toml"]

    # No installed file names the source or the build tree (nor carries debug information).
    root_dir = tmp_path / "root"
    run("dpkg-deb", "-x", str(deb), str(root_dir))
    control_dir = tmp_path / "control"
    run("dpkg-deb", "-e", str(deb), str(control_dir))
    for needle in {str(REPO), str(BUILD_DIR), str(REPO.resolve())}:
        r = run("grep", "-rlaF", needle, str(root_dir), str(control_dir), check=False)
        assert r.stdout == "", f"files naming {needle}:\n{r.stdout}"
    sections = run("readelf", "-S", str(root_dir / "usr/bin/toolcalc")).stdout
    assert ".debug_info" not in sections, "the packaged binary is not stripped"


def test_installed_service_serves_and_purges(install, tmp_path):
    assert re.match(r"toolcalc:x:\d+:\d+:", run("getent", "passwd", "toolcalc").stdout)
    uid = int(run("id", "-u", "toolcalc").stdout)
    assert uid < 1000, "toolcalc must be a system user"
    stat = os.stat("/var/lib/toolcalc")
    assert stat.st_uid == uid and oct(stat.st_mode & 0o777) == "0o750"
    config = Path("/etc/toolcalc/toolcalc.toml")
    assert oct(os.stat(config).st_mode & 0o777) == "0o640"
    unit = Path("/lib/systemd/system/toolcalc.service").read_text()
    assert "ExecStart=/usr/bin/toolcalc serve --config /etc/toolcalc/toolcalc.toml" in unit
    assert "User=toolcalc" in unit

    # The packaged binary finds its catalog without being told.
    tools = root(*AS_TOOLCALC, "/usr/bin/toolcalc", "tools").stdout
    assert "POST /v1/iot-mcu/mcu-deep-sleep-battery" in tools

    # As systemd would run it: the toolcalc user, the packaged config, in /var/lib/toolcalc;
    # only the port comes from the environment (a free one instead of 8080).
    key = root(*AS_TOOLCALC, "/usr/bin/toolcalc", "keys", "create",
               "--plan", "pro", "--config", str(config), cwd="/var/lib/toolcalc").stdout.strip()
    assert re.fullmatch(r"tc_live_[A-Za-z0-9]{32}", key), key
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([*SUDO, *AS_TOOLCALC, "env",
                             f"TOOLCALC_SERVER_LISTEN=127.0.0.1:{port}", "/usr/bin/toolcalc",
                             "serve", "--config", str(config)], cwd="/var/lib/toolcalc",
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 20
        while True:
            try:
                health = requests.get(base + "/v1/health", timeout=2)
                break
            except requests.ConnectionError:
                assert proc.poll() is None, proc.communicate()[1]
                assert time.monotonic() < deadline, "the installed server did not start"
                time.sleep(0.1)
        assert health.status_code == 200
        assert requests.get(base + "/v1/ready", timeout=5).status_code == 200
        r = requests.post(base + "/v1/iot-mcu/mcu-deep-sleep-battery", json=BATTERY,
                          headers={"Authorization": f"Bearer {key}"}, timeout=10)
        assert r.status_code == 200, r.text
        assert r.json()["result"]["lifetime_days"] == 194.2
        assert "toolcalc_requests_total" in requests.get(base + "/metrics", timeout=5).text
    finally:
        if SUDO:
            root("kill", str(proc.pid), check=False)
        else:
            os.kill(proc.pid, signal.SIGTERM)  # setpriv and env exec: this is the server
        _, err = proc.communicate(timeout=20)
    assert proc.returncode == 0, err
    records = [json.loads(line) for line in err.splitlines()]
    listening = [r for r in records if r["msg"].startswith("listening on")]
    assert listening and listening[0]["catalog"] == "/usr/share/toolcalc/catalog", records
    assert "data /var/lib/toolcalc" in listening[0]["store"]
    assert records[-1]["msg"] == "stopped"
    assert Path("/var/lib/toolcalc/toolcalc.db").is_file()

    root("dpkg", "--purge", "toolcalc")
    assert not installed()
    for gone in ["/usr/bin/toolcalc", "/etc/toolcalc", "/var/lib/toolcalc",
                 "/usr/share/toolcalc", "/lib/systemd/system/toolcalc.service"]:
        assert not Path(gone).exists(), f"{gone} left after purge"

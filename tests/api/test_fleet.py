"""The fleet: three toolcalc instances on one Redis (AOF on,
appendfsync everysec, as deploy/redis.conf), behind nginx (round robin), all started and stopped here. Runs under
`make api-test-redis` (TOOLCALC_STORE=redis).

- a key on L requests per minute gets exactly L of N > L concurrent requests spread over
  the fleet (the rest 429 RATE_LIMITED);
- a monthly quota is exact fleet-wide;
- limits large enough to be leased to server threads (LEASED) are never exceeded, a key is
  served at least 90 % of one before a refusal, and once every thread has served what it
  holds, exactly the limit;
- Redis unreachable: counted endpoints answer 503 STORE_UNAVAILABLE (an instance still
  serves executions from the units Redis leased it before, counted in its usage ledger),
  health stays 200, and the fleet recovers by itself when Redis is back, every execution
  counted once;
- a Redis restart (SIGTERM or SIGKILL, then start on the same AOF) loses no acknowledged
  count;
- kill -9 of one instance during load loses no acknowledged count: what it had not shipped
  from its ledger is shipped when it starts again on its data directory.

Executions served from leases reach Redis's count when their instance ships its ledger
(every 10 ms by default): the counts are read once they have (Fleet.used_reaching).
"""
import concurrent.futures
import os
import shutil
import subprocess
import threading
import time

import pytest
import requests

from redis_server import RedisServer, free_port
import support
from support import (REPO, BATTERY, BATTERY_DEFAULTS, KEYS_AVAILABLE, NO_KEYS_REASON, USE_REDIS,
                     Server, check_error, run_cli)

pytestmark = [
    pytest.mark.skipif(not USE_REDIS, reason="the fleet shares a Redis store: runs under "
                                             "`make api-test-redis` (TOOLCALC_STORE=redis)"),
    pytest.mark.skipif(not KEYS_AVAILABLE, reason=NO_KEYS_REASON),
]

INSTANCES = 3
RATE_L = 30
QUOTA_Q = 40
# Limits from this size up are served from leases each server thread takes of them
# (src/store/counter_leases.hpp): a key is refused at 90 % of such a limit at the earliest.
LEASED = 1000

FLEET_TOML = """\
[server]
access_log = true

[store]
backend = "redis"
url = "{url}"

[plans.fleetrate]
rate_per_minute = {rate}
monthly_quota = 1000000

[plans.fleetquota]
rate_per_minute = 1000000
monthly_quota = {quota}

[plans.fleetleaserate]
rate_per_minute = {leased}
monthly_quota = 1000000

[plans.fleetleasequota]
rate_per_minute = 1000000
monthly_quota = {leased}

[plans.fleetbig]
rate_per_minute = 1000000
monthly_quota = 1000000

[plans.anonymous]
rate_per_minute = 1000000
"""


class Nginx:
    """nginx (Debian nginx-light) as a round-robin load balancer on a free loopback port,
    with a generated config in its own directory, as bench/bench.py runs it."""

    def __init__(self, directory, upstream_ports):
        self.dir = directory
        self.dir.mkdir(parents=True, exist_ok=True)
        self.upstream_ports = upstream_ports
        self.port = free_port()
        self.proc = None

    def config(self):
        d = self.dir
        servers = "".join(f"    server 127.0.0.1:{p};\n" for p in self.upstream_ports)
        return (
            "worker_processes 1;\n"
            "daemon off;\n"
            f"pid {d}/nginx.pid;\n"
            f"error_log {d}/error.log warn;\n"
            "events { worker_connections 1024; }\n"
            "http {\n"
            "  access_log off;\n"
            f"  client_body_temp_path {d}/body;\n"
            f"  proxy_temp_path {d}/proxy;\n"
            f"  fastcgi_temp_path {d}/fastcgi;\n"
            f"  uwsgi_temp_path {d}/uwsgi;\n"
            f"  scgi_temp_path {d}/scgi;\n"
            "  upstream toolcalc {\n" + servers + "    keepalive 16;\n  }\n"
            "  server {\n"
            f"    listen 127.0.0.1:{self.port};\n"
            "    location / {\n"
            "      proxy_pass http://toolcalc;\n"
            "      proxy_http_version 1.1;\n"
            "      proxy_set_header Connection \"\";\n"
            # A request is passed to the next instance only when it could not be sent to
            # one (connection refused): nginx never resends a POST that an instance may
            # have received, so a kill -9 cannot make a request count twice.
            "      proxy_next_upstream error timeout;\n"
            "    }\n"
            "  }\n"
            "}\n")

    def start(self):
        nginx = shutil.which("nginx") or "/usr/sbin/nginx"
        if not os.access(nginx, os.X_OK):  # the test setup installs what it needs
            subprocess.run([str(REPO / "scripts" / "install-deps.sh"), "test"], check=True)
        conf = self.dir / "nginx.conf"
        conf.write_text(self.config())
        self.proc = subprocess.Popen([nginx, "-p", str(self.dir), "-c", str(conf), "-e",
                                      str(self.dir / "error.log")],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"nginx exited: {self.proc.stderr.read().decode()}")
            try:
                requests.get(f"http://127.0.0.1:{self.port}/v1/health", timeout=2)
                return self
            except requests.ConnectionError:
                time.sleep(0.05)
        raise RuntimeError("nginx did not start within 15 s")

    def url(self, path):
        return f"http://127.0.0.1:{self.port}{path}"

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


class Fleet:
    def __init__(self, tmp):
        self.tmp = tmp
        (tmp / "redis").mkdir()
        self.redis = RedisServer(tmp / "redis").start()
        self.config = tmp / "fleet.toml"
        self.config.write_text(FLEET_TOML.format(url=self.redis.url(0), rate=RATE_L,
                                                 quota=QUOTA_Q, leased=LEASED))
        self.instances = [Server(tmp / f"data{i}", self.config, own_store=True).start()
                          for i in range(INSTANCES)]
        self.nginx = Nginx(tmp / "nginx", [s.port for s in self.instances]).start()
        self.local = threading.local()

    def create_key(self, plan):
        key = run_cli("keys", "create", "--plan", plan, "--config", str(self.config)).stdout
        return key.strip()

    def used(self, key):
        out = run_cli("keys", "list", "--config", str(self.config)).stdout
        used = support.keys_list_used(out)
        assert key[:12] in used, f"{key[:12]} not in keys list: {out}"
        return used[key[:12]]

    def used_reaching(self, key, target, seconds=10):
        """The key's count once it reached `target` (the instances have shipped their
        ledgers), or as it stands after `seconds`, and a second later (nothing is still on its
        way: a count above the target would show)."""
        deadline = time.monotonic() + seconds
        while self.used(key) < target and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(1)
        return self.used(key)

    def session(self):
        if not hasattr(self.local, "s"):
            self.local.s = requests.Session()
        return self.local.s

    def execute(self, key):
        """One execute through nginx: (status, error code or None, headers), or
        ("conn", None, {}) when the connection failed."""
        try:
            r = self.session().post(self.nginx.url(BATTERY), json=BATTERY_DEFAULTS, timeout=30,
                                    headers={"Authorization": f"Bearer {key}"})
        except requests.RequestException:
            self.local.s = requests.Session()
            return "conn", None, {}
        code = None
        if r.status_code != 200:
            try:
                code = r.json()["error"]["code"]
            except ValueError:
                code = None
        return r.status_code, code, r.headers

    def wait_key_everywhere(self, key):
        """Until every instance accepts `key` (a key refresh is at most 1 s away): the
        X-RateLimit-Reset of each instance's first 200 (one unit of the key's window)."""
        deadline = time.monotonic() + 10
        resets = []
        for s in self.instances:
            while True:
                r = requests.get(s.url("/v1/me"), headers={"Authorization": f"Bearer {key}"},
                                 timeout=10)
                if r.status_code == 200:
                    resets.append(r.headers["X-RateLimit-Reset"])
                    break
                assert time.monotonic() < deadline, f"key not accepted by {s.port}: {r.text}"
                time.sleep(0.05)
        return resets

    def stop(self):
        self.nginx.stop()
        for s in self.instances:
            s.kill()
        self.redis.cleanup()


def served_by(instance, prefix):
    """Access-log lines of `instance` for requests made with the key of `prefix`."""
    return [line for line in instance.stdout_lines if f'"key_prefix":"{prefix}"' in line]


def wait_for_access_lines(fleet, prefix, count, timeout=5.0):
    """Until the instances' access logs hold `count` lines of `prefix` (lines are written in
    batches, at the latest a flush interval, 1 s, after their response)."""
    deadline = time.monotonic() + timeout
    while sum(len(served_by(s, prefix)) for s in fleet.instances) < count:
        assert time.monotonic() < deadline, \
            f"fewer than {count} access-log lines of {prefix} after {timeout} s"
        time.sleep(0.1)


@pytest.fixture(scope="module")
def fleet(tmp_path_factory):
    f = Fleet(tmp_path_factory.mktemp("fleet"))
    try:
        yield f
    finally:
        f.stop()


def burst(fleet, key, n, threads):
    """`n` executes at once from `threads` threads; the list of outcomes."""
    start = threading.Barrier(threads)

    def worker(count):
        start.wait()
        return [fleet.execute(key) for _ in range(count)]

    per = [n // threads + (1 if i < n % threads else 0) for i in range(threads)]
    with concurrent.futures.ThreadPoolExecutor(threads) as pool:
        results = list(pool.map(worker, per))
    return [r for rs in results for r in rs]


def test_rate_limit_is_exact_across_the_fleet(fleet):
    n = 3 * RATE_L
    for attempt in range(3):
        key = fleet.create_key("fleetrate")
        me_resets = fleet.wait_key_everywhere(key)  # a /v1/me on each: one unit each
        taken = INSTANCES
        outcomes = burst(fleet, key, n, threads=n // 3)
        resets = {h.get("X-RateLimit-Reset") for _, _, h in outcomes} | set(me_resets)
        if len(resets) != 1:
            continue  # the burst straddled a minute boundary: two windows; again, new key
        statuses = [s for s, _, _ in outcomes]
        assert statuses.count(200) == RATE_L - taken, statuses
        assert statuses.count(429) == n - (RATE_L - taken), statuses
        assert {c for s, c, _ in outcomes if s == 429} == {"RATE_LIMITED"}
        # Every response is logged (the /v1/me calls too), within the log's flush interval.
        wait_for_access_lines(fleet, key[:12], n + INSTANCES)
        print("rate burst: per instance", [len(served_by(s, key[:12])) for s in fleet.instances])
        # Spread over the fleet: every instance served some of them.
        for s in fleet.instances:
            assert len(served_by(s, key[:12])) >= 2, f"instance {s.port} served none"
        return
    pytest.fail("three bursts in a row straddled a minute boundary")


def test_quota_is_exact_across_the_fleet(fleet):
    key = fleet.create_key("fleetquota")
    fleet.wait_key_everywhere(key)
    outcomes = burst(fleet, key, 3 * QUOTA_Q, threads=30)
    statuses = [s for s, _, _ in outcomes]
    assert statuses.count(200) == QUOTA_Q, statuses
    assert statuses.count(429) == 2 * QUOTA_Q, statuses
    assert {c for s, c, _ in outcomes if s == 429} == {"QUOTA_EXCEEDED"}
    assert fleet.used(key) == QUOTA_Q
    for s in fleet.instances:  # every instance reports the fleet's count
        me = requests.get(s.url("/v1/me"), headers={"Authorization": f"Bearer {key}"},
                          timeout=10).json()["result"]["quota"]
        assert (me["used"], me["remaining"]) == (QUOTA_Q, 0), me


def drain(fleet, key, instance, statuses, headers):
    """Executes on `instance`, each on a new connection (SO_REUSEPORT spreads them over its
    threads), until 20 in a row are refused (True): by then every thread has served its
    lease (a thread missed 20 times in a row with two threads: one chance in a million).
    False when 600 were not enough (a new minute's window began, or a limit did not hold)."""
    refused_in_a_row = 0
    for _ in range(600):
        r = requests.post(instance.url(BATTERY), json=BATTERY_DEFAULTS, timeout=30,
                          headers={"Authorization": f"Bearer {key}", "Connection": "close"})
        statuses.append(r.status_code)
        headers.append(r.headers)
        refused_in_a_row = refused_in_a_row + 1 if r.status_code == 429 else 0
        if refused_in_a_row == 20:
            return True
    return False  # never refused (a new minute's window, or a limit not held)


@pytest.mark.parametrize("plan,refusal", [("fleetleasequota", "QUOTA_EXCEEDED"),
                                          ("fleetleaserate", "RATE_LIMITED")])
def test_leased_limits_hold_across_the_fleet(fleet, plan, refusal):
    window = plan == "fleetleaserate"
    for attempt in range(3):
        key = fleet.create_key(plan)
        me_resets = fleet.wait_key_everywhere(key)  # a /v1/me on each: a unit of the window
        limit = LEASED - (INSTANCES if window else 0)
        outcomes = burst(fleet, key, LEASED + 300, threads=30)
        statuses = [s for s, _, _ in outcomes]
        headers = [h for _, _, h in outcomes]

        def straddled():  # the runs so far saw two minutes' windows: again, with a new key
            return window and len({h.get("X-RateLimit-Reset") for h in headers}
                                  | set(me_resets)) != 1

        if straddled():
            continue
        assert {c for s, c, _ in outcomes if s != 200} == {refusal}, statuses
        burst_ok = statuses.count(200)
        # Never beyond the limit; refused at 90 % of it at the earliest.
        assert 0.9 * LEASED - (LEASED - limit) <= burst_ok <= limit, burst_ok
        # What the threads still hold is theirs to serve: then exactly the limit.
        drained = [drain(fleet, key, s, statuses, headers) for s in fleet.instances]
        if straddled():
            continue
        assert all(drained), f"an instance never refused {key[:12]}: {drained}"
        print(f"{plan}: {burst_ok} of {limit} served in the burst, "
              f"{statuses.count(200)} in all")
        assert statuses.count(200) == limit, statuses.count(200)
        assert fleet.used_reaching(key, limit) == limit
        return
    pytest.fail("three runs in a row straddled a minute boundary")


def test_redis_unreachable_fails_closed_then_recovers(fleet):
    key = fleet.create_key("fleetbig")
    fleet.wait_key_everywhere(key)
    assert fleet.execute(key)[0] == 200
    fleet.redis.stop()
    served_from_leases = 0
    try:
        for s in fleet.instances:
            r = requests.post(s.url(BATTERY), json=BATTERY_DEFAULTS, timeout=30,
                              headers={"Authorization": f"Bearer {key}"})
            if r.status_code == 200:
                # The instance that served the first execution holds leases of the key's
                # units: it serves from them, counted in its ledger (a server thread's own:
                # the other thread, or an instance that never served the key, has none).
                assert r.json()["ok"] is True, r.text
                served_from_leases += 1
                continue
            err = check_error(r, 503, "STORE_UNAVAILABLE", accounts=True,
                              contains=("unreachable", "neither counted nor run"))
            assert r.headers["Retry-After"] == "1"
            assert err
        assert served_from_leases < INSTANCES, "every instance served without Redis"
        for s in fleet.instances:
            r = requests.get(s.url("/v1/tools"), timeout=30)  # discovery is counted too
            check_error(r, 503, "STORE_UNAVAILABLE", accounts=True)
            r = requests.get(s.url("/v1/me"), headers={"Authorization": f"Bearer {key}"},
                             timeout=30)
            check_error(r, 503, "STORE_UNAVAILABLE", accounts=True)
            h = requests.get(s.url("/v1/health"), timeout=30)  # liveness: still up
            assert h.status_code == 200 and h.json()["result"]["status"] == "ok", h.text
            assert any("unreachable" in line for line in s.stderr_lines), s.stderr_lines
    finally:
        fleet.redis.start()
    # Recovers by itself: no restart, no operator.
    for s in fleet.instances:
        deadline = time.monotonic() + 30
        while True:
            r = requests.post(s.url(BATTERY), json=BATTERY_DEFAULTS, timeout=30,
                              headers={"Authorization": f"Bearer {key}"})
            if r.status_code == 200:
                break
            assert r.status_code == 503, r.text
            assert time.monotonic() < deadline, "no recovery 30 s after Redis came back"
            time.sleep(0.1)
    total = 1 + served_from_leases + INSTANCES
    assert fleet.used_reaching(key, total) == total


def load(fleet, key, threads, stop, during):
    """Executes from `threads` threads until `stop` is set; `during()` runs meanwhile.
    Returns every outcome."""
    outcomes = []
    lock = threading.Lock()

    def worker():
        mine = []
        while not stop.is_set():
            mine.append(fleet.execute(key))
        with lock:
            outcomes.extend(mine)

    ts = [threading.Thread(target=worker) for _ in range(threads)]
    for t in ts:
        t.start()
    try:
        during()
    finally:
        stop.set()
        for t in ts:
            t.join()
    return outcomes


def wait_for_successes(fleet, key, n):
    deadline = time.monotonic() + 60
    while fleet.used(key) < n:
        assert time.monotonic() < deadline, f"fewer than {n} executions in 60 s"
        time.sleep(0.1)


@pytest.mark.parametrize("how", ["sigterm", "sigkill"])
def test_redis_restart_loses_no_acknowledged_count(fleet, how):
    """SIGTERM (an orderly restart: Redis writes its AOF and exits) and SIGKILL (a crash
    of the process: with appendfsync everysec, Redis has written every count to the AOF
    file, in the OS page cache, before its reply), then a start on the same port and AOF."""
    key = fleet.create_key("fleetbig")
    fleet.wait_key_everywhere(key)
    stop = threading.Event()

    def restart_redis():
        wait_for_successes(fleet, key, 50)
        if how == "sigterm":
            fleet.redis.stop()
        else:
            fleet.redis.kill()
        fleet.redis.start()
        wait_for_successes(fleet, key, fleet.used(key) + 50)

    outcomes = load(fleet, key, 6, stop, restart_redis)
    ok = sum(1 for s, _, _ in outcomes if s == 200)
    unavailable = sum(1 for s, c, _ in outcomes if s == 503 and c == "STORE_UNAVAILABLE")
    other = [(s, c) for s, c, _ in outcomes if s not in (200, 503)]
    assert not other, other[:10]
    used = fleet.used_reaching(key, ok)
    print(f"Redis {how} and restart under load: {ok} 200s, {unavailable} 503s, quota used {used}")
    # Every 200 a client got is counted; a 503 may have been counted (its reply was lost
    # when Redis closed the connection) but never more than those.
    assert ok <= used <= ok + unavailable, (ok, unavailable, used)
    assert ok >= 100


def test_kill_9_of_an_instance_loses_no_acknowledged_count(fleet):
    key = fleet.create_key("fleetbig")
    fleet.wait_key_everywhere(key)
    stop = threading.Event()
    victim = fleet.instances[1]

    def kill_one():
        wait_for_successes(fleet, key, 60)
        victim.proc.kill()  # SIGKILL: no drain, no flush
        victim.proc.wait(timeout=10)
        wait_for_successes(fleet, key, fleet.used(key) + 60)

    outcomes = load(fleet, key, 6, stop, kill_one)
    ok = sum(1 for s, _, _ in outcomes if s == 200)
    lost = [s for s, _, _ in outcomes if s not in (200,)]
    # Only requests in flight on the killed instance can fail (nginx answers 502).
    assert set(lost) <= {502, "conn"}, set(lost)
    # Started again on its data directory, the instance ships what its ledger holds that
    # it had not shipped before the kill.
    restarted = Server(victim.data_dir, fleet.config, own_store=True).start()
    try:
        used = fleet.used_reaching(key, ok)
    finally:
        assert restarted.stop() == 0
    print(f"kill -9 of one instance under load: {ok} 200s, {len(lost)} failed "
          f"({sorted(set(map(str, lost)))}), quota used {used}")
    assert ok <= used <= ok + len(lost), (ok, len(lost), used)
    # The survivors kept serving: the count went on after the kill.
    assert ok >= 120
    # The killed instance's stderr has no trace of a final flush: nothing to flush.
    assert victim.proc.returncode == -9

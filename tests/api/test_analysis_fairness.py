"""The analysis pool shared fairly between keys, and analyses priced by what each tool costs
(docs/api.md "Analyses and the I/O threads", docs/analysis.md "What an analysis costs"):
one key flooding the pool with heavy analyses waits behind its own work (429
TOO_MANY_ANALYSES past its limit) while another key's small analyses are all answered; and a
tool's analysis uses ⌈evaluations × its cost class / 1000⌉ units, the class published in
GET /v1/tools/{slug}."""
import math
import threading
import time

import pytest
import requests

from support import (BATTERY, BATTERY_DEFAULTS, Client, check_error, check_success,
                     create_key, header_int)

DIVIDER = "/v1/electronics/voltage-divider"
DIVIDER_VERSION = "2.0.0"
ERLANG = "/v1/programming-dev/erlang-c"
# 100,000 samples on three inputs: 100,015 evaluations, the most samples a request may ask.
HEAVY = {"inputs": BATTERY_DEFAULTS, "samples": 100000,
         "tolerances": {"sleep_current_ua": {"pct": 30}, "wake_current_ma": {"pct": 10},
                        "battery_efficiency_pct": {"abs": 5}}}
SMALL = {"inputs": {"vin_v": 12, "r1_ohm": 10000, "r2_ohm": 10000}, "samples": 1000,
         "tolerances": {"r1_ohm": {"pct": 1}, "r2_ohm": {"pct": 1}}}
# erlang-c near its dearest (900 servers): 1,005 evaluations (1 + 2 + 2 + 1,000).
ERLANG_BODY = {"inputs": {"servers": 900, "arrival_rate_per_s": 100,
                          "mean_service_time_ms": 50, "target_wait_ms": 100},
               "samples": 1000, "tolerances": {"arrival_rate_per_s": {"pct": 5}}}
FLOODERS = 4  # key A's clients: one more than its limit (analysis_threads 1 + 2)
SMALL_CALLS = 20


def post(session, port, path, body, key, timeout=60):
    return session.post(f"http://127.0.0.1:{port}{path}", json=body, timeout=timeout,
                        headers={"Authorization": f"Bearer {key}"})


# Alone: its bound is measured on an idle machine, and analyses run SCHED_IDLE, so any other
# busy process (another test's server) starves them and widens the measured times unevenly.
@pytest.mark.alone
def test_a_flooding_key_waits_for_its_own_work_not_another_keys(start_server, tmp_path,
                                                                 config_file):
    """Key A: 4 clients send 100,000-sample analyses back to back (each ~0.1–0.5 s of CPU)
    while key B sends 20 small ones one after the other. Every one of B's is 200, each
    within 2 s + 3 × the time one heavy analysis takes alone on this server (measured first,
    so a slow machine widens the bound rather than failing it): B waits at most for the
    analysis running when it arrives, never for A's queue. A's analyses beyond its limit of
    3 waiting or running are refused 429 TOO_MANY_ANALYSES, at once, with Retry-After."""
    data = tmp_path / "fair"
    key_a = create_key(data, config_file, "big", label="flooder")
    key_b = create_key(data, config_file, "big", label="small")
    server = start_server(data_dir=data)
    port = server.port
    alone = requests.Session()
    start = time.monotonic()
    check_success(post(alone, port, BATTERY + "/tolerance", HEAVY, key_a), True)
    heavy_alone = time.monotonic() - start
    bound = 2.0 + 3 * heavy_alone

    stop = threading.Event()
    a_results = []  # (status, code, Retry-After)
    lock = threading.Lock()

    def flood():
        s = requests.Session()
        deadline = time.monotonic() + 90  # bounded even if B's side hangs
        while not stop.is_set() and time.monotonic() < deadline:
            r = post(s, port, BATTERY + "/tolerance", HEAVY, key_a)
            code = r.json()["error"]["code"] if r.status_code != 200 else None
            with lock:
                a_results.append((r.status_code, code, r.headers.get("Retry-After")))
            if r.status_code != 200:
                time.sleep(0.01)
        s.close()

    flooders = [threading.Thread(target=flood) for _ in range(FLOODERS)]
    for t in flooders:
        t.start()
    b_results = []  # (status, seconds, body)
    try:
        # A's clients have the pool busy and its queue holding A's work.
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with lock:
                if any(s == 429 for s, _, _ in a_results):
                    break
            time.sleep(0.05)
        b = requests.Session()
        for _ in range(SMALL_CALLS):
            start = time.monotonic()
            r = post(b, port, DIVIDER + "/tolerance", SMALL, key_b)
            b_results.append((r.status_code, time.monotonic() - start, r.text))
        b.close()
    finally:
        stop.set()
        for t in flooders:
            t.join(timeout=120)
    assert [s for s, _, _ in b_results] == [200] * SMALL_CALLS, \
        [(s, body[:200]) for s, _, body in b_results if s != 200]
    slowest = max(seconds for _, seconds, _ in b_results)
    assert slowest <= bound, (f"B's slowest small analysis took {slowest:.2f} s; bound "
                              f"{bound:.2f} s (one heavy analysis alone: {heavy_alone:.2f} s)")
    statuses = {s for s, _, _ in a_results}
    assert 200 in statuses, a_results[:10]
    refused = [(s, code, retry) for s, code, retry in a_results if s != 200]
    assert refused, "A's 4 clients never met its limit of 3"
    assert set(refused) == {(429, "TOO_MANY_ANALYSES", "1")}, set(refused)
    alone.close()
    assert server.stop() == 0


@pytest.mark.alone  # heavy analyses back to back, and a response read within 2 s of its stamp
def test_the_refusal_names_the_keys_limit(start_server, tmp_path, config_file):
    """With server.analyses_per_key = 1, a key's analysis while another of its own runs is
    429 TOO_MANY_ANALYSES naming the limit, with Retry-After: 1; another key is served."""
    data = tmp_path / "limit1"
    key_a = create_key(data, config_file, "big", label="one")
    key_b = create_key(data, config_file, "big", label="other")
    server = start_server(data_dir=data, env={"TOOLCALC_SERVER_ANALYSES_PER_KEY": "1"})
    c = Client(server, {"main": key_a}, accounts=True)
    stop = threading.Event()

    def hold():  # key A's heavy analyses, back to back (bounded: 60 s)
        s = requests.Session()
        deadline = time.monotonic() + 60
        while not stop.is_set() and time.monotonic() < deadline:
            post(s, server.port, BATTERY + "/tolerance", HEAVY, key_a)
        s.close()

    holder = threading.Thread(target=hold)
    refused = None
    holder.start()
    try:
        for _ in range(1000):  # until one lands while A's heavy analysis runs (~ms apart)
            r = c.post(DIVIDER + "/tolerance", SMALL, key=key_a)
            if r.status_code == 429:
                refused = r
                break
            time.sleep(0.01)
        other = c.post(DIVIDER + "/tolerance", SMALL, key=key_b)
    finally:
        stop.set()
        holder.join(timeout=90)
    assert refused is not None, "the key's analysis was never refused beside its own"
    err = check_error(refused, 429, "TOO_MANY_ANALYSES", True, tool_version=DIVIDER_VERSION)
    assert "already has 1 analysis waiting or running" in err["message"], err
    assert header_int(refused, "Retry-After") == 1
    check_success(other, True, version=DIVIDER_VERSION)
    c.session.close()
    assert server.stop() == 0


def test_an_analysis_costs_its_evaluations_times_the_tools_cost_class(api):
    """erlang-c (one evaluation up to ~20 µs: a recursion over up to 1000 servers) costs more
    per 1,000 evaluations than the voltage divider (class 1); both classes are published."""
    key = api.keys["analysis"]
    erlang = api.get("/v1/tools/erlang-c").json()["result"]["analysis_cost_class"]
    divider = api.get("/v1/tools/voltage-divider").json()["result"]["analysis_cost_class"]
    assert divider == 1
    assert erlang >= 8 and erlang & (erlang - 1) == 0, erlang

    def used():
        return api.get("/v1/me", key=key).json()["result"]["quota"]["used"]

    before = used()
    r = api.post(ERLANG + "/tolerance", ERLANG_BODY, key=key)
    result = check_success(r, api.accounts, version="1.0.0")["result"]
    assert result["evaluations"] == 1 + 2 + 2 + 1000
    assert used() - before == math.ceil(1005 * erlang / 1000)
    # The same evaluations of the divider: one unit per 1,000, as before.
    before = used()
    check_success(api.post(DIVIDER + "/tolerance", {**SMALL, "samples": 1000,
                                                     "tolerances": {"r1_ohm": {"pct": 1}}},
                           key=key), api.accounts, version=DIVIDER_VERSION)
    assert used() - before == 2  # 1005 evaluations


def test_the_quota_refusal_states_the_price(api):
    key = api.keys["analysis10"]  # monthly quota 10
    erlang = api.get("/v1/tools/erlang-c").json()["result"]["analysis_cost_class"]
    r = api.post(ERLANG + "/tolerance", ERLANG_BODY, key=key)
    err = check_error(r, 429, "QUOTA_EXCEEDED", api.accounts, tool_version="1.0.0")
    units = math.ceil(1005 * erlang / 1000)
    assert f"needs {units} units" in err["message"], err
    assert f"whose analysis cost class is {erlang}" in err["message"], err

#!/usr/bin/env python3
"""Instructions per execute request under callgrind, for each toolcalc binary given, the way
bench.py's phase 4 measures them (one thread, one keep-alive connection, 10,000 battery
executes, counts acknowledged at once), with the bench's config less the settings an older
binary lacks, so that a commit can be compared with an older one in the same run:

    python3 bench/callgrind_ab.py OLD/toolcalc NEW/toolcalc   # prints each and NEW/OLD

Build both as Release (docs/performance.md, "Running the benchmark"). N=… sets the count."""
import os, re, socket, subprocess, sys, tempfile, time
HERE = os.path.dirname(os.path.abspath(__file__))
CLIENT = os.path.join(HERE, "client.py")
PATH = "/v1/iot-mcu/mcu-deep-sleep-battery"
BODY = ('{"battery_capacity_mah":2000,"sleep_current_ua":10,"wake_current_ma":80,'
        '"wake_duration_ms":250,"cycle_period_s":60,"battery_efficiency_pct":80}')
N = int(os.environ.get("N", "10000"))
CONFIG = ("[store]\nacknowledge_after_commit = false\n\n[server]\naccess_log = false\n"
          "max_connections = 8192\n\n[plans.bench]\nrate_per_minute = 100000000\n"
          "monthly_quota = 1000000000000\n\n[plans.anonymous]\nrate_per_minute = 100000000\n")

def free_port():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); p = s.getsockname()[1]; s.close(); return p

def measure(binary):
    work = tempfile.mkdtemp(prefix="cg-")
    conf = os.path.join(work, "c.toml"); open(conf, "w").write(CONFIG)
    data = os.path.join(work, "data")
    key = subprocess.run([binary, "keys", "create", "--plan", "bench", "--data", data,
                          "--config", conf], capture_output=True, text=True, check=True).stdout.strip()
    port = free_port()
    out = os.path.join(work, "cg.%p")
    proc = subprocess.Popen(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                             binary, "serve", "--listen", f"127.0.0.1:{port}", "--threads", "1",
                             "--data", data, "--config", conf],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(600):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close(); break
        except OSError:
            time.sleep(0.2)
    client = [sys.executable, CLIENT, "127.0.0.1", str(port)]
    args = ["POST", PATH, BODY, key]
    subprocess.run(client + ["200"] + args, check=True, capture_output=True)
    subprocess.run(["callgrind_control", "-z", str(proc.pid)], check=True, capture_output=True)
    before = set(os.listdir(work))
    subprocess.run(client + [str(N)] + args, check=True, capture_output=True)
    subprocess.run(["callgrind_control", "-d", str(proc.pid)], check=True, capture_output=True)
    dump = None
    for _ in range(100):
        new = sorted(f for f in set(os.listdir(work)) - before if f.startswith(f"cg.{proc.pid}."))
        if new: dump = os.path.join(work, new[-1]); break
        time.sleep(0.1)
    time.sleep(0.5)
    proc.terminate(); proc.wait(timeout=60)
    total = 0
    for line in open(dump):
        if line.startswith("totals:") or line.startswith("summary:"):
            total = int(line.split()[1])
    return total / N, dump

if __name__ == "__main__":
    results = []
    for b in sys.argv[1:]:
        ir, dump = measure(b)
        results.append(ir)
        print(f"{b}: {ir:,.0f} instructions per execute ({dump})", flush=True)
    if len(results) == 2:
        print(f"ratio second/first: {results[1] / results[0]:.4f}")

#!/usr/bin/env bash
# Installs the Debian 12 packages `make bench` needs on top of scripts/install-deps.sh:
# nginx-light (the reference server), wrk (load), redis-server (the shared store's phase),
# linux-perf and valgrind (instructions per request and profiles), libbenchmark-dev (the
# micro-benchmarks).
# Idempotent: does nothing (and needs no network) when every package is present.
set -euo pipefail

packages=(nginx-light wrk redis-server linux-perf valgrind libbenchmark-dev)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "install-bench-deps: installing ${missing[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
# The bench never uses a system nginx: it runs its own instance, with a generated config,
# on a free loopback port.
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"

#!/usr/bin/env bash
# Installs the Debian 12 packages toolcalc needs to build, run and test.
# Idempotent: does nothing (and needs no network) when every package is present.
set -euo pipefail

packages=(
  # build
  cmake make g++ pkg-config
  # libraries (Boost 1.81 explicitly: Debian's default Boost 1.74 has no Boost.URL)
  libboost1.81-dev libboost-json1.81-dev libboost-url1.81-dev
  libtomlplusplus-dev libcli11-dev libfmt-dev libsqlite3-dev libssl-dev libhiredis-dev
  # tests
  libgtest-dev googletest python3 python3-pytest python3-requests curl sqlite3 wrk
  # the Python client's test installs it into a venv (`make client-test`)
  python3-venv python3-pip
  # the metrics test parses /metrics with the Prometheus client's own parser; the TLS test
  # makes a self-signed certificate with the openssl CLI
  python3-prometheus-client openssl
  # `make package`: CPack's DEB generator derives Depends with dpkg-shlibdeps
  dpkg-dev
  # the shared store's tests start a real Redis, the fleet test a real nginx
  redis-server nginx-light
  # the chaos suite (`make chaos`) steps the server's wall clock with libfaketime; prlimit
  # and mount (util-linux, mount) are in every Debian system
  faketime
  # fuzzing (`make fuzz`: clang 14 with its libFuzzer and sanitizer runtimes)
  clang libclang-rt-14-dev
  # `make format-check` (part of `make test`): the formatter the project's style is checked with
  clang-format
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"

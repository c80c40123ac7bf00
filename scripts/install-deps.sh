#!/usr/bin/env bash
# Installs the Debian 12 packages toolcalc needs, in two sets:
#   scripts/install-deps.sh        to build and run the server (`make run`)
#   scripts/install-deps.sh test   the same, and what the tests need (`make test`, CI)
# Idempotent: does nothing (and needs no network) when every package is present.
set -euo pipefail

run_packages=(
  # build
  cmake make g++ pkg-config
  # libraries (Boost 1.81 explicitly: Debian's default Boost 1.74 has no Boost.URL)
  libboost1.81-dev libboost-json1.81-dev libboost-url1.81-dev
  libtomlplusplus-dev libcli11-dev libfmt-dev libsqlite3-dev libssl-dev libhiredis-dev
  # the README's first request
  curl
)

test_packages=(
  # unit tests (ctest) and the black-box suites (pytest, several processes at once)
  libgtest-dev googletest python3 python3-pytest python3-pytest-xdist python3-requests
  sqlite3 wrk
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
  # the playground in a real browser (`make browser-test`): Debian's chromium, driven
  # headless by playwright-core; Playwright's own browser download is never used
  chromium fonts-dejavu-core
)

case "${1:-run}" in
  run) packages=("${run_packages[@]}") ;;
  test) packages=("${run_packages[@]}" "${test_packages[@]}") ;;
  *)
    echo "usage: $0 [run|test]" >&2
    exit 2
    ;;
esac

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

#!/usr/bin/env bash
# `make bench`: installs what the bench needs, builds a Release binary and the
# micro-benchmarks in their own build directory, then runs bench/bench.py (see its header
# for the phases and the BENCH_* variables). Results: stdout and bench/results/latest.txt.
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD_DIR=${BENCH_BUILD_DIR:-build-release}
JOBS=${JOBS:-2}

./scripts/install-deps.sh
./scripts/install-bench-deps.sh

cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release -DTOOLCALC_BENCH=ON \
  -DTOOLCALC_TESTS=OFF -DTOOLCALC_WERROR=OFF >/dev/null
cmake --build "$BUILD_DIR" -j "$JOBS" --target toolcalc micro_bench

exec python3 bench/bench.py "$BUILD_DIR"

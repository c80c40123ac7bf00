#!/usr/bin/env bash
# Runs the libFuzzer targets of a fuzz build (`make fuzz` calls this after building).
#
#   fuzz/run.sh BUILD_DIR SECONDS TARGET...
#
# For each target: replay every saved crash of fuzz/regressions/TARGET/ (each must now
# pass), then fuzz for SECONDS (-max_total_time) on a working copy of the seed corpus in
# BUILD_DIR/corpus/TARGET (the repository is never written; inputs found by earlier runs
# are kept there). New crashing inputs go to BUILD_DIR/crashes/. Exits 1 if any target
# crashed, in the replay or while fuzzing.
set -uo pipefail

if [ $# -lt 3 ]; then
  echo "usage: $0 BUILD_DIR SECONDS TARGET..." >&2
  exit 2
fi
build=$1
seconds=$2
shift 2
src=$(cd "$(dirname "$0")" && pwd)

# Per-target input size cap: above the 8 KiB header limit for the HTTP target (so that
# the 431 path is reachable), small for bodies and files, which keeps executions fast.
max_len_for() {
  case $1 in
    fuzz_http) echo 12288 ;;
    fuzz_tools | fuzz_analysis) echo 2048 ;;
    fuzz_config) echo 8192 ;;
    *) echo 4096 ;;
  esac
}

# Every sanitizer report is fatal; leaks are checked (libFuzzer also checks per input).
export ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:detect_leaks=1:print_stacktrace=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}

mkdir -p "$build/crashes" "$build/logs"
failed=()
summary=()
for target in "$@"; do
  bin="$build/fuzz/$target"
  if [ ! -x "$bin" ]; then
    echo "fuzz: $bin is missing (build it first)" >&2
    exit 2
  fi
  log="$build/logs/$target.log"
  : >"$log"

  # 1. Regressions: libFuzzer runs the files given as arguments once each.
  regressions=()
  if [ -d "$src/regressions/$target" ]; then
    while IFS= read -r -d '' f; do regressions+=("$f"); done \
      < <(find "$src/regressions/$target" -type f ! -name 'README*' -print0 | sort -z)
  fi
  if [ ${#regressions[@]} -gt 0 ]; then
    echo "fuzz: $target: replaying ${#regressions[@]} regression input(s)"
    if ! "$bin" -rss_limit_mb=2048 "${regressions[@]}" >>"$log" 2>&1; then
      echo "fuzz: $target: a regression input crashes again (see $log)" >&2
      tail -n 60 "$log" >&2
      failed+=("$target(regression)")
    fi
  fi

  # 2. Fuzzing on a working copy of the seeds.
  work="$build/corpus/$target"
  mkdir -p "$work"
  if [ -d "$src/corpus/$target" ]; then cp -n "$src/corpus/$target"/* "$work"/ 2>/dev/null || true; fi
  dict=()
  if [ -f "$src/$target.dict" ]; then dict=(-dict="$src/$target.dict"); fi
  echo "fuzz: $target: fuzzing for ${seconds}s on $work ($(ls "$work" | wc -l) inputs)"
  "$bin" "$work" "${dict[@]}" \
    -max_total_time="$seconds" -max_len="$(max_len_for "$target")" -timeout=10 \
    -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$build/crashes/$target-" >>"$log" 2>&1
  rc=$?
  stats=$(grep -aE '^#[0-9]+[[:space:]]+DONE' "$log" | tail -n 1)
  execs=$(grep -aE '^stat::number_of_executed_units' "$log" | tail -n 1 | awk '{print $2}')
  summary+=("$target: ${execs:-?} executions; ${stats:-no final stats}")
  if [ $rc -ne 0 ]; then
    echo "fuzz: $target: CRASH (exit $rc), input saved under $build/crashes/ (log $log)" >&2
    grep -E '^(==[0-9]+==ERROR|SUMMARY|==fuzz check failed|.*runtime error)' "$log" | head -n 5 >&2
    failed+=("$target")
  fi
done

echo "fuzz: summary"
for line in "${summary[@]}"; do echo "  $line"; done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: FAILED: ${failed[*]}; crashing inputs in $build/crashes/ — fix the bug, then" \
       "keep the input in fuzz/regressions/<target>/" >&2
  exit 1
fi
echo "fuzz: no crashes"

#!/usr/bin/env bash
# Runs `make` once per stage, in order, stopping at the first stage that fails, and prints at
# the end (after a failure or an interrupt too) each stage's wall-clock time, the CPU time
# (user + system) of the processes it ran, and its result. A stage is one word of make
# arguments, split on spaces:
#   scripts/timed-stages.sh test test-asan "fuzz FUZZ_SECONDS=20"      (.ci/run)
# Run inside another timed run (`make test` inside .ci/run), it adds its rows, indented
# under the caller's stage, to the caller's table instead of printing its own.
# MAKE names the make to run (the Makefile passes its own $(MAKE)).
set -uo pipefail

make_cmd=${MAKE:-make}
depth=${TIMED_STAGES_DEPTH:-0}
owner=0
if [ -z "${TIMED_STAGES_FILE:-}" ]; then
  TIMED_STAGES_FILE=$(mktemp)
  export TIMED_STAGES_FILE
  owner=1
fi
export TIMED_STAGES_DEPTH=$((depth + 1))

# User + system seconds of this shell's children that have ended, in $cpu_now: the `times`
# builtin, run in this shell itself (a subshell's children are not ours).
times_file=$(mktemp)
cpu_now=0
read_cpu() {
  times > "$times_file"
  cpu_now=$(awk 'NR == 2 {
    t = 0
    for (i = 1; i <= NF; i++) { split($i, p, "m"); sub("s", "", p[2]); t += p[1] * 60 + p[2] }
    printf "%.1f", t
  }' "$times_file")
}

difference() { awk -v a="$1" -v b="$2" 'BEGIN { print b - a }'; }

minutes() {  # 754.2 -> 12m34s
  awk -v s="$1" 'BEGIN { s = int(s + 0.5); printf "%dm%02ds", s / 60, s % 60 }'
}

# One row: start time (for the order), depth, stage, wall, CPU, result.
record() {
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$depth" "$2" "$3" "$4" "$5" >> "$TIMED_STAGES_FILE"
}

print_table() {
  echo
  printf '%-44s %9s %9s  %s\n' "make stage" "wall" "CPU" "result"
  sort -s -t $'\t' -k1,1n "$TIMED_STAGES_FILE" |
    while IFS=$'\t' read -r _ row_depth stage wall cpu result; do
      indent=$(printf '%*s' $((row_depth * 2)) '')
      if [ "$wall" = "-" ]; then
        printf '%-44s %9s %9s  %s\n' "$indent$stage" "-" "-" "$result"
      else
        printf '%-44s %9s %9s  %s\n' "$indent$stage" "$(minutes "$wall")" "$(minutes "$cpu")" \
          "$result"
      fi
    done
  rm -f "$TIMED_STAGES_FILE"
}

remaining=("$@")
current=""
current_start=""
current_cpu=""
finish_current() {  # the stage that was running when the run was interrupted
  if [ -n "$current" ]; then
    local now
    now=$(date +%s.%N)
    read_cpu
    record "$current_start" "$current" "$(difference "$current_start" "$now")" \
      "$(difference "$current_cpu" "$cpu_now")" "interrupted"
    current=""
    for stage in "${remaining[@]}"; do record "$now" "$stage" "-" "-" "not run"; done
  fi
}
if [ "$owner" -eq 1 ]; then
  trap 'finish_current; print_table; rm -f "$times_file"' EXIT
else
  trap 'finish_current; rm -f "$times_file"' EXIT
fi
trap 'exit 130' INT TERM

status=0
while [ ${#remaining[@]} -gt 0 ]; do
  stage=${remaining[0]}
  remaining=("${remaining[@]:1}")
  read -r -a args <<< "$stage"
  current=$stage
  current_start=$(date +%s.%N)
  read_cpu
  current_cpu=$cpu_now
  "$make_cmd" "${args[@]}"
  rc=$?
  end=$(date +%s.%N)
  read_cpu
  wall=$(difference "$current_start" "$end")
  cpu=$(difference "$current_cpu" "$cpu_now")
  current=""
  if [ $rc -eq 0 ]; then
    record "$current_start" "$stage" "$wall" "$cpu" "ok"
  else
    record "$current_start" "$stage" "$wall" "$cpu" "FAILED (exit $rc)"
    status=$rc
    break
  fi
done
for stage in "${remaining[@]}"; do
  record "$(date +%s.%N)" "$stage" "-" "-" "not run"
done
exit $status

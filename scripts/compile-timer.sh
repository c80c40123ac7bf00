#!/bin/sh
# Compiler and linker launcher that records what each step costs (docs/build.md):
#   compile-timer.sh LOG COMMAND...
# runs COMMAND and appends "wall_s cpu_s output" to LOG, where cpu_s is the user+system
# time of the compiler and everything it ran (cc1plus, as, ld). CMake puts it in front of
# every compile and link when configured with -DTOOLCALC_COMPILE_TIMES=ON.
log=$1
shift
out=
previous=
for arg in "$@"; do
  [ "$previous" = "-o" ] && out=$arg
  previous=$arg
done
times=$(mktemp)
/usr/bin/time -f '%e %U %S' -o "$times" "$@"
status=$?
# On failure /usr/bin/time writes a status line before the figures: the last line holds them.
tail -n 1 "$times" | awk -v out="$out" '{ printf "%.2f %.2f %s\n", $1, $2 + $3, out }' >> "$log"
rm -f "$times"
exit $status

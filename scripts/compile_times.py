#!/usr/bin/env python3
"""Summarises a build's compile-times.tsv (written by scripts/compile-timer.sh when the build
is configured with -DTOOLCALC_COMPILE_TIMES=ON; docs/build.md): the CPU time of all compiles
and links, and the slowest steps.

    compile_times.py BUILD_DIR [COUNT]
"""
import pathlib
import sys


def main():
    build = pathlib.Path(sys.argv[1])
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    latest = {}  # output → its last step: a rebuilt file counts once
    for line in (build / "compile-times.tsv").read_text().splitlines():
        wall, cpu, output = line.split(" ", 2)
        latest[output] = (float(cpu), float(wall), output)
    steps = list(latest.values())
    compiles = [s for s in steps if s[2].endswith((".o", ".gch", ".pch"))]
    links = [s for s in steps if s not in compiles]
    print(f"{len(compiles)} compiles: {sum(s[0] for s in compiles):.0f} s CPU; "
          f"{len(links)} links: {sum(s[0] for s in links):.0f} s CPU")
    print(f"\nslowest {count} (CPU s, wall s, output):")
    for cpu, wall, output in sorted(steps, reverse=True)[:count]:
        name = output.replace("CMakeFiles/", "").replace(".dir/", ": ")
        print(f"{cpu:7.1f} {wall:7.1f}  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""`make test-times`: the slowest tests of the last runs, from the JUnit files the suites
write (ctest --output-junit, pytest --junitxml, node --test's junit reporter), and each
suite's total.

Usage: test_times.py COUNT RESULTS_DIR...   (a directory that does not exist is skipped)
A test's time is its own wall time: under pytest-xdist tests overlap, so the suite's total
is more than the time the suite took.
"""
import sys
import xml.etree.ElementTree as ET
from pathlib import Path


def cases(xml_file):
    """(seconds, name) of each test case in a JUnit file."""
    root = ET.parse(xml_file).getroot()
    for case in root.iter("testcase"):
        seconds = float(case.get("time") or 0)
        classname = case.get("classname") or ""
        name = case.get("name") or "?"
        yield seconds, f"{classname}::{name}" if classname and classname != "test" else name


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    count = int(argv[1])
    rows, totals = [], []
    for directory in map(Path, argv[2:]):
        for xml_file in sorted(directory.glob("*.xml")):
            suite = f"{directory.parent.name}/{xml_file.stem}"
            found = list(cases(xml_file))
            totals.append((suite, len(found), sum(s for s, _ in found)))
            rows += [(seconds, suite, name) for seconds, name in found]
    if not rows:
        sys.exit("test-times: no results yet (run `make test` or `make test-asan` first); "
                 f"looked in {', '.join(argv[2:])}")
    print(f"The {count} slowest tests:")
    print(f"{'seconds':>8}  {'suite':<26} test")
    for seconds, suite, name in sorted(rows, key=lambda r: -r[0])[:count]:
        print(f"{seconds:8.1f}  {suite:<26} {name}")
    print("\nEach suite (the sum of its tests' times):")
    print(f"{'seconds':>8}  {'tests':>5}  suite")
    for suite, n, seconds in totals:
        print(f"{seconds:8.1f}  {n:5d}  {suite}")


if __name__ == "__main__":
    main(sys.argv)

#!/usr/bin/env python3
"""The reference pages stay references: each under its line budget, so that a reader finds
today's figures and procedures (their history goes to docs/history/, dated). Run by ctest
as the test `reference_docs`.

    check_reference_docs.py DOCS_DIR
"""
import pathlib
import sys

# Page → the line count it must stay under (docs/architecture.md, "Documents").
BUDGET = {"performance.md": 400, "reliability.md": 400}


def main():
    docs = pathlib.Path(sys.argv[1])
    problems = []
    for page, budget in BUDGET.items():
        lines = len((docs / page).read_text().splitlines())
        if lines >= budget:
            problems.append(f"docs/{page}: {lines} lines, the budget is under {budget}: move "
                            "history to docs/history/performance-and-reliability-log.md")
    for problem in problems:
        print(problem)
    if not problems:
        print("reference docs: " + ", ".join(f"{p} under {b} lines" for p, b in BUDGET.items()))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

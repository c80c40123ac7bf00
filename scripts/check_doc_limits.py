#!/usr/bin/env python3
"""The limits the documents state are the ones the code enforces. Run by ctest as the test
`doc_limits`:

    check_doc_limits.py TOOLCALC_BINARY SOURCE_DIR

The values come from the built binary (`toolcalc limits`: the constants of api/limits.hpp,
the analyses, the keys, the built-in plans, and every setting's default and range). Three
checks (docs/architecture.md, "Documents"):

1. A number in a page followed by a marker states that value. `<!-- limit: NAME -->` is the
   value itself; `<!-- limit: NAME/1024 -->` the value divided (bytes as KiB, ms as s);
   `<!-- limit: NAME-1 -->` one less (`+`, `*` likewise);
   `<!-- limit: NAME[] -->` an array: the numbers just before the marker are its items, in
   order. The number is the last one between the previous marker (or the line's start) and
   the marker; `1,000` and `1'000` read as 1000. A marker naming nothing is an error too.
2. docs/operations.md's settings table ("| `section.key` | default | accepted | what |") has
   one row per setting the server accepts, with its default and, for an integer, its range
   ("10 to 60,000").
3. config/toolcalc.toml names every setting, and each value written there (commented out or
   not, but not a string or list given as an example) is the default; its plans are the
   built-in ones.

Each mismatch is printed as file:line, what the text says and the constant's name and value.
"""
import json
import pathlib
import re
import subprocess
import sys
import tomllib

PAGES = ["README.md", "docs/*.md", "docs/tools/*.md"]
MARKER = re.compile(r"<!--\s*limit:\s*([A-Za-z_][\w.:]*(?:\[\])?)\s*(?:([-+/*])\s*([\d_']+))?\s*-->")
ANY_MARKER = re.compile(r"<!--\s*limit\b.*?-->")
NUMBER = re.compile(r"\d{1,3}(?:[,']\d{3})+(?![\d,'])|\d+(?:\.\d+)?")
SETTING_ROW = re.compile(r"^\|\s*`([a-z_]+\.[a-z_]+)`\s*\|([^|]*)\|([^|]*)\|")
# Defaults that depend on where the binary was built or installed.
BUILD_DEPENDENT = {"catalog.dir"}


def number(text):
    return float(text.replace(",", "").replace("'", ""))


def show(value):
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)


def array(limits, name):
    items = []
    while f"{name}[{len(items)}]" in limits:
        items.append(limits[f"{name}[{len(items)}]"])
    return items


def check_markers(path, rel, limits, problems):
    count = 0
    in_code = False
    for lineno, line in enumerate(path.read_text().splitlines(), 1):
        if line.lstrip().startswith("```"):
            in_code = not in_code
        # A marker quoted as code (`<!-- limit: NAME -->`) is an example, not a marker.
        line = re.sub(r"`[^`]*`", lambda m: "x" * len(m.group(0)) if "<!--" in m.group(0)
                      else m.group(0), line)
        if len(ANY_MARKER.findall(line)) != len(MARKER.findall(line)):
            problems.append(f"{rel}:{lineno}: a limit marker this script cannot read")
        start = 0
        for m in MARKER.finditer(line):
            count += 1
            where = f"{rel}:{lineno}"
            before = line[start:m.start()]
            start = m.end()
            if in_code:
                problems.append(f"{where}: a limit marker inside a code block shows as text")
                continue
            name, op, operand = m.group(1), m.group(2), m.group(3)
            stated = [number(n) for n in NUMBER.findall(before)]
            if name.endswith("[]"):
                expected = array(limits, name[:-2])
                if not expected:
                    problems.append(f"{where}: no array {name[:-2]} in `toolcalc limits`")
                elif stated[-len(expected):] != [float(v) for v in expected]:
                    problems.append(f"{where}: states {', '.join(map(show, stated[-len(expected):]))}"
                                    f"; {name[:-2]} is {', '.join(map(str, expected))}")
                continue
            if name not in limits:
                problems.append(f"{where}: no constant or setting {name} in `toolcalc limits`")
                continue
            value = limits[name]
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                # A string setting: its default, as written in the text before the marker.
                if str(value).lower() not in before.lower():
                    problems.append(f"{where}: does not state {name} = {json.dumps(value)}")
                continue
            shown = f"{name}"
            if op:
                k = int(operand.replace("_", "").replace("'", ""))
                value = {"/": value / k if k else value, "*": value * k, "+": value + k,
                         "-": value - k}[op]
                shown = f"{name} {op} {k}"
            if not stated:
                problems.append(f"{where}: no number before the marker of {shown}")
            elif stated[-1] != value:
                problems.append(f"{where}: states {show(stated[-1])}; {shown} is {show(value)}")
    return count


def settings_of(limits):
    return [k for k in limits
            if re.fullmatch(r"(server|store|alerts|catalog)\.[a-z_]+", k)]


def default_cell_matches(cell, value):
    cell = cell.strip()
    if isinstance(value, bool):
        return cell.strip("`") == ("true" if value else "false")
    if isinstance(value, int):
        found = NUMBER.findall(cell)
        return bool(found) and number(found[0]) == value
    if isinstance(value, list):
        return cell.strip("`") == json.dumps(value)
    return f"`{value}`" in cell or (value == "" and cell.strip("`") in ('""', "none", "empty"))


def check_settings_table(root, limits, problems):
    rel = "docs/operations.md"
    rows = {}
    for lineno, line in enumerate((root / rel).read_text().splitlines(), 1):
        m = SETTING_ROW.match(line)
        if not m:
            continue
        name, default, accepted = m.group(1), m.group(2), m.group(3)
        where = f"{rel}:{lineno}"
        if name in rows:
            problems.append(f"{where}: `{name}` has a second row (the first at line {rows[name]})")
        rows[name] = lineno
        if name not in limits:
            problems.append(f"{where}: `{name}` is not a setting the server accepts")
            continue
        if name not in BUILD_DEPENDENT and not default_cell_matches(default, limits[name]):
            problems.append(f"{where}: default {default.strip()}; {name} is "
                            f"{json.dumps(limits[name])}")
        if f"{name}.min" in limits:
            bounds = [number(n) for n in NUMBER.findall(accepted)]
            want = [limits[f"{name}.min"], limits[f"{name}.max"]]
            if bounds[:2] != want:
                problems.append(f"{where}: accepted {accepted.strip()}; {name}.min, .max are "
                                f"{want[0]}, {want[1]}")
    for name in settings_of(limits):
        if name not in rows:
            problems.append(f"{rel}: the settings table has no row for `{name}` (default "
                            f"{json.dumps(limits[name])})")
    return len(rows)


def check_config_file(root, limits, problems):
    rel = "config/toolcalc.toml"
    seen = set()
    section = None
    for lineno, line in enumerate((root / rel).read_text().splitlines(), 1):
        head = re.match(r"^\[([a-z_.]+)\]", line)
        if head:
            section = head.group(1)
            continue
        m = re.match(r"^#?\s*([a-z_]+)\s*=\s*(.*)$", line)
        if not m or section is None:
            continue
        key, rest = m.group(1), m.group(2)
        name = f"{section}.{key}"
        commented = line.startswith("#")
        try:
            value = tomllib.loads(f"v = {rest}")["v"]
        except tomllib.TOMLDecodeError:
            # "value  # comment" or a value that is not TOML: take the part before " #".
            try:
                value = tomllib.loads(f"v = {rest.split(' #')[0]}")["v"]
            except tomllib.TOMLDecodeError:
                problems.append(f"{rel}:{lineno}: cannot read the value of {name}")
                continue
        where = f"{rel}:{lineno}"
        if section.startswith("plans."):
            if commented:
                continue
            seen.add(name)
            if name not in limits:
                problems.append(f"{where}: {name} is not a built-in plan's value")
            elif value != limits[name]:
                problems.append(f"{where}: {name} = {value}; the built-in plan has {limits[name]}")
            continue
        if name not in limits:
            if not commented:
                problems.append(f"{where}: {name} is not a setting the server accepts")
            continue
        seen.add(name)
        example = commented and isinstance(value, (str, list))
        if not example and name not in BUILD_DEPENDENT and value != limits[name]:
            problems.append(f"{where}: {name} = {json.dumps(value)}; the default is "
                            f"{json.dumps(limits[name])}")
    for name in settings_of(limits):
        if name not in seen:
            problems.append(f"{rel}: {name} is missing (default {json.dumps(limits[name])})")
    for name in limits:
        if name.startswith("plans.") and name not in seen:
            problems.append(f"{rel}: the built-in {name} = {limits[name]} is missing")


def main():
    binary, root = sys.argv[1], pathlib.Path(sys.argv[2])
    limits = json.loads(subprocess.run([binary, "limits"], check=True, capture_output=True,
                                       text=True).stdout)
    problems = []
    markers = 0
    pages = sorted({p for pattern in PAGES for p in root.glob(pattern)})
    for page in pages:
        markers += check_markers(page, page.relative_to(root), limits, problems)
    rows = check_settings_table(root, limits, problems)
    check_config_file(root, limits, problems)
    for problem in problems:
        print(problem)
    if not problems:
        print(f"doc limits: {markers} stated limits in {len(pages)} pages, {rows} settings in "
              "docs/operations.md and config/toolcalc.toml agree with `toolcalc limits`")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

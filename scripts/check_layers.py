#!/usr/bin/env python3
"""Every #include "<folder>/…" under src/ must name the folder itself or a layer it links.

The layers and what each links are declared once, in CMakeLists.txt (toolcalc_layer), which
writes them to <build>/layers.txt as lines "folder: dep dep …". A folder may include its
own headers and those of every layer reachable through its links; anything else (an upward
or sideways include) is an error. Given docs/architecture.md too, its layer table ("| folder |
owns | links |") must list every layer with exactly the layers it links, so that the page
cannot drift from the build. Run by ctest as the test `layers`.

    check_layers.py SRC_DIR LAYERS_FILE [ARCHITECTURE_MD]
"""
import pathlib
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/', re.MULTILINE)


def read_layers(path):
    links = {}
    for line in pathlib.Path(path).read_text().splitlines():
        if not line.strip():
            continue
        name, _, deps = line.partition(":")
        links[name.strip()] = deps.split()
    return links


def reachable(links, start):
    seen, todo = set(), [start]
    while todo:
        layer = todo.pop()
        if layer in seen:
            continue
        seen.add(layer)
        todo.extend(links.get(layer, []))
    return seen


# A row of the layer table: | `folder/` | what it owns | links |
TABLE_ROW = re.compile(r"^\| `([a-z_]+)/` \|.*\| ([^|]+) \|$")


def check_table(markdown, links):
    """The layer table's rows against layers.txt: a problem per difference."""
    problems, rows = [], {}
    for line in pathlib.Path(markdown).read_text().splitlines():
        match = TABLE_ROW.match(line.strip())
        if match:
            rows[match.group(1)] = match.group(2).strip()
    for folder in sorted(set(links) | set(rows)):
        if folder not in rows:
            problems.append(f"{markdown}: the layer table has no row for {folder}/")
            continue
        if folder not in links:
            problems.append(f"{markdown}: the layer table lists {folder}/, which is no layer")
            continue
        cell = re.sub(r"\s*\(.*\)$", "", rows[folder])  # a note in brackets is not a link
        if cell in ("—", "-", ""):
            stated = set()
        else:
            stated = {name.strip() for name in cell.split(",")}
        if stated != set(links[folder]):
            problems.append(f"{markdown}: {folder}/ links {', '.join(links[folder]) or 'nothing'}"
                            f", the layer table says {cell}")
    return problems


def main():
    src, layers_file = pathlib.Path(sys.argv[1]), sys.argv[2]
    links = read_layers(layers_file)
    problems = check_table(sys.argv[3], links) if len(sys.argv) > 3 else []
    for folder in sorted(links):
        allowed = reachable(links, folder)
        for path in sorted((src / folder).rglob("*")):
            if path.suffix not in (".cpp", ".hpp"):
                continue
            for match in INCLUDE.finditer(path.read_text()):
                target = match.group(1)
                if target in links and target not in allowed:
                    problems.append(f"{path}: includes {target}/, which {folder}/ does not link")
    known = {p.name for p in src.iterdir() if p.is_dir()}
    for missing in sorted(known - set(links)):
        problems.append(f"src/{missing}/ is not declared as a layer in CMakeLists.txt")
    for problem in problems:
        print(problem)
    if problems:
        return 1
    print(f"layers: {len(links)} folders, every include points down")
    return 0


if __name__ == "__main__":
    sys.exit(main())

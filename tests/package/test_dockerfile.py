"""deploy/Dockerfile against the package it installs (docs/deploy.md, "Container and
Kubernetes"). The image itself needs a Docker engine and a registry to pull debian:12 from;
what can be checked without them is checked here: the runtime stage installs the package
built by `make package` and nothing else (its Depends are the image's one list of runtime
libraries), copies nothing of the build tree but that package, starts a file the package
installs with the config the package installs, and the build stage's packages exist in
Debian 12's archive under those names.

Run: TOOLCALC_DEB=build/toolcalc_0.1.0_amd64.deb /usr/bin/python3 -m pytest -q tests/package
"""
import json
import os
import re
import shlex
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DOCKERFILE = REPO / "deploy" / "Dockerfile"
DEB = Path(os.environ.get("TOOLCALC_DEB", ""))


def instructions(text):
    """(INSTRUCTION, arguments) per instruction, continuation lines joined, comments dropped."""
    out, pending = [], ""
    for line in text.splitlines():
        stripped = line.strip()
        if not pending and (not stripped or stripped.startswith("#")):
            continue
        if stripped.startswith("#"):
            continue
        if stripped.endswith("\\"):
            pending += stripped[:-1] + " "
            continue
        whole = pending + stripped
        pending = ""
        word, _, rest = whole.partition(" ")
        out.append((word.upper(), rest.strip()))
    return out


def stages():
    """The Dockerfile's stages, each a list of its instructions (FROM first)."""
    result = []
    for ins in instructions(DOCKERFILE.read_text()):
        if ins[0] == "FROM":
            result.append([])
        result[-1].append(ins)
    return result


def apt_installs(stage):
    """The package arguments of every `apt-get install` in a stage's RUN commands."""
    found = []
    for word, args in stage:
        if word != "RUN":
            continue
        for command in re.split(r"&&|;", args):
            tokens = shlex.split(command)
            if tokens[:2] == ["apt-get", "install"]:
                found.append([t for t in tokens[2:] if not t.startswith("-")])
    return found


def test_runtime_stage_installs_only_the_package():
    runtime = stages()[-1]
    assert runtime[0][1].startswith("debian:12"), runtime[0]
    installs = apt_installs(runtime)
    assert installs == [["/tmp/toolcalc_*.deb"]], installs
    copies = [args for word, args in runtime if word == "COPY"]
    assert copies == ["--from=build /src/build/toolcalc_*.deb /tmp/"], copies
    # nothing of the source or build tree is referred to after the copy
    for word, args in runtime[1:]:
        if word != "COPY":
            assert "/src" not in args and "build/" not in args, (word, args)


def test_entrypoint_runs_what_the_package_installs():
    assert DEB.is_file(), f"no package at TOOLCALC_DEB={DEB!s} (run `make package`)"
    listing = subprocess.run(["dpkg-deb", "-c", str(DEB)], capture_output=True, text=True,
                             check=True).stdout
    packaged = {line.split()[-1].lstrip(".") for line in listing.splitlines()}
    runtime = stages()[-1]
    entry = [json.loads(args) for word, args in runtime if word == "ENTRYPOINT"]
    assert len(entry) == 1, runtime
    argv = entry[0]
    assert argv[0] in packaged, argv
    assert argv[1] == "serve"
    config = argv[argv.index("--config") + 1]
    assert config in packaged, argv
    user = [args for word, args in runtime if word == "USER"]
    assert user == ["toolcalc"], user  # created by the package's postinst
    workdir = [args for word, args in runtime if word == "WORKDIR"]
    assert workdir == ["/var/lib/toolcalc"], workdir  # the package's data directory


def test_build_stage_packages_exist_in_debian_12():
    build = stages()[0]
    assert build[0][1].startswith("debian:12"), build[0]
    names = [n for install in apt_installs(build) for n in install]
    assert "cmake" in names, names
    # One call for all (apt-cache skips a name it does not know, so compare the records)
    shown = subprocess.run(["apt-cache", "show", "--no-all-versions", *names],
                           capture_output=True, text=True).stdout
    found = set(re.findall(r"^Package: (\S+)$", shown, re.M))
    missing = sorted(set(names) - found)
    assert not missing, f"not in this Debian 12 machine's apt archive: {missing}"


@pytest.mark.parametrize("needed", ["cpack -G DEB", "--target toolcalc_package"])
def test_build_stage_builds_the_package_as_make_package_does(needed):
    build = stages()[0]
    runs = " ".join(args for word, args in build if word == "RUN")
    assert needed in runs, runs
    makefile = (REPO / "Makefile").read_text()
    assert needed in makefile, f"`make package` no longer runs {needed!r}"


def test_build_stage_needs_no_node():
    """uPlot, the one npm package the binary embeds, is vendored in third_party/uplot (which
    `COPY . .` brings in): the build stage installs no Node.js and runs no npm."""
    build = stages()[0]
    names = [n for install in apt_installs(build) for n in install]
    assert "nodejs" not in names and "npm" not in names, names
    runs = " ".join(args for word, args in build if word == "RUN")
    assert "npm " not in runs, runs
    copies = [args for word, args in build if word == "COPY"]
    assert ". ." in copies, copies
    assert (REPO / "third_party" / "uplot" / "uPlot.iife.min.js").is_file()

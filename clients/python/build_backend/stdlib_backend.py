"""A PEP 517 build backend in the standard library alone, for a pure-Python package.

Why it exists: pip builds a project in an isolated environment and first installs the
backend's requirements there from a package index. With setuptools that means a download,
so `pip install ./clients/python` would fail offline. This backend requires nothing, so the
same command works with no index at all. It builds exactly one kind of thing: a
`py3-none-any` wheel of the package directory named in `[tool.stdlib_backend]` under
`src/`, with the `[project]` metadata of pyproject.toml (core metadata 2.1, PEP 566), an
editable wheel (PEP 660, a .pth file), and an sdist.

The wheel format follows PEP 427 / the binary distribution format specification: files,
then `{name}-{version}.dist-info/` with METADATA, WHEEL and RECORD (sha256, urlsafe base64
without padding, and the size of each file).
"""
import base64
import hashlib
import io
import os
import re
import tarfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Every archive member gets this time, so that two builds of the same tree are identical
# (the earliest time a zip file can hold).
ZIP_TIME = (1980, 1, 1, 0, 0, 0)


def _load_pyproject():
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    try:
        import tomllib  # Python 3.11+
        return tomllib.loads(text)
    except ImportError:
        return _parse_simple_toml(text)


def _parse_simple_toml(text):
    """Enough TOML for this project's pyproject.toml on Python < 3.11: tables, and keys whose
    values are strings or arrays of strings; comments on lines of their own."""
    data = {}
    table = data
    pending_key, pending = None, ""
    for raw in text.splitlines():
        line = raw.strip()
        if pending_key is not None:
            pending += " " + line
            if line.endswith("]"):
                table[pending_key] = re.findall(r'"([^"]*)"', pending)
                pending_key = None
            continue
        if not line or line.startswith("#"):
            continue
        m = re.fullmatch(r"\[([A-Za-z0-9_.-]+)\]", line)
        if m:
            table = data
            for part in m.group(1).split("."):
                table = table.setdefault(part, {})
            continue
        key, _, value = (s.strip() for s in line.partition("="))
        if value.startswith("[") and not value.endswith("]"):
            pending_key, pending = key, value
        elif value.startswith("["):
            table[key] = re.findall(r'"([^"]*)"', value)
        else:
            table[key] = value.strip('"')
    return data


def _project():
    data = _load_pyproject()
    project = data["project"]
    package = data.get("tool", {}).get("stdlib_backend", {}).get("package", project["name"])
    return project, package


def _dist_name(project):
    # The escaped name of wheel and sdist file names (binary distribution format spec).
    return re.sub(r"[-_.]+", "_", project["name"]).lower()


def _metadata(project):
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {project['name']}",
        f"Version: {project['version']}",
    ]
    if project.get("description"):
        lines.append(f"Summary: {project['description']}")
    if project.get("requires-python"):
        lines.append(f"Requires-Python: {project['requires-python']}")
    for c in project.get("classifiers", []):
        lines.append(f"Classifier: {c}")
    for d in project.get("dependencies", []):
        lines.append(f"Requires-Dist: {d}")
    body = ""
    readme = project.get("readme")
    if readme:
        lines.append("Description-Content-Type: text/markdown")
        body = "\n" + (ROOT / readme).read_text(encoding="utf-8")
    return "\n".join(lines) + "\n" + body


WHEEL_FILE = ("Wheel-Version: 1.0\n"
              "Generator: stdlib_backend\n"
              "Root-Is-Purelib: true\n"
              "Tag: py3-none-any\n")


def _package_files(package):
    src = ROOT / "src" / package
    for path in sorted(src.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
            yield path.relative_to(ROOT / "src").as_posix(), path.read_bytes()


def _record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def _write_wheel(wheel_directory, files):
    project, _ = _project()
    stem = f"{_dist_name(project)}-{project['version']}"
    dist_info = f"{stem}.dist-info"
    files = list(files) + [
        (f"{dist_info}/METADATA", _metadata(project).encode("utf-8")),
        (f"{dist_info}/WHEEL", WHEEL_FILE.encode("ascii")),
    ]
    record = [_record_line(name, data) for name, data in files] + [f"{dist_info}/RECORD,,"]
    files.append((f"{dist_info}/RECORD", ("\n".join(record) + "\n").encode("utf-8")))
    filename = f"{stem}-py3-none-any.whl"
    with zipfile.ZipFile(os.path.join(wheel_directory, filename), "w",
                         compression=zipfile.ZIP_DEFLATED) as zf:
        for name, data in files:
            info = zipfile.ZipInfo(name, date_time=ZIP_TIME)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, data)
    return filename


# --- PEP 517 / PEP 660 hooks --------------------------------------------------------------

def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    project, _ = _project()
    dist_info = f"{_dist_name(project)}-{project['version']}.dist-info"
    path = Path(metadata_directory) / dist_info
    path.mkdir(parents=True, exist_ok=True)
    (path / "METADATA").write_text(_metadata(project), encoding="utf-8")
    (path / "WHEEL").write_text(WHEEL_FILE, encoding="ascii")
    return dist_info


prepare_metadata_for_build_editable = prepare_metadata_for_build_wheel


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    _, package = _project()
    return _write_wheel(wheel_directory, _package_files(package))


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    # The package stays in the source tree; a .pth file puts src/ on sys.path.
    project, _ = _project()
    pth = (str(ROOT / "src") + "\n").encode("utf-8")
    return _write_wheel(wheel_directory, [(f"__editable__.{_dist_name(project)}.pth", pth)])


def build_sdist(sdist_directory, config_settings=None):
    project, package = _project()
    stem = f"{_dist_name(project)}-{project['version']}"
    members = [("pyproject.toml", (ROOT / "pyproject.toml").read_bytes()),
               ("PKG-INFO", _metadata(project).encode("utf-8"))]
    for extra in ("README.md", "build_backend/stdlib_backend.py"):
        members.append((extra, (ROOT / extra).read_bytes()))
    members += [(f"src/{name}", data) for name, data in _package_files(package)]
    filename = f"{stem}.tar.gz"
    with tarfile.open(os.path.join(sdist_directory, filename), "w:gz",
                      format=tarfile.PAX_FORMAT) as tf:
        for name, data in members:
            info = tarfile.TarInfo(f"{stem}/{name}")
            info.size = len(data)
            info.mode = 0o644
            info.mtime = 0
            tf.addfile(info, io.BytesIO(data))
    return filename

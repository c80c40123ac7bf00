"""Every published verification vector reproduces its source over HTTP (docs/api.md, GET
/v1/tools/{slug}: `examples` with `expected`, `tolerance_pct` and `source`).

Black-box: the catalog is read from GET /v1/tools (all pages) and GET /v1/tools/{slug}; each
vector's body is POSTed with a key and every expected output is checked by the documented rule:
a string must be equal; a number must satisfy

    |ours - expected| <= tolerance_pct % of |expected| + half a unit in the last decimal place
                         of that output's precision.
"""
import math

import pytest

from support import check_ok_result, check_success


def within(ours, expected, tolerance_pct, precision):
    """The documented rule for a number; the 1e-12 absorbs binary floating point only."""
    allowed = abs(expected) * tolerance_pct / 100 + 0.5 * 10.0 ** -precision + 1e-12
    return abs(ours - expected) <= allowed


def mismatches(outputs, expected, result, tolerance_pct):
    """The expected members `result` does not reproduce, as readable lines."""
    by_key = {o["key"]: o for o in outputs}
    problems = []
    for key, want in expected.items():
        out = by_key.get(key)
        if out is None:
            problems.append(f"{key}: no such output")
            continue
        got = result.get(key)
        if isinstance(want, str):
            if got != want:
                problems.append(f"{key}: got {got!r}, the source gives {want!r}")
        elif not isinstance(got, (int, float)) or isinstance(got, bool):
            problems.append(f"{key}: got {got!r}, not a number")
        elif not within(got, want, tolerance_pct, out["precision"]):
            problems.append(f"{key}: got {got}, the source gives {want} "
                            f"±{tolerance_pct} % (precision {out['precision']})")
    return problems


def test_the_rule_accepts_the_sources_rounding_and_nothing_more():
    # 3 decimals: half a unit is 0.0005; 1 % of 50 is 0.5.
    assert within(50.5, 50, 1, 3)
    assert not within(50.51, 50, 1, 3)
    assert within(0.0005, 0, 0, 3) and not within(0.0006, 0, 0, 3)
    assert within(640.0, 640, 0, 3) and not within(640.001, 640, 0, 3)
    outputs = [{"key": "z0_ohm", "precision": 3}, {"key": "status", "precision": 0}]
    assert mismatches(outputs, {"z0_ohm": 50, "status": "ok"},
                      {"z0_ohm": 49.94, "status": "ok"}, 1) == []
    wrong = mismatches(outputs, {"z0_ohm": 44.74, "status": "ok"},
                       {"z0_ohm": 50.54, "status": "fail"}, 1)
    assert len(wrong) == 2 and wrong[0].startswith("z0_ohm") and wrong[1].startswith("status")


def all_tools(api):
    """Every tool summary, page by page."""
    items, page = [], 1
    while True:
        res = check_ok_result(api.get(f"/v1/tools?limit=7&page={page}"), api.accounts)
        items += res["items"]
        if page >= res["pages"]:
            break
        page += 1
    assert len(items) == res["total"]
    return items


@pytest.fixture(scope="module")
def vectors(api):
    """(slug, record, example) for every example that carries `expected`."""
    found = []
    for item in all_tools(api):
        slug = item["tool"]
        rec = check_ok_result(api.get(f"/v1/tools/{slug}"), api.accounts,
                              tool_version=item["version"])
        for ex in rec["examples"]:
            if "expected" in ex:
                found.append((slug, rec, ex))
    return found


def test_the_catalog_publishes_vectors_with_their_sources(api, vectors):
    assert len({slug for slug, _, _ in vectors}) >= 2, vectors
    for slug, rec, ex in vectors:
        where = f"{slug}: {ex['title']}"
        assert ex["method"] == "POST" and ex["path"] == rec["endpoint"], where
        assert isinstance(ex["body"], dict), where
        assert isinstance(ex["expected"], dict) and ex["expected"], where
        tol = ex["tolerance_pct"]
        assert isinstance(tol, (int, float)) and not isinstance(tol, bool), where
        assert 0 <= tol <= 10 and math.isfinite(tol), where
        assert isinstance(ex["source"], str) and ex["source"].strip(), where


def test_every_vector_reproduces_its_source(api, vectors):
    failures = []
    for slug, rec, ex in vectors:
        r = api.post(ex["path"], ex["body"])
        env = check_success(r, api.accounts, tool=slug, domain=rec["domain"],
                            version=rec["version"])
        for line in mismatches(rec["outputs"], ex["expected"], env["result"],
                               ex["tolerance_pct"]):
            failures.append(f"{slug}: {ex['title']}: {line} [{ex['source']}]")
    assert not failures, "\n".join(failures)

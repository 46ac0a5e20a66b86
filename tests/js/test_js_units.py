"""Run the client's JavaScript unit tests (tests/js/*.test.mjs) with Node's built-in runner."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).parent
ROOT = HERE.parents[1]


def test_js_unit_tests_pass() -> None:
    """`node --test tests/js/` exits 0: patch applier, geometry, state and connection logic."""
    node = shutil.which("node")
    if node is None:
        if os.environ.get("SEADRAGONS_REQUIRE_SERVICES") == "1":
            pytest.fail("node is required (SEADRAGONS_REQUIRE_SERVICES=1) but is not installed")
        pytest.skip("node is not installed: the JavaScript unit tests cannot run")
    files = sorted(str(p.relative_to(ROOT)) for p in HERE.glob("*.test.mjs"))
    assert files, "no JavaScript tests found"
    proc = subprocess.run(
        [node, "--test", *files], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    summary = [line for line in proc.stdout.splitlines() if line.startswith(("# pass", "# fail"))]
    assert proc.returncode == 0, (
        f"node --test failed:\n{proc.stdout[-6000:]}\n{proc.stderr[-2000:]}"
    )
    assert any(line.startswith("# pass") and int(line.split()[-1]) > 0 for line in summary), summary


def test_fixtures_match_the_engine(tmp_path: Path) -> None:
    """The JS tests' sample documents are what the current engine produces (not stale copies)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("make_fixtures", HERE / "make_fixtures.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    mod.main(tmp_path)
    for fresh in sorted(tmp_path.glob("*.json")):
        kept = HERE / "fixtures" / fresh.name
        assert kept.read_text() == fresh.read_text(), (
            f"{kept.name} is stale: run `python tests/js/make_fixtures.py`"
        )

"""Screenshots are taken when a run asks for them (`pytest --screenshots`), and a failed browser
test's pages are saved whatever it asks (tests/e2e/helpers.py `shot`, tests/e2e/conftest.py).
The run is a pytest of its own with the suite's hooks: the option and the failure note are
wired by them, not by anything a test could set."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

CONFTEST = """
from tests.conftest import pytest_addoption, pytest_configure
from tests.e2e.conftest import FAILED, pytest_runtest_makereport
import pytest

@pytest.fixture(autouse=True)
def say_what_teardown_knows(request):
    yield
    print(f"\\nfailed? {request.node.name} {request.node.stash.get(FAILED, None)}")
"""

TESTS = """
from pathlib import Path
from tests.e2e import helpers

class Page:
    # What shot() asks of a Playwright page: goto (a page, not a locator) and screenshot.
    def goto(self, url): ...
    def screenshot(self, path, full_page=True):
        Path(path).write_bytes(b"png")

def test_shot(tmp_path, monkeypatch):
    monkeypatch.setattr(helpers, "ARTIFACTS", tmp_path)
    path = helpers.shot(Page(), "one")
    print(f"\\nshot: {path is not None and path.exists()}")

def test_fails():
    assert False
"""


def _run(tmp_path: Path, *args: str) -> str:
    (tmp_path / "conftest.py").write_text(CONFTEST)
    (tmp_path / "test_inner.py").write_text(TESTS)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist", "-s", *args],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "1 failed, 1 passed" in done.stdout, done.stdout + done.stderr
    return done.stdout


@pytest.mark.timeout(180)
def test_screenshots_only_when_asked_and_a_failure_is_known_at_teardown(tmp_path: Path) -> None:
    plain = _run(tmp_path)
    assert "shot: False" in plain
    # What `_close_pages` reads to save a failed test's pages: the call's outcome.
    assert "failed? test_fails True" in plain
    assert "failed? test_shot False" in plain
    assert "shot: True" in _run(tmp_path, "--screenshots")

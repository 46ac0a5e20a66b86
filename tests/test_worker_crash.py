"""A parallel run whose worker crashes ends, reporting the crashed test once (tests/tiers.py,
`make_scheduler`). xdist's loadscope, which the suite's scheduler builds on, handed the
crashing test to each new worker (crashing each in turn), and when it was the last of its
group handed on a group with nothing left to run, after which the run waited forever."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# The suite's own hooks, so the run is scheduled as the README's command schedules it.
CONFTEST = """
import pytest
from tests import tiers

@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config):
    tiers.default_workers(config)

def pytest_xdist_make_scheduler(config, log):
    return tiers.make_scheduler(config, log)
"""

GROUP = """
import os
import pytest

@pytest.mark.parametrize("i", range(4))
def test_one(i):
    if {crash} and i == {at} and os.environ.get("PYTEST_XDIST_WORKER"):
        os._exit(3)
"""


@pytest.mark.slow  # three pytest processes per case, each importing the suite's plugins
@pytest.mark.timeout(240)
@pytest.mark.parametrize("at", [0, 3], ids=["first-of-its-group", "last-of-its-group"])
def test_a_crashed_worker_fails_its_test_once_and_the_run_ends(tmp_path: Path, at: int) -> None:
    suite = tmp_path / "crash"
    suite.mkdir()
    (tmp_path / "conftest.py").write_text(CONFTEST)
    (tmp_path / "pytest.ini").write_text("[pytest]\ntestpaths = crash\n")
    for name in "abcd":
        (suite / f"test_{name}.py").write_text(GROUP.format(crash=name == "b", at=at))
    # Not this run's worker: the inner run starts workers of its own.
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    env.update(PYTHONPATH=str(ROOT), SEADRAGONS_TEST_WORKERS="2")
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-rf"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,  # a run that hangs fails here, not at the test's own timeout
    )
    out = done.stdout
    assert "bringing up nodes" in out and "node down" in out, out  # in parallel; one crashed
    assert "1 failed, 15 passed" in out, out
    # One failure line, naming the test that crashed. The summary line is counted rather than the
    # crash message, which pytest prints in the failure's section and again in the summary line
    # unless it cuts that line to the terminal's width (it never cuts it when `CI` is set).
    failed = [line for line in out.splitlines() if line.startswith("FAILED ")]
    assert len(failed) == 1, out
    assert failed[0].startswith(f"FAILED crash/test_b.py::test_one[{at}]"), out

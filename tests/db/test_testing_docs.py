"""docs/testing.md and the README say how the suite runs: the markers, the commands and the
SQLite-only modules they name are the ones the code has."""

from __future__ import annotations

import re
from pathlib import Path

from tests import tiers

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "testing.md").read_text()
README = (ROOT / "README.md").read_text()
TEST_COMMAND = (
    "python3 -m venv .venv && .venv/bin/pip install -q -e '.[dev]' && .venv/bin/python -m pytest"
)
FAST_COMMAND = ".venv/bin/python -m pytest -m fast"


def test_every_marker_is_described() -> None:
    for name in [*tiers.NEEDS, tiers.FAST, tiers.ONE_DATABASE]:
        assert f"| `{name}` |" in DOC, f"docs/testing.md does not describe the marker {name}"


def test_the_readme_ci_and_the_doc_give_the_same_commands() -> None:
    assert TEST_COMMAND in README and TEST_COMMAND in DOC
    assert TEST_COMMAND in (ROOT / ".ci" / "run").read_text()  # CI runs the README's command
    assert FAST_COMMAND in README and FAST_COMMAND in DOC


def test_the_sqlite_only_modules_are_the_ones_named() -> None:
    marked = {
        path.name
        for path in (ROOT / "tests").rglob("test_*.py")
        if re.search(r"^pytestmark = .*one_database", path.read_text(), re.MULTILINE)
    }
    assert marked, "no module is marked one_database: the pattern or the marks changed"
    section = DOC.split("## Postgres", 1)[1].split("\n## ", 1)[0]
    named = set(re.findall(r"`(test_\w+\.py)`", section))
    assert named == marked


def test_the_worker_limit_is_the_documented_one() -> None:
    assert f"up to {tiers.MAX_WORKERS} workers" in " ".join(DOC.split())


def test_browser_modules_are_sent_to_the_workers_in_groups_and_others_whole() -> None:
    size = tiers.GROUP_SIZE
    assert f"groups of at most {size} tests" in " ".join(DOC.split())
    long = [f"tests/e2e/test_a.py::t{i}" for i in range(2 * size + 1)]
    web = [f"tests/web/test_b.py::t[{i}]" for i in range(2 * size + 1)]
    short = [f"tests/e2e/test_c.py::t{i}" for i in range(3)]
    found = tiers.groups([*long, *web, *short])
    assert [len({found[n] for n in ids}) for ids in (long, web, short)] == [3, 1, 1]
    assert found[long[0]] == found[long[size - 1]] != found[long[size]]
    assert len(set(found.values())) == 5


def test_one_worker_runs_browser_tests_from_the_start_and_the_others_join_at_the_end() -> None:
    assert "browser lane" in " ".join(DOC.split())
    nodes = ["gw0", "gw1"]
    mixed = ["tests/web/test_b.py::t", "tests/e2e/test_a.py::t"]
    assert tiers.browser_lane(nodes, mixed) == "gw0"
    assert tiers.browser_lane(nodes, mixed[:1]) is None, "no browser test: no lane"
    assert tiers.browser_lane(nodes[:1], mixed) is None, "one worker: no lane"
    queue = ["tests/web/test_b.py", "tests/services/test_c.py", "tests/e2e/test_a.py#0"]
    assert tiers.next_scope(queue, browser_only=True) == "tests/e2e/test_a.py#0"
    assert tiers.next_scope(queue, browser_only=False) == "tests/web/test_b.py"
    assert tiers.next_scope(queue[2:], browser_only=False) == "tests/e2e/test_a.py#0"
    assert tiers.next_scope(queue[:2], browser_only=True) is None, "the lane is done"


def test_the_schemathesis_deadline_is_the_documented_one_inside_the_tests_timeout() -> None:
    from tests.ops import test_contract

    seconds = test_contract.SCHEMATHESIS_SECONDS
    assert f"`SCHEMATHESIS_SECONDS` ({seconds} s)" in " ".join(DOC.split())
    test = test_contract.test_schemathesis_finds_no_server_error_undocumented_status_or_mismatch
    [timeout] = [m.args[0] for m in test.pytestmark if m.name == "timeout"]
    assert timeout > seconds


def test_the_browsers_are_the_documented_ones_and_ci_installs_both() -> None:
    from tests.e2e import conftest as e2e

    text = " ".join(DOC.split())
    assert f"(`{e2e.CHROMIUM}`, package `chromium-headless-shell`; `CHROMIUM`" in text
    assert f"(`FULL_CHROMIUM`, `{e2e.FULL_CHROMIUM}`)" in text
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    both = "apt-get install -y -qq chromium chromium-headless-shell"
    assert any(both in line for line in ci)
    assert "apt-get install chromium chromium-headless-shell" in README

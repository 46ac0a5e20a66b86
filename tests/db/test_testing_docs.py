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


class _Def:
    def __init__(self, scope: str) -> None:
        self.scope = scope


class _Item:
    """Just what tiers.xdist_groups reads of a collected test."""

    def __init__(self, nodeid: str, **fixtures: str) -> None:
        self.nodeid, self.fixturenames = nodeid, list(fixtures)
        self._fixtureinfo = type("Info", (), {"name2fixturedefs": {}})()
        self._fixtureinfo.name2fixturedefs = {n: [_Def(s)] for n, s in fixtures.items()}
        self.marks: list[object] = []

    def add_marker(self, mark: object) -> None:
        self.marks.append(mark)

    def group(self) -> str:
        (mark,) = self.marks
        return mark.args[0]  # type: ignore[attr-defined]


def test_long_modules_are_sent_to_the_workers_in_groups_unless_a_fixture_keeps_them_whole() -> None:
    size = tiers.GROUP_SIZE
    assert f"groups of at most {size} tests" in " ".join(DOC.split())
    long = [_Item(f"tests/e2e/test_a.py::t{i}", browser="module") for i in range(2 * size + 1)]
    whole = [_Item(f"tests/web/test_b.py::t{i}", schema="module") for i in range(2 * size + 1)]
    short = [_Item(f"tests/web/test_c.py::t{i}", tmp_path="function") for i in range(3)]
    tiers.xdist_groups([*long, *whole, *short])
    assert [len({i.group() for i in items}) for items in (long, whole, short)] == [3, 1, 1]
    assert long[0].group() == long[size - 1].group() != long[size].group()
    assert len({i.group() for i in [*long, *whole, *short]}) == 5

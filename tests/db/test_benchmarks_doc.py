"""docs/benchmarks.md stays usable: its commands run the scripts with options they have, the
sections other docs and the code point to exist, and the numbers it says the code holds are the
code's. (Names and files it cites are checked for every doc by test_docs_names.py.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.review import chance
from app.services.ratings import model as rating_model
from app.services.ratings.anchors import ANCHORS
from app.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "benchmarks.md"
HISTORY = ROOT / "docs" / "history" / "benchmarks-rounds.md"


def _flat(text: str) -> str:
    """Text with its line breaks (and a comment's `#` after them) as single spaces, so a quoted
    section name wrapped over two lines of a doc or a comment reads as one."""
    return re.sub(r"\s*\n\s*(?:#\s*)?", " ", text)


# --- commands --------------------------------------------------------------------------------

SCRIPT = re.compile(r"(?:bench/|\s)([a-z_]+\.py)\b")
FLAG = re.compile(r"(?<![\w-])(--[a-z][a-z-]*)")


def _commands() -> list[tuple[str, str]]:
    """(script, command) for every command of the doc's shell blocks that runs a bench script."""
    blocks = re.findall(r"```sh\n(.*?)```", DOC.read_text(), re.DOTALL)
    found = []
    for block in blocks:
        for command in block.replace("\\\n", " ").splitlines():
            scripts = [s for s in SCRIPT.findall(command) if (ROOT / "bench" / s).is_file()]
            if scripts:
                found.append((scripts[-1], command.strip()))
    return found


def test_the_doc_has_commands() -> None:
    assert len(_commands()) > 30  # the pattern finds them (a broken one would pass anything)


@pytest.mark.parametrize(("script", "command"), _commands())
def test_a_command_uses_options_its_script_has(script: str, command: str) -> None:
    source = (ROOT / "bench" / script).read_text()
    # Options after the script's name are its own (`valgrind --tool=...` before it is not).
    after = command.split(script, 1)[1]
    unknown = [f for f in FLAG.findall(after) if f'"{f}"' not in source]
    assert unknown == [], f"bench/{script} has no {unknown}: {command}"


# --- sections pointed to -----------------------------------------------------------------------

CITE = re.compile(
    r"docs/(benchmarks|history/benchmarks-rounds)\.md`?,?\s*\(?(?:section\s+)?\"([^\"]+)\""
)


def _citing_files() -> list[Path]:
    docs = [p for p in (ROOT / "docs").glob("*.md") if p != DOC]
    return [ROOT / "README.md", *docs, *sorted((ROOT / "app").rglob("*.py"))]


def _cited_sections() -> list[tuple[str, str, str]]:
    found = set()
    for path in _citing_files():
        for doc, section in CITE.findall(_flat(path.read_text())):
            found.add((str(path.relative_to(ROOT)), doc, section))
    return sorted(found)


def test_sections_are_cited() -> None:
    assert len(_cited_sections()) >= 5  # the pattern finds them


def _sections(doc: str) -> list[str]:
    """A doc's section names: its headings, and the bold names that open its list entries."""
    text = (ROOT / "docs" / f"{doc}.md").read_text()
    headings = [h.lstrip("#").strip() for h in text.splitlines() if h[:1] == "#"]
    return headings + re.findall(r"^- \*\*(.+?)\*\*", text, re.MULTILINE)


def _names(section: str, cited: str) -> bool:
    """A heading is cited by its whole name, or by the part before its colon or parenthesis."""
    if not section.lower().startswith(cited.lower()):
        return False
    rest = section[len(cited) :]
    return rest == "" or rest.startswith((":", " ("))


@pytest.mark.parametrize(("source", "doc", "section"), _cited_sections())
def test_a_cited_section_exists(source: str, doc: str, section: str) -> None:
    assert any(_names(s, section) for s in _sections(doc)), (
        f'{source} points to docs/{doc}.md, "{section}": no such section'
    )


def test_the_rounds_the_doc_names_are_in_the_history() -> None:
    assert "`docs/history/benchmarks-rounds.md`" in DOC.read_text()
    headings = [h.lstrip("#").strip() for h in HISTORY.read_text().splitlines() if h[:1] == "#"]
    section = DOC.read_text().split("## Figures behind the code's choices", 1)[1]
    # Each figure there is quoted with the name of the round it comes from (a heading there,
    # which may end with the round's date).
    rounds = set(re.findall(r'"([^"]{20,})"', _flat(section)))
    assert len(rounds) >= 4
    missing = [r for r in rounds if not any(h.startswith(r) for h in headings)]
    assert missing == []


# --- numbers the doc says the code holds --------------------------------------------------------


def test_the_anchor_table_is_the_codes() -> None:
    table = DOC.read_text().split("### Bot anchors", 1)[1].split("\n#", 1)[0]
    rows = re.findall(
        r"^\| (random|greedy|expert) \| ([\d.]+) \| ([\d.]+) \| (\d+) \|$", table, re.M
    )
    assert len(rows) == 3
    for level, mu, sigma, shown in rows:
        assert ANCHORS[level] == (float(mu), float(sigma)), level
        assert rating_model.display(float(mu), float(sigma)) == int(shown), level


def test_the_review_temperatures_are_the_codes() -> None:
    text = DOC.read_text()
    assert f"`TEMP_END` {chance.TEMP_END:g} and `TEMP_SPAN` {chance.TEMP_SPAN:g}" in text


def test_the_defaults_behind_the_codes_choices_are_the_codes() -> None:
    section = DOC.read_text().split("## Figures behind the code's choices", 1)[1]
    named = re.findall(r"`(?:SEADRAGONS_)?([A-Z][A-Z0-9_]+)` (\d+)\b", section)
    assert len(named) >= 3
    for name, value in named:
        assert Settings.model_fields[name.lower()].default == int(value), name


def test_every_setting_the_doc_names_exists() -> None:
    named = set(re.findall(r"SEADRAGONS_([A-Z0-9_]+)", DOC.read_text()))
    assert named
    assert sorted(n for n in named if n.lower() not in Settings.model_fields) == []

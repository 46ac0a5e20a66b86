"""The README says which Python the project needs (as pyproject.toml does) and where to learn
the game, and the table links there (no browser needed)."""

from __future__ import annotations

import re
import tomllib

from tests.e2e.conftest import ROOT


def test_the_readme_names_the_python_pyproject_requires() -> None:
    need = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["requires-python"]
    version = re.fullmatch(r">=\s*(\d+\.\d+)", need)
    assert version, need
    assert f"Python {version.group(1)} or newer" in (ROOT / "README.md").read_text()


def test_the_readme_and_the_table_point_to_how_to_play() -> None:
    readme = (ROOT / "README.md").read_text()
    assert "How to play" in readme and "`/rules`" in readme
    game = (ROOT / "templates" / "game.html").read_text()
    # The link's words are marked for translation (English is the source text).
    assert re.search(
        r'<a id="rules-link" href="/rules"[^>]*>\{\{ _\("How to play"\) \}\}</a>', game
    )
    rules = ROOT / "templates" / "rules"  # the rules page's text, one file per language
    assert "How to play" in (rules / "en.html").read_text()
    assert "Cómo se juega" in (rules / "es.html").read_text()

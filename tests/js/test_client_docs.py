"""docs/client.md names the client's modules and templates that exist: every `ui/...`,
`lib/...` and `pages/...` module it names is under static/js, every template under templates/,
and the shared placement keys and board bar are where it says both pages take them."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "client.md").read_text()


def test_the_modules_and_templates_named_exist() -> None:
    modules = set(re.findall(r"`((?:ui|lib|pages)/\w+\.mjs)", DOC))
    assert {"ui/placementkeys.mjs", "pages/game.mjs", "pages/learn.mjs"} <= modules
    missing = [m for m in sorted(modules) if not (ROOT / "static" / "js" / m).is_file()]
    assert not missing, missing
    templates = set(re.findall(r"`(?:templates/)?((?:partials/)?\w+\.html)`", DOC))
    assert "partials/board_bar.html" in templates
    missing = [t for t in sorted(templates) if not (ROOT / "templates" / t).is_file()]
    assert not missing, missing


def test_both_pages_take_the_one_copy_of_the_keys_and_the_board_bar() -> None:
    for page, template in (("game", "game.html"), ("learn", "learn.html")):
        script = (ROOT / "static" / "js" / "pages" / f"{page}.mjs").read_text()
        assert 'from "../ui/placementkeys.mjs"' in script
        assert "installPlacementKeys(" in script and "function onKey" not in script
        html = (ROOT / "templates" / template).read_text()
        assert '{% from "partials/board_bar.html" import board_bar %}' in html
        assert 'id="keys"' not in html  # the keys help is the macro's

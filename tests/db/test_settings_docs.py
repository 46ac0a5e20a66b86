"""docs/api.md's configuration table names every setting, with the default the code has."""

from __future__ import annotations

import re
from pathlib import Path

from app.settings import Settings

DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"
ROW = re.compile(r"^\| `([A-Z0-9_]+)` \| (.+?) \|", re.MULTILINE)


def _documented() -> dict[str, str]:
    table = DOC.read_text().split("## Server configuration", 1)[1].split("\n## ", 1)[0]
    return {name: default.strip() for name, default in ROW.findall(table)}


def _shown(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def test_every_setting_is_in_the_table() -> None:
    documented = _documented()
    missing = [name.upper() for name in Settings.model_fields if name.upper() not in documented]
    assert missing == [], missing


def test_the_defaults_in_the_table_are_the_codes() -> None:
    documented = _documented()
    wrong = {}
    for name, field in Settings.model_fields.items():
        shown = documented.get(name.upper(), "")
        literal = re.fullmatch(r"`([^`]*)`", shown)
        if literal is None or field.default is None:
            continue  # described in words ("unset", "generated into ...")
        if literal.group(1) != _shown(field.default):
            wrong[name.upper()] = (literal.group(1), field.default)
    assert wrong == {}, wrong

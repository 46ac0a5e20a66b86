"""Game log lines in a reader's language, from the engine's language-neutral pieces
(`app.engine.events.line`) and the client's catalogues (`static/i18n/*.json`), so the browser
(`static/js/lib/logline.mjs`) and the server word a line the same way."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from app.engine.events import ENGLISH, render
from app.i18n.context import current_language
from app.i18n.languages import DEFAULT_LANGUAGE

CATALOGUES = Path(__file__).resolve().parents[2] / "static" / "i18n"


@cache
def wording(language: str) -> dict[str, str]:
    """The log's words in `language`, English where a key is missing."""
    if language == DEFAULT_LANGUAGE:
        return ENGLISH
    own = json.loads((CATALOGUES / f"{language}.json").read_text(encoding="utf-8"))
    return {key: own.get(key, text) for key, text in ENGLISH.items()}


def render_line(pieces: list[list[Any]], language: str | None = None, me: int | None = None) -> str:
    """A log line's text in `language` (default: the current one), for viewer `me` (a seat:
    their own clauses in their own form, "Colocaste ...") or for anyone (None)."""
    return render(pieces, wording(language or current_language()), me)

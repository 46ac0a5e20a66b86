"""The gettext catalogues, read once from their .po files (no compile step to forget)."""

from __future__ import annotations

from functools import cache
from io import BytesIO
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations

from app.engine.events import LineText
from app.engine.text import Text, without_rule_ids
from app.i18n.context import current_language
from app.i18n.languages import DEFAULT_LANGUAGE

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DOMAIN = "messages"


def po_path(language: str) -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def translations(language: str) -> NullTranslations:
    """The catalogue for `language` (English is the source: it needs none)."""
    path = po_path(language)
    if language == DEFAULT_LANGUAGE or not path.exists():
        return NullTranslations()
    with path.open("rb") as source:
        catalog = read_po(source, locale=language)
    compiled = BytesIO()
    # Fuzzy entries are guesses a translator has not confirmed: English is better than a guess.
    write_mo(compiled, catalog, use_fuzzy=False)
    compiled.seek(0)
    return Translations(compiled, domain=DOMAIN)


def gettext(message: str) -> str:
    """`message` in the current language, without the rulings' ids the source cites."""
    return without_rule_ids(translations(current_language()).gettext(message))


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for `n`, in the current language."""
    return without_rule_ids(translations(current_language()).ngettext(singular, plural, n))


def translate(text: str) -> str:
    """Text built for people (a `Text`, or a plain marked sentence) in the current language."""
    if isinstance(text, Text):
        return without_rule_ids(text.render(gettext))
    if isinstance(text, LineText):
        from app.i18n.log_lines import render_line  # reads the client catalogues: only when used

        return render_line(text.pieces, me=text.me)
    return gettext(text)


def translate_reason(reason: dict | None) -> dict | None:
    """A refusal's reason (`{code, facts, text}`) with its text in the current language."""
    if reason is None or "text" not in reason:
        return reason
    return {**reason, "text": translate(reason["text"])}


def translate_outcome(outcome: dict) -> dict:
    """A placement's outcome (app.engine.preview) with its notes in the current language."""
    return {**outcome, "notes": [translate(note) for note in outcome["notes"]]}

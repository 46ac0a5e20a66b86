"""Which language a reader gets (the switch's choice, else Accept-Language, else English)."""

from __future__ import annotations

import pytest

from app.i18n import Text, choose_language, t_, translate, use_language
from app.i18n.formats import format_number


@pytest.mark.parametrize(
    ("chosen", "header", "expected"),
    [
        (None, None, "en"),
        (None, "es-CL,es;q=0.9,en;q=0.8", "es"),
        (None, "de, fr;q=0.5", "en"),
        (None, "de, es;q=0.1", "es"),
        (None, "en;q=0, es", "es"),
        (None, "es;q=0.2, en;q=0.8", "en"),
        (None, "*", "en"),
        ("en", "es", "en"),
        ("es", None, "es"),
        ("es-MX", None, "es"),
        ("klingon!!", "es", "es"),
        (None, "es;q=abc, en", "en"),
        (None, "x" * 5000, "en"),
    ],
)
def test_choose_language(chosen: str | None, header: str | None, expected: str) -> None:
    assert choose_language(chosen, header) == expected


def test_text_is_english_where_it_is_written_and_translated_where_it_is_shown() -> None:
    text = t_("game {id} has not started", id=7)
    assert isinstance(text, Text) and text == "game 7 has not started"
    with use_language("es"):
        assert translate(text) == "la partida 7 no ha empezado"
    assert translate(text) == "game 7 has not started"


def test_numbers_follow_the_language() -> None:
    with use_language("es"):
        assert format_number(1234.5) == "1.234,5"
    assert format_number(1234.5) == "1,234.5"

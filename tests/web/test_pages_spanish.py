"""Every page's own text changes with the language: rendered in English and in Spanish, a page
shows no sentence of the English one unchanged (besides names that stay the same)."""

from __future__ import annotations

from collections.abc import Callable
from html.parser import HTMLParser

import pytest
from fastapi.testclient import TestClient

# SQLite alone: nothing checked here differs by dialect (docs/testing.md, Postgres).
pytestmark = pytest.mark.one_database

PAGES = [
    "/",
    "/rules",
    "/leaderboard",
    "/account",
    "/join/abc123",
    "/games/1",
    "/games/1/replay",
    "/watch",
    "/tv",
    "/learn",
]
# Words that are the same in both languages: the game's and site's names, the languages' own
# names on the switch, symbols.
SAME_IN_BOTH = {
    "Sea Dragons",
    "Online",
    "Sea Dragons Online",
    "Sea Dragons TV",
    "Sea Dragons TV · Sea Dragons Online",
    "English",
    "Español",
    "TV",
    "Bots",
    "Tutorial",
    "Chat",
}


class _Texts(HTMLParser):
    """The text a person reads: text nodes, titles, labels, placeholders, alt texts."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._skip += 1
        for name, value in attrs:
            if name in ("title", "aria-label", "placeholder", "alt") and value:
                self.texts.append(value.strip())

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip and data.strip():
            self.texts.append(" ".join(data.split()))


def _texts(html: str) -> list[str]:
    parser = _Texts()
    parser.feed(html)
    # One or two letters are a key name (R, F) or a milestone (A, B): the same in both.
    return [t for t in parser.texts if sum(c.isalpha() for c in t) > 2 and t not in SAME_IN_BOTH]


@pytest.mark.parametrize("path", PAGES)
def test_a_spanish_page_has_no_english_left(
    client_factory: Callable[..., TestClient], path: str
) -> None:
    client = client_factory()
    english = client.get(path, headers={"accept-language": "en"})
    spanish = client.get(path, headers={"accept-language": "es"})
    assert english.status_code == spanish.status_code == 200
    left = sorted(set(_texts(english.text)) & set(_texts(spanish.text)))
    assert left == [], f"{path}: not translated: {left}"

"""The end of a game puts the result first (against the engine-backed stub): the winner and the
final scores at the top of the side column (or above the board on a phone), then the rematch,
then the rest; in English at 1366x768 and in Spanish on a phone."""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.engine import final_scores
from tests.e2e.helpers import shot, watch_console
from tests.e2e.stub_server import Table

pytestmark = pytest.mark.e2e

LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
WINS = {"en": "{name} wins!", "es": "¡{name} gana!"}
NAMES = ["Ann", "Bo", "Cy"]

TOPS = """sels => sels.map(s => {
  const e = document.querySelector(s);
  return e && !e.hidden ? e.getBoundingClientRect().top + scrollY : null;
})"""


def _finished() -> Table:
    t = Table(3, 3, expansion=True)
    t.advance(2000, random.Random(3))
    assert t.state.over
    return t


@pytest.mark.parametrize(
    ("lang", "viewport"), [("en", LAPTOP), ("es", PHONE)], ids=["en-1366", "es-phone"]
)
def test_the_winner_and_the_scores_come_first(
    browser: Any, stub_url: str, stub_tables: dict[int, Any], lang: str, viewport: dict[str, int]
) -> None:
    t = stub_tables[1] = _finished()
    winners = final_scores(t.state)["winners"]
    phone = viewport == PHONE
    ctx = browser.new_context(
        viewport=viewport,
        has_touch=phone,
        is_mobile=phone,
        locale="es-ES" if lang == "es" else "en-GB",
    )
    page = ctx.new_page()
    errors = watch_console(page)
    page.goto(f"{stub_url}/games/1")
    winner = page.wait_for_selector("#result #scores .winner")
    if len(winners) == 1:
        assert winner.inner_text() == WINS[lang].format(name=NAMES[winners[0]])
    page.wait_for_selector("#rematch:not([hidden])")
    # Seen at once, without scrolling: the winner's line is inside the first screen.
    box = winner.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"], box
    # Then the scores' table, the rematch, and only then the decision panel and the hand.
    scores, rematch, actions, hand = page.evaluate(
        TOPS, ["#scores", "#rematch", "#actions", "#hand"]
    )
    assert scores < rematch, (scores, rematch)
    if not phone:  # on a phone the sheet is folded at the bottom of the screen
        assert rematch < actions < hand, (rematch, actions, hand)
    board_top = page.evaluate("() => document.getElementById('board').getBoundingClientRect().top")
    if phone:
        assert scores < board_top + page.evaluate("() => scrollY")  # above the board
    # The top bar is one line, in both languages, on a phone too.
    assert page.evaluate("() => document.querySelector('.topbar').offsetHeight") <= 48
    shot(page, f"end-first-{lang}-{viewport['width']}", full_page=False)
    assert errors == []
    ctx.close()

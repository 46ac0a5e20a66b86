"""The game page against the engine-backed stub API: drawing, placing by pointer and keyboard."""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.services.tables.names import bot_name
from tests.e2e.helpers import shot, watch_console
from tests.e2e.stub_server import Table

pytestmark = pytest.mark.e2e


def test_mid_game_table_renders(browser: Any, stub_url: str, stub_tables: dict[int, Any]) -> None:
    """A 4-player game mid-way: board, panels, markets, hand and actions all show up."""
    t = Table(4, 7)
    t.advance(40, random.Random(7))
    stub_tables[1] = t
    page = browser.new_page(viewport={"width": 1400, "height": 950}, device_scale_factor=2)
    errors = watch_console(page)
    page.goto(f"{stub_url}/games/1")
    page.wait_for_selector("#players .player")
    page.wait_for_selector("#hand .card.pattern")
    assert page.locator("#players .player").count() == 4
    assert page.locator("#conn").inner_text() in ("Live (polling)", "Live")
    # HiDPI: the canvas backing store is devicePixelRatio times its CSS size.
    css_w, px_w = page.evaluate(
        "() => [document.getElementById('board').getBoundingClientRect().width,"
        " document.getElementById('board').width]"
    )
    assert px_w == round(css_w * 2)
    shot(page, "table-mid-game")
    page.keyboard.press("1")
    page.keyboard.press("n")
    page.wait_for_selector(".placing .status.ok")
    shot(page, "table-ghost-legal", full_page=False)
    assert not errors, errors
    page.close()


def test_unknown_actions_get_buttons_and_spectators_are_read_only(
    browser: Any, stub_url: str, stub_tables: dict[int, Any]
) -> None:
    """Every listed action is reachable, even a type the client has never heard of."""
    t = Table(3, 3)
    t.advance(6, random.Random(3))
    t.extra_actions = [{"type": "summon_kraken", "depth": 3}]
    stub_tables[1] = t
    page = browser.new_page(viewport={"width": 1300, "height": 900})
    page.goto(f"{stub_url}/games/1")
    button = page.wait_for_selector("button.act-summon_kraken")
    assert button.inner_text() == "Summon kraken (depth 3)"
    page.goto(f"{stub_url}/games/1?code=watch")
    page.wait_for_selector("#players .player")
    assert page.locator("#actions button").count() == 0
    assert "watching" in page.inner_text("#hand")
    assert page.evaluate("() => window.seadragons.state.seat") is None
    page.close()


def test_expansion_reward_board(browser: Any, stub_url: str, stub_tables: dict[int, Any]) -> None:
    """Treasures of the Deep: the Reward Board with tracks, tails, milestones and bonus tiles."""
    t = Table(4, 21, expansion=True)
    t.advance(24, random.Random(21))
    stub_tables[1] = t
    page = browser.new_page(viewport={"width": 1400, "height": 950})
    errors = watch_console(page)
    page.goto(f"{stub_url}/games/1")
    page.wait_for_selector("#reward .rw-track")
    assert page.locator("#reward .rw-track").count() == 3
    assert page.locator("#reward .tail").count() == 12  # 4 players x 3 tracks
    assert page.locator("#reward .mark-A").count() == 3
    shot(page, "table-expansion")
    assert not errors, errors
    page.close()


def test_keyboard_only_placement(browser: Any, stub_url: str, stub_tables: dict[int, Any]) -> None:
    """Tab, digits, arrows, R, F, N, H and Enter alone place a Dragon with a chosen head."""
    t = Table(2, 9)
    stub_tables[1] = t
    page = browser.new_page(viewport={"width": 1300, "height": 900})
    page.goto(f"{stub_url}/games/1")
    page.wait_for_selector("#hand .card.pattern")
    page.keyboard.press("Tab")
    page.keyboard.press("2")
    for key in ("ArrowLeft", "ArrowUp", "r", "f", "n"):
        page.keyboard.press(key)
    page.wait_for_selector(".placing .status.ok")
    page.keyboard.press("Enter")
    page.keyboard.press("h")
    head = page.evaluate("() => window.seadragons.st.headCell(window.seadragons.state)")
    page.keyboard.press("Enter")
    page.wait_for_function("() => window.seadragons.state.version === 1")
    dragon = t.state.dragons[-1]
    assert list(dragon.head) == head
    # After placing, the draw buttons are reachable with the keyboard (Tab then Enter).
    page.wait_for_selector("button.act-draw")
    page.focus("button.act-draw >> nth=0")
    page.keyboard.press("Enter")
    page.wait_for_function("() => window.seadragons.state.version === 2")
    page.close()


def test_bot_seats_are_marked_and_a_stand_in_can_be_sent_away(
    browser: Any, stub_url: str, stub_tables: dict[int, Any]
) -> None:
    """Bot seats show a robot badge with the level; a bot playing my seat can be sent away."""
    t = Table(3, 5)
    t.advance(3, random.Random(5))
    me = t.state.turn.seat
    other = (me + 1) % 3
    t.bots = {
        me: {"level": "random", "stand_in": True, "left": True},
        other: {"level": "greedy", "stand_in": False},
    }
    stub_tables[1] = t
    page = browser.new_page(viewport={"width": 1300, "height": 900})
    errors = watch_console(page)
    page.goto(f"{stub_url}/games/1")
    panel = page.wait_for_selector(f"#players .player[data-seat='{other}']")
    # Each bot seat has a name of its own; the level shows beside it.
    assert panel.query_selector(".name").inner_text() == bot_name(1, other)
    assert panel.query_selector(".badge-seat.bot").inner_text() == "bot · casual"
    mine = page.locator(f"#players .player[data-seat='{me}']")
    assert mine.locator(".badge-seat.bot").inner_text() == "bot (beginner) plays"
    assert mine.locator(".badge-seat.left").count() == 1
    notice = page.wait_for_selector("#actions .stand-in")
    assert "beginner bot is playing your seat" in notice.inner_text()
    assert page.locator("#hand .card.pattern.can").count() == 0
    shot(page, "table-bot-stand-in")
    page.click("#actions .stand-in button")
    # The seat is mine again: the notice and the badges go, and my decisions come back.
    page.wait_for_selector("#actions .stand-in", state="detached", timeout=10000)
    page.wait_for_selector("#hand .card.pattern.can", timeout=10000)
    assert mine.locator(".badge-seat").count() == 0
    assert page.locator("#actions .stand-in").count() == 0
    assert not errors, errors
    page.close()

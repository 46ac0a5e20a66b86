"""The game page against the engine-backed stub API: drawing, placing by pointer and keyboard."""

from __future__ import annotations

import random
from typing import Any

import pytest

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

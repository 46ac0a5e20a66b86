"""Why not here, in the browser against the real server: the ghost on an illegal spot shows the
engine's reason under it (R-21), and moving to another illegal spot shows that spot's reason."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.helpers import shot, watch_console
from tests.e2e.play import CELL_CENTRE, PLACEABLE_CARDS, sign_in_as_guest, wait_my_move
from tests.e2e.test_play_real_server import create_table

pytestmark = pytest.mark.e2e

TIP = ".board-wrap .reason-tip:not([hidden])"


def _hover(page: Any, cell: list[int]) -> None:
    x, y = page.evaluate(CELL_CENTRE, cell)
    page.mouse.move(x, y)


def test_hovering_an_illegal_spot_reads_the_reason(browser: Any, real_server: str) -> None:
    ctx = browser.new_context(viewport={"width": 1400, "height": 950})
    page = ctx.new_page()
    errors = watch_console(page)
    sign_in_as_guest(page, real_server, "Nessie")
    create_table(page, players=2, bots=1, level="random")
    page.click("#waiting button.primary:has-text('Start')", timeout=15000)
    page.wait_for_selector("#hand .card.pattern", timeout=20000)
    wait_my_move(page)
    card = page.evaluate(PLACEABLE_CARDS)[0]
    page.click(f"#hand button[data-card='{card}']")

    # The far corner: empty water, touching neither the island nor a Dragon.
    _hover(page, [1, 1])
    tip = page.wait_for_selector(TIP, timeout=10000)
    assert tip.inner_text() == "Not next to the Central Island or another player's Dragon (R-21)."
    assert (
        page.evaluate("() => window.seadragons.st.currentAction(window.seadragons.state)") is None
    )
    shot(page, "reason-not-touching", full_page=False)

    # On the island itself: another reason, for this spot.
    _hover(page, [7, 7])
    page.wait_for_function(
        "() => document.querySelector('.reason-tip:not([hidden])')?.textContent"
        ".startsWith('The Central Island is not water')",
        timeout=10000,
    )
    # A legal spot: no reason shows.
    page.click("button[data-key=next]")
    page.wait_for_selector(".board-wrap .reason-tip[hidden]", state="attached", timeout=10000)
    assert errors == []
    ctx.close()

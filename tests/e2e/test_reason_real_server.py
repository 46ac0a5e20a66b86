"""Why not here and hints, in the browser against the real server: the ghost on an illegal spot
shows the engine's reason in the decision panel, clear of the board (R-21), another illegal
spot shows its own reason; the Hint button (an unrated table) puts the ghost on the expert's
placement, fixed, with its reasons beside the board (which does not move), gone on Cancel."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.helpers import shot, watch_console
from tests.e2e.play import CELL_CENTRE, PLACEABLE_CARDS, sign_in_as_guest, wait_my_move
from tests.e2e.test_play_real_server import create_table

pytestmark = pytest.mark.e2e

TIP = "#actions .reason-tip:not([hidden])"
BOARD_TOP = "() => document.getElementById('board').getBoundingClientRect().top"
# Whether an element's box and the board's overlap (a tip over the board hides its squares).
OVER_BOARD = """sel => {
  const a = document.querySelector(sel).getBoundingClientRect();
  const b = document.getElementById('board').getBoundingClientRect();
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}"""


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
    assert tip.inner_text() == "Not next to the Central Island or another player's Dragon."
    assert (
        page.evaluate("() => window.seadragons.st.currentAction(window.seadragons.state)") is None
    )
    assert page.evaluate(OVER_BOARD, TIP) is False  # beside the board, in the decision panel
    shot(page, "reason-not-touching", full_page=False)

    # On the island itself: another reason, for this spot.
    _hover(page, [7, 7])
    page.wait_for_function(
        "() => document.querySelector('.reason-tip:not([hidden])')?.textContent"
        ".startsWith('The Central Island is not water')",
        timeout=10000,
    )
    # A legal spot: no reason shows.
    page.click("#actions button[data-key=next]")
    page.wait_for_selector("#actions .reason-tip[hidden]", state="attached", timeout=10000)

    # The hint: the expert's move, drawn as the ghost on its squares and fixed there; its
    # reasons beside the board, which stays where it was.
    top = page.evaluate(BOARD_TOP)
    page.click("#hint-button")
    box = page.wait_for_selector("#hint-box:not([hidden])", timeout=60000)
    text = box.inner_text()
    assert text.startswith("The expert would"), text
    hint = page.evaluate(
        """async () => {
      const s = window.seadragons.state;
      const r = await fetch(`/api/games/${s.gameId}/hint`, {method: "POST",
        headers: {"content-type": "application/json"}, body: JSON.stringify({version: s.version})});
      return r.json();
    }"""
    )  # the same position gets the same hint: read it to compare with the ghost
    if hint["action"]["type"] == "place":
        ghost = page.evaluate("() => window.seadragons.ghostKey()")
        key = " ".join(f"{r},{c}" for r, c in sorted(hint["action"]["cells"]))
        assert page.evaluate("() => window.seadragons.state.locked") is True
        assert ghost == key
    assert hint["reasons"][0] in text
    assert page.evaluate(BOARD_TOP) == top
    assert page.evaluate(OVER_BOARD, "#hint-box") is False
    shot(page, "hint-ghost", full_page=False)
    if hint["action"]["type"] == "place":
        # Cancel takes the ghost away, and the reasons that described it with it.
        page.click("#actions [data-key=cancel]")
        page.wait_for_selector("#hint-box", state="hidden")
    assert errors == []
    ctx.close()

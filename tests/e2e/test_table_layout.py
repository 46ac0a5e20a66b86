"""The table layout against the engine-backed stub (which sends the coming CSP header):
live realm majorities (panel, board overlay, final table), the phone layout, the desktop
layout, and the smaller things (the "Live" badge, card codes in the log, legends, Keys)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.engine import final_scores, to_act, view_for
from tests.e2e.helpers import shot, watch_console
from tests.e2e.play import CELL_CENTRE, PLACEABLE_CARDS
from tests.e2e.stub_server import Table

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}
DESKTOPS = [{"width": 1400, "height": 900}, {"width": 1280, "height": 800}]

NO_SIDEWAYS_SCROLL = "() => document.documentElement.scrollWidth <= window.innerWidth"
BOARD_BOX = (
    "() => JSON.parse(JSON.stringify(document.getElementById('board').getBoundingClientRect()))"
)
CANVAS_PIXELS = "() => document.getElementById('board').toDataURL()"

# Every element inside an expansion player panel lies within the panel, and no text is cut.
CLIPPED_IN_PLAYERS = """() => {
  const out = [];
  for (const panel of document.querySelectorAll('#players .player')) {
    const box = panel.getBoundingClientRect();
    for (const el of panel.querySelectorAll('*')) {
      const r = el.getBoundingClientRect();
      if (!r.width) continue;
      if (r.right > box.right + 0.5 || r.left < box.left - 0.5) out.push(el.className + ' outside');
      if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflow !== 'visible')
        out.push(el.className + ' cut: ' + el.textContent);
    }
  }
  return out;
}"""


def _expansion_table(players: int = 5, seed: int = 5, moves: int = 30) -> Table:
    t = Table(players, seed, expansion=True)
    t.advance(moves, random.Random(seed))
    return t


def test_realm_majorities_live_on_a_panel_and_the_board(
    browser: Any, stub_url: str, stub_tables: dict[int, Any]
) -> None:
    """Point 5: the panel shows the engine's per-realm counts; the overlay toggles on the board."""
    t = Table(4, 7)
    t.advance(40, random.Random(7))
    stub_tables[1] = t
    seat = to_act(t.state)
    realms = view_for(t.state, seat)["realms"]
    page = browser.new_page(viewport=DESKTOPS[0])
    errors = watch_console(page)
    page.goto(f"{stub_url}/games/1")
    page.wait_for_selector("#realms table.realms tbody tr")
    assert page.locator("#realms tbody tr").count() == 4
    for r in realms:
        row = page.locator(f"#realms tr[data-realm='{r['realm']}']")
        assert row.locator("td.num").inner_text() == str(r["whirlpools"])
        for x in r["seats"]:
            cell = row.locator(f"td[data-seat='{x['seat']}']")
            assert cell.locator("b").inner_text() == (str(x["dragons"]) if x["dragons"] else "·")
            lead = "lead" in (cell.get_attribute("class") or "")
            assert lead == (x["seat"] in r["leaders"]), (r["realm"], x)
            if x["vp"]:
                assert cell.locator(".vp-now").inner_text() == f"{x['vp']} VP"
    assert any(r["leaders"] for r in realms)  # the position has something to show
    # The overlay draws the same figures on the board: the canvas changes, and changes back.
    page.wait_for_function("() => !window.seadragons.state.pending")
    plain = page.evaluate(CANVAS_PIXELS)
    page.click("#overlay-btn")
    assert page.get_attribute("#overlay-btn", "aria-pressed") == "true"
    page.wait_for_function(f"p => ({CANVAS_PIXELS})() !== p", arg=plain)
    shot(page, "majorities-overlay", full_page=False)
    page.locator("#board").focus()
    page.keyboard.press("m")  # the key toggles it too
    assert page.get_attribute("#overlay-btn", "aria-pressed") == "false"
    page.wait_for_function(f"p => ({CANVAS_PIXELS})() === p", arg=plain)
    assert not errors, errors
    page.close()


def test_final_table_per_realm_and_no_live_badge(
    browser: Any, stub_url: str, stub_tables: dict[int, Any]
) -> None:
    """Points 5 and 8: each realm's majority VP in the final table; the badge says it is over."""
    t = Table(3, 11)
    t.advance(2000, random.Random(11))
    assert t.state.over
    stub_tables[1] = t
    scores = final_scores(t.state)
    page = browser.new_page(viewport=DESKTOPS[1])
    errors = watch_console(page)
    page.goto(f"{stub_url}/games/1")
    page.wait_for_selector("#scores table.scores tr.sub")
    assert page.locator("#scores tr.sub").count() == 4
    for realm, whirlpools in scores["realm_whirlpools"].items():
        row = page.locator(f"#scores tr.sub[data-realm='{realm}']")
        # The VP; beside them the Dragons counted (with the Hidden Dragons, test_table_truth).
        cells = row.locator("td .realm-vp").all_inner_texts()
        assert cells == [str(p["realms"][realm] or "·") for p in scores["players"]], realm
        assert f"{whirlpools} Whirlpool" in row.locator("th").inner_text()
    page.wait_for_function("() => document.getElementById('conn').dataset.status === 'over'")
    assert page.inner_text("#conn") == "Game over"
    assert "Live" not in page.inner_text(".board-bar")
    shot(page, "final-scores-per-realm")
    assert not errors, errors
    page.close()


def test_phone_hand_and_decision_in_reach_by_touch(
    browser: Any, stub_url: str, stub_tables: dict[int, Any]
) -> None:
    """Point 6: at 390x844 the board, the hand and the decision share the screen; placing is
    done by taps and buttons; no sideways scroll; no Keys link; the panel follows the finger."""
    t = _expansion_table()
    stub_tables[1] = t
    v0, n0 = t.version, len(t.actions)
    ctx = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, device_scale_factor=2)
    page = ctx.new_page()
    errors = watch_console(page)
    page.goto(f"{stub_url}/games/1")
    page.wait_for_selector("#hand .card.pattern.can")
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    assert not page.is_visible("#keys-btn")
    board = page.evaluate(BOARD_BOX)
    assert board["top"] >= 0 and board["bottom"] <= PHONE["height"], board
    for sel in ("#hand .card.pattern >> nth=0", "#actions [data-slot=turn]"):
        box = page.locator(sel).bounding_box()
        assert box and box["y"] >= board["bottom"] - 1, (sel, box, board)
        assert box["y"] + box["height"] <= PHONE["height"], (sel, box)
    shot(page, "phone-table", full_page=False)
    card = page.evaluate(PLACEABLE_CARDS)[0]
    page.tap(f"#hand button[data-card='{card}']")
    page.wait_for_selector("#actions .placing")
    for key in ("rotate", "mirror", "next", "confirm"):
        box = page.locator(f"#actions button[data-key={key}]").bounding_box()
        assert box and box["y"] + box["height"] <= PHONE["height"], (key, box)
        assert box["height"] >= 40, (key, box)  # a finger-sized target
    assert page.evaluate(BOARD_BOX) == board  # the board did not move away
    page.tap("#actions button[data-key=rotate]")
    assert page.evaluate("() => window.seadragons.state.rot") == 1
    page.tap("#actions button[data-key=mirror]")
    assert page.evaluate("() => window.seadragons.state.mirrored") is True
    # A tap moves the ghost; the panel describes it there (here: not legal, in a corner).
    page.touchscreen.tap(*page.evaluate(CELL_CENTRE, [0, 0]))
    page.wait_for_selector("#actions .placing .status.bad")
    assert "tap" in page.inner_text("#actions .placing .status")
    page.tap("#actions button[data-key=next]")
    page.wait_for_selector("#actions .placing .status.ok")
    anchor = page.evaluate("() => window.seadragons.state.anchor")
    page.touchscreen.tap(*page.evaluate(CELL_CENTRE, anchor))  # a second tap on it fixes it
    page.wait_for_selector("#actions button[data-key=head]")
    shot(page, "phone-placing", full_page=False)
    page.tap("#actions button[data-key=confirm]")
    page.wait_for_function("v => window.seadragons.state.version > v", arg=v0)
    sent = t.actions[n0][1]
    assert sent["type"] == "place" and sent["card"] == card
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    # The sheet folds down to its first line, and the page never scrolls sideways.
    page.tap("#sheet-handle")
    page.wait_for_selector("#sheet.folded")
    assert not page.is_visible("#hand")
    shot(page, "phone-sheet-folded", full_page=False)
    page.tap("#sheet-handle")
    page.wait_for_selector("#hand .card", state="visible")
    shot(page, "phone-table-full", full_page=True)
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    assert not errors, errors
    ctx.close()


@pytest.mark.parametrize("viewport", DESKTOPS, ids=["1400x900", "1280x800"])
def test_desktop_board_stays_in_view_and_panels_are_whole(
    browser: Any, stub_url: str, stub_tables: dict[int, Any], viewport: dict[str, int]
) -> None:
    """Point 7: scrolling down to the log keeps the whole board on screen; the expansion
    player panels clip nothing; no sideways scroll."""
    t = _expansion_table()
    stub_tables[1] = t
    page = browser.new_page(viewport=viewport)
    errors = watch_console(page)
    page.goto(f"{stub_url}/games/1")
    page.wait_for_selector("#players .player .tag.ancestral")
    page.wait_for_selector("#log li")
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    name = f"desktop-{viewport['width']}x{viewport['height']}"
    shot(page, name, full_page=False)
    shot(page, f"{name}-full")
    for target in ("#players", "#markets", "#chat-form"):
        page.locator(target).scroll_into_view_if_needed()
        page.evaluate("() => new Promise(r => requestAnimationFrame(() => r()))")
        board = page.evaluate(BOARD_BOX)
        assert board["top"] >= 0 and board["bottom"] <= viewport["height"], (target, board)
        assert board["height"] >= 560, board  # and still a good size
        # The board's own bar (connection, Majorities) stays clear of the sticky top bar.
        bar, top = page.evaluate(
            "() => [document.querySelector('.board-bar').getBoundingClientRect().top,"
            " document.querySelector('.topbar').getBoundingClientRect().bottom]"
        )
        assert bar >= top, (target, bar, top)
    assert page.evaluate("() => window.scrollY") > 0  # the page did scroll
    shot(page, f"{name}-scrolled", full_page=False)
    assert page.evaluate(CLIPPED_IN_PLAYERS) == []
    assert not errors, errors
    page.close()


def test_log_codes_legends_and_keys_under_csp(
    browser: Any, stub_url: str, stub_tables: dict[int, Any]
) -> None:
    """Point 8: card codes in the log preview the card; legends for the Reward Board and the
    legal-spot dots; the Keys button works without an inline handler (CSP in force)."""
    t = _expansion_table(4, 21, 24)
    stub_tables[1] = t
    page = browser.new_page(viewport=DESKTOPS[0])
    errors = watch_console(page)
    page.goto(f"{stub_url}/games/1")
    page.wait_for_selector("#hand .card.pattern.can")
    code = page.wait_for_selector("#log .code-pattern")
    assert code.get_attribute("title").endswith("squares)")
    code.scroll_into_view_if_needed()
    code.hover()
    page.wait_for_selector(".card-peek .shape i")
    # The preview is whole on screen and on top (a scrolling log does not clip it).
    on_top = page.evaluate(
        """() => { const peek = document.querySelector('.card-peek');
          const r = peek.getBoundingClientRect();
          peek.style.pointerEvents = 'auto';  // elementFromPoint skips pointer-events: none
          const hit = document.elementFromPoint(r.left + r.width / 2, r.top + 4);
          peek.style.pointerEvents = '';
          return r.top >= 0 && r.bottom <= innerHeight && !!hit?.closest('.card-peek'); }"""
    )
    assert on_top
    assert page.inner_text(".card-peek b") == code.inner_text()
    shot(page, "log-card-preview", full_page=False)
    page.mouse.move(5, 5)
    page.wait_for_selector(".card-peek", state="hidden")
    legend = page.inner_text("#reward .rw-legend")
    for words in ("HT", "Hidden Treasure", "2 Gold", "Arrow", "milestone", "tail"):
        assert words in legend, words
    page.click(f"#hand button[data-card='{page.evaluate(PLACEABLE_CARDS)[0]}']")
    assert "squares of legal spots" in page.inner_text("#actions .ghost-legend")
    assert not page.is_visible("#keys")
    page.click("#keys-btn")
    page.wait_for_selector("#keys", state="visible")
    assert page.get_attribute("#keys-btn", "aria-expanded") == "true"
    page.click("#keys-btn")
    page.wait_for_selector("#keys", state="hidden")
    assert not errors, errors  # a CSP violation would be logged as an error
    page.close()


MARK_BUTTONS = """() => { window.__kept = [...document.querySelectorAll('#actions button')];
  window.__kept.forEach(b => { b.__mark = 1; }); return window.__kept.length; }"""
BUTTONS_KEPT = """() => window.__kept.every(b => b.isConnected) &&
  [...document.querySelectorAll('#actions button')].every(b => b.__mark === 1)"""


def test_a_new_document_never_replaces_the_decision_buttons(
    browser: Any, stub_url: str, stub_tables: dict[int, Any]
) -> None:
    """Point 2 kept for the new parts: a new version that leaves my decision as it was (as a
    bot's move or a chat line may) replaces none of the buttons, while placing or passing."""
    t = Table(3, 4)
    stub_tables[1] = t
    page = browser.new_page(viewport=DESKTOPS[1])
    errors = watch_console(page)
    page.goto(f"{stub_url}/games/1")
    page.wait_for_selector("#hand .card.pattern.can")
    page.click(f"#hand button[data-card='{page.evaluate(PLACEABLE_CARDS)[0]}']")
    page.wait_for_selector("#actions .placing button[data-key=rotate]")
    for step in ("placing", "passing"):
        if step == "passing":
            page.click("#actions button.pass-open")
            page.wait_for_selector("#actions .pass-discard")
        assert page.evaluate(MARK_BUTTONS) >= 3
        t.version += 1  # the same position under a new version
        page.wait_for_function("v => window.seadragons.state.version === v", arg=t.version)
        page.evaluate("() => new Promise(r => requestAnimationFrame(() => r()))")
        assert page.evaluate(BUTTONS_KEPT), step
    assert not errors, errors
    page.close()

"""WCAG 2.2 AA on the table, in every kind of decision: axe-core (vendored, tests/e2e/vendor)
finds no serious or critical violation at desktop and phone sizes, with the text board shown and
the colour-blind palette on too; on the phone the focused control is never hidden behind the
bottom sheet; every target is at least 24x24 CSS px (axe's target-size rule, and a check of
every button's box). Against the engine-backed stub (the real server's pages: axe_pages)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from app.engine import legal_actions, to_act
from tests.e2e.axe import AXE_VERSION, VENDOR, assert_no_blocking
from tests.e2e.helpers import ARTIFACTS, settle, shot, watch_console
from tests.e2e.stub_server import Table

pytestmark = pytest.mark.e2e

DESKTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}

# Buttons, links and form controls smaller than 24x24 CSS px that have no 24 px circle of their
# own (WCAG 2.2 SC 2.5.8's spacing exception is left to axe); inline links in text are exempt.
SMALL_TARGETS = """() => [...document.querySelectorAll(
    'button, [role=button], select, input:not([type=hidden]), summary')]
  .map(e => [e, e.getBoundingClientRect()])
  .filter(([e, r]) => r.width && r.height && (r.width < 24 || r.height < 24)
                      && getComputedStyle(e).visibility !== 'hidden')
  .map(([e, r]) => `${e.id || e.className || e.tagName} `
                   + `${Math.round(r.width)}x${Math.round(r.height)}`)"""
READY = """() => window.seadragons.state.doc
  && window.seadragons.st.legalOf(window.seadragons.state).length"""

# On one column: the focused element's box against the sheet's top (the sheet covers the page).
FOCUS_HIDDEN = """() => {
  const el = document.activeElement, sheet = document.getElementById('sheet');
  if (!el || el === document.body || !sheet || sheet.contains(el)) return null;
  if (getComputedStyle(sheet).position !== 'fixed') return null;
  const r = el.getBoundingClientRect(), top = sheet.getBoundingClientRect().top;
  return r.top >= top - 1 ? {el: el.id || el.className, top: r.top, sheet: top} : null;
}"""


def _positions() -> dict[str, tuple[Table, str | None]]:
    """A table in each kind of decision, and how to open it on the page (a selector to press)."""

    def of(kind: str) -> Any:
        return lambda s, acts: any(a["type"] == kind for a in acts)

    place = Table(3, 4)
    return {
        "place": (place, None),
        "mission": (Table.find(3, of("mission")), "#markets button.card.mission.can"),
        "pass": (Table(3, 5), "#actions button[data-key=pass-open]"),
        "draw": (Table.find(3, of("draw")), None),
        "keep-reef": (
            Table.find(3, lambda s, acts: sum(a["type"] == "keep_reef" for a in acts) >= 2),
            None,
        ),
        "tail": (
            Table.find(3, lambda s, acts: sum(a["type"] == "choose_tail" for a in acts) > 1, True),
            None,
        ),
        "treasure": (
            Table.find(
                3, lambda s, acts: {"decline", "use_treasure"} <= {a["type"] for a in acts}, True
            ),
            None,
        ),
    }


def _finished() -> Table:
    t = Table(3, 11)
    t.advance(2000, random.Random(11))
    assert t.state.over
    return t


def _tab_through(page: Any, where: str, presses: int = 45) -> None:
    """From the top of the page, Tab on: no control that takes focus is left behind the sheet
    (the players' panels and the markets lie under it before the page scrolls)."""
    page.evaluate("() => window.scrollTo(0, 0)")
    page.locator("#board").focus()
    hidden = []
    for _ in range(presses):
        page.keyboard.press("Tab")
        page.evaluate("() => new Promise(r => requestAnimationFrame(r))")
        hidden.append(page.evaluate(FOCUS_HIDDEN))
    assert [h for h in hidden if h] == [], (where, hidden)
    page.evaluate("() => window.scrollTo(0, 0)")


def _check(page: Any, where: str, log: dict[str, Any], phone: bool) -> None:
    settle(page)
    assert_no_blocking(page, where, log)
    small = page.evaluate(SMALL_TARGETS)
    assert small == [], (where, small)
    if phone:
        assert page.evaluate(FOCUS_HIDDEN) is None, where


@pytest.mark.timeout(450)  # two viewports, a dozen states, axe on each, on a busy machine
@pytest.mark.parametrize(
    ("size", "locale"), [("desktop", "en-GB"), ("phone", "en-GB"), ("phone", "es-ES")]
)
def test_every_decision_passes_axe(
    browser: Any, stub_url: str, stub_tables: dict[int, Any], size: str, locale: str
) -> None:
    phone = size == "phone"
    # Spanish on a phone: the longest words on the narrowest screen.
    ctx = browser.new_context(**(PHONE if phone else DESKTOP), locale=locale)
    # The switch's choice, as an account that reads this language has it.
    ctx.add_cookies([{"name": "sd_lang", "value": locale[:2], "url": stub_url}])
    page = ctx.new_page()
    errors = watch_console(page)
    log: dict[str, Any] = {}
    for name, (table, opener) in _positions().items():
        table.actions.clear()
        stub_tables[1] = table
        seat = to_act(table.state)
        page.goto(f"{stub_url}/games/1")
        page.wait_for_selector("#players .player")
        page.wait_for_function(READY)
        assert page.evaluate("document.documentElement.lang") == locale[:2]
        if opener:
            page.focus(opener)
            page.keyboard.press("Enter")
            page.wait_for_selector("#actions .chooser")
        _check(page, f"{size}/{name}", log, phone)
        if phone and not opener:
            _tab_through(page, f"{size}/{name}")
        if name == "place":
            # Placing: a card picked, the ghost on a legal spot (the engine's preview in), then
            # fixed; and on an illegal spot with the engine's reason; by keyboard throughout.
            page.keyboard.press("d")  # the decisions' first control has focus
            if phone:
                assert page.evaluate(FOCUS_HIDDEN) is None
            page.locator("#board").focus()
            page.keyboard.press("1")
            page.keyboard.press("n")
            page.wait_for_selector("#actions .preview[data-ready=true]")
            _check(page, f"{size}/placing", log, phone)
            page.keyboard.press("Enter")
            page.wait_for_selector("#actions button[data-key=head]")
            _check(page, f"{size}/placing-fixed", log, phone)
            page.keyboard.press("Escape")
            for _ in range(6):
                page.keyboard.press("ArrowUp")
            _check(page, f"{size}/placing-illegal", log, phone)
            page.keyboard.press("Escape")
            # The text board on screen, the colour-blind palette on.
            page.focus("#board-text-btn")
            page.keyboard.press("Enter")
            page.focus("#palette-btn")
            page.keyboard.press("Enter")
            page.wait_for_selector("#board-text.shown")
            _check(page, f"{size}/board-as-text-colourblind", log, phone)
            shot(page, f"a11y-{size}-{locale}-board-as-text", full_page=False)
            page.focus("#palette-btn")
            page.keyboard.press("Enter")  # back to the printed colours for the next states
        assert legal_actions(table.state, seat)  # nothing was sent: the state is unchanged
    # A spectator, and the finished table with its score tables.
    stub_tables[1] = _finished()
    page.goto(f"{stub_url}/games/1")
    page.wait_for_selector("#scores table.scores")
    _check(page, f"{size}/finished", log, phone)
    stub_tables[1] = Table(3, 6)
    page.goto(f"{stub_url}/games/1?invite_code=watch")
    page.wait_for_selector("#players .player")
    _check(page, f"{size}/spectator", log, phone)
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / f"axe-table-{size}-{locale}.json").write_text(json.dumps(log, indent=1))
    assert not errors, errors
    ctx.close()


def test_the_vendored_axe_is_the_noted_version() -> None:
    """The copy under tests/e2e/vendor is the version its README names (and its licence is
    beside it)."""
    head = (VENDOR / "axe.min.js").read_text()[:200]
    assert f"axe v{AXE_VERSION}" in head
    readme = (VENDOR / "README.md").read_text()
    assert f"axe-core {AXE_VERSION}" in readme
    assert "Mozilla Public License" in (VENDOR / "axe-core.LICENSE").read_text()

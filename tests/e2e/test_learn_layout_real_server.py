"""The tutorial's first steps on a laptop (1366x768) and a phone (390x844): what to do, the hand
and the decision are on screen together, before and after the card is picked, and stay so
while the ghost is fixed; in English and in Spanish."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.helpers import shot, watch_console

pytestmark = pytest.mark.e2e

LAPTOP = {"viewport": {"width": 1366, "height": 768}}
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}

# Whether each element can be seen: inside the window, and what shows at its centre and near
# its top and bottom edges is the element itself (not the sheet's edge it scrolled under, nor
# a panel above it).
ON_SCREEN = """sels => sels.map(sel => {
  const e = document.querySelector(sel);
  if (!e) return [sel, false];
  const r = e.getBoundingClientRect();
  if (!r.height || r.top < 0 || r.bottom > innerHeight) return [sel, false];
  const x = r.left + r.width / 2;
  const shows = y => e.contains(document.elementFromPoint(x, y));
  const seen = [r.top + 3, r.top + r.height / 2, r.bottom - 3].every(shows);
  return [sel, seen];
})"""

BEFORE = ["#lesson .lesson-do", "#hand .lesson-target", "#actions [data-slot=turn]"]
# Placing on a phone the hand may scroll under what to do: its card is picked already.
PLACING = ["#lesson .lesson-do", "#actions [data-key=confirm]"]


def _wholly_on_screen(page: Any, sels: list[str]) -> None:
    seen = dict(page.evaluate(ON_SCREEN, sels))
    assert all(seen.values()), seen


@pytest.mark.parametrize(
    ("options", "locale", "name"),
    [
        (LAPTOP, "en-GB", "1366x768-en"),
        (PHONE, "es-ES", "phone-es"),
        (LAPTOP, "es-ES", "1366x768-es"),
    ],
    ids=["laptop-en", "phone-es", "laptop-es"],
)
def test_what_to_do_the_hand_and_the_decision_together(
    browser: Any, real_server: str, options: dict[str, Any], locale: str, name: str
) -> None:
    ctx = browser.new_context(locale=locale, **options)
    page = ctx.new_page()
    errors = watch_console(page)
    page.goto(f"{real_server}/learn?lesson=base")
    page.wait_for_function("() => document.body.dataset.step === '0'", timeout=20000)
    page.wait_for_selector("#hand .lesson-target")
    _wholly_on_screen(page, BEFORE)
    board = page.evaluate("() => document.getElementById('board').getBoundingClientRect().toJSON()")
    assert board["top"] >= 0 and board["bottom"] <= options["viewport"]["height"], board
    shot(page, f"learn-first-step-{name}", full_page=False)
    # Pick the card the step asks for, then put the ghost on a legal spot and fix it there.
    page.click("#hand .lesson-target")
    page.wait_for_selector("#actions .placing")
    page.click("#actions button[data-key=next]")
    page.click("#actions button[data-key=lock]")
    page.wait_for_selector("#actions button[data-key=head]")
    _wholly_on_screen(page, PLACING if options is PHONE else [*PLACING, "#hand .lesson-target"])
    shot(page, f"learn-placing-{name}", full_page=False)
    assert errors == []
    ctx.close()

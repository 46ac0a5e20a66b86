"""Driving the game page like a player: pointer, keyboard and buttons (shared by e2e tests)."""

from __future__ import annotations

import time
from typing import Any

SNAPSHOT = """() => {
  const s = window.seadragons?.state;
  if (!s || !s.doc) return null;
  const legal = window.seadragons.st.legalOf(s);
  return {version: s.version, over: !!s.doc.view.over, seat: s.seat, pending: s.pending,
          types: legal.map(a => a.type), places: legal.filter(a => a.type === 'place').length,
          dragons: s.doc.view.board.dragons, hand: window.seadragons.st.myHand(s)};
}"""

PLACEABLE_CARDS = """() => [...new Set(
  window.seadragons.st.allPlaceActions(window.seadragons.state).map(a => a.card))]"""

CELL_CENTRE = """([r, c]) => {
  const b = window.seadragons.board;
  const rect = b.canvas.getBoundingClientRect();
  const x = b.layout.x0 + (c + 0.5) * b.layout.cell, y = b.layout.y0 + (r + 0.5) * b.layout.cell;
  return [rect.left + x, rect.top + y];
}"""

# True once the page must decide (and is not waiting for an answer), or the game is over.
MY_MOVE_OR_OVER = """() => {
  const s = window.seadragons?.state;
  return !!(s && s.doc && !s.pending &&
            (s.doc.view.over || window.seadragons.st.legalOf(s).length > 0));
}"""

# Records every tab title the page shows (before any page script runs), for the alert check.
TITLE_RECORDER = """
window.__titles = [];
new MutationObserver(() => {
  if (window.__titles[window.__titles.length - 1] !== document.title) {
    window.__titles.push(document.title);
  }
}).observe(document, {subtree: true, childList: true, characterData: true});
"""


def sign_in_as_guest(page: Any, url: str, name: str) -> None:
    """Use the lobby's guest form."""
    page.goto(url + "/")
    page.fill("#identity input[name=name]", name)
    page.click("#identity button[type=submit]")
    page.wait_for_selector(f"#identity h2:has-text('{name}')")


def snapshot(page: Any) -> dict[str, Any] | None:
    """The game page's state as seen by the client (None before the first state)."""
    return page.evaluate(SNAPSHOT)


def wait_version_change(page: Any, version: int, timeout: float = 20) -> None:
    """Wait until the page shows a newer version than `version`."""
    page.wait_for_function(
        "v => window.seadragons?.state?.version > v && !window.seadragons.state.pending",
        arg=version,
        timeout=timeout * 1000,
    )


def wait_my_move(page: Any, timeout: float = 30) -> dict[str, Any]:
    """Wait until the page must decide or the game is over; return its snapshot."""
    page.wait_for_function(MY_MOVE_OR_OVER, timeout=timeout * 1000)
    snap = snapshot(page)
    assert snap is not None
    return snap


def place_with_pointer(page: Any) -> None:
    """Pick a card, put the ghost on a legal spot, fix it, choose the head, confirm: by mouse."""
    snap = snapshot(page)
    cards = page.evaluate(PLACEABLE_CARDS)
    page.click(f"#hand button[data-card='{cards[0]}']")
    page.click("button[data-key=next]")  # the button jumps the ghost to a legal spot
    anchor = page.evaluate("() => window.seadragons.state.anchor")
    x, y = page.evaluate(CELL_CENTRE, anchor)
    page.mouse.move(x, y)
    page.mouse.click(x, y)  # lock on the legal spot
    page.wait_for_selector(".placing button[data-key=head]")
    cells = page.evaluate("() => window.seadragons.st.ghostCells(window.seadragons.state)")
    hx, hy = page.evaluate(CELL_CENTRE, cells[-1])
    page.mouse.click(hx, hy)  # the last square becomes the head
    head = page.evaluate("() => window.seadragons.st.headCell(window.seadragons.state)")
    assert head == cells[-1]
    page.click("button[data-key=confirm]")
    wait_version_change(page, snap["version"])
    placed = [d for d in snapshot(page)["dragons"] if d["head"] == head]
    assert placed and sorted(map(tuple, placed[0]["cells"])) == sorted(map(tuple, cells))


def place_with_keyboard(page: Any) -> None:
    """1/2 pick a card, arrows and N find a spot, Enter fixes, H moves the head, Enter places."""
    snap = snapshot(page)
    cards = page.evaluate(PLACEABLE_CARDS)
    index = snap["hand"].index(cards[0]) + 1
    page.locator("#board").focus()
    page.keyboard.press(str(index))
    for key in ("ArrowDown", "ArrowLeft", "r", "f", "n"):
        page.keyboard.press(key)
    page.wait_for_selector(".placing .status.ok")
    page.keyboard.press("Enter")
    page.wait_for_selector(".placing button[data-key=head]")
    page.keyboard.press("h")
    head = page.evaluate("() => window.seadragons.st.headCell(window.seadragons.state)")
    page.keyboard.press("Enter")
    wait_version_change(page, snap["version"])
    assert any(d["head"] == head for d in snapshot(page)["dragons"])


def other_decision(page: Any, snap: dict[str, Any]) -> None:
    """Any decision but placing, on its pieces: a card to keep, a tail's track, a
    mission card then its payment, a card to draw; else the pass as a discard and a draw."""
    types = snap["types"]
    picks = [k for k in ("keep_reef", "keep_treasure", "choose_tail", "decline") if k in types]
    if types in (["decline"], ["choose_tail"]):
        pass  # nothing to choose: the page sends it by itself
    elif picks:
        page.click(f"#actions button.act-{picks[0]} >> nth=0")
    elif "mission" in types:
        page.click("#actions .missions-group button.card.mission >> nth=0")
        page.wait_for_selector("#actions button.payment[aria-pressed=true]")
        page.click("#actions button.act-mission")
    elif "draw" in types or "end_turn" in types:
        page.click("#actions button.act-draw, #actions button.act-end_turn >> nth=0")
    elif "pass" in types:
        page.click("#actions button.pass-open")
        page.click("#actions .pass-discard >> nth=0")
        page.click("#actions .pass-draw >> nth=0")
        page.click("#actions button.act-pass")
    else:
        raise AssertionError(f"no control for {types}")
    wait_version_change(page, snap["version"])


def play_turns(page: Any, until: Any, placements: list[int], deadline: float) -> dict[str, Any]:
    """Make the page's decisions (placements alternate pointer / keyboard) until `until(snap)`
    or the game is over; `placements` counts placements so far in its only element."""
    while time.monotonic() < deadline:
        snap = wait_my_move(page)
        if snap["over"] or until(snap):
            return snap
        if snap["places"]:
            (place_with_pointer if placements[0] % 2 == 0 else place_with_keyboard)(page)
            placements[0] += 1
        else:
            other_decision(page, snap)
    raise AssertionError("the game did not finish in time")

"""End to end against the real server: lobby, invite, a whole game by pointer and keyboard,
a spectator who sees the same board, a reload mid-game, and the final score table."""

from __future__ import annotations

import re
import time
from typing import Any

import httpx
import pytest

from tests.e2e.helpers import shot, watch_console

pytestmark = pytest.mark.e2e

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


def place_with_pointer(page: Any) -> None:
    """Pick a card, put the ghost on a legal spot, fix it, choose the head, confirm: by mouse."""
    snap = snapshot(page)
    st_cards = page.evaluate(PLACEABLE_CARDS)
    page.click(f"#hand button[data-card='{st_cards[0]}']")
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
    dragons = snapshot(page)["dragons"]
    assert dragons[-1]["head"] == head


def place_with_keyboard(page: Any) -> None:
    """1/2 pick a card, arrows and N find a spot, Enter fixes, H moves the head, Enter places."""
    snap = snapshot(page)
    cards = page.evaluate(PLACEABLE_CARDS)
    index = snap["hand"].index(cards[0]) + 1
    page.locator("#board").focus()
    page.keyboard.press(str(index))
    page.keyboard.press("ArrowDown")
    page.keyboard.press("r")
    page.keyboard.press("f")
    page.keyboard.press("n")
    page.wait_for_selector(".placing .status.ok")
    page.keyboard.press("Enter")
    page.wait_for_selector(".placing button[data-key=head]")
    page.keyboard.press("h")
    page.keyboard.press("Enter")
    wait_version_change(page, snap["version"])


def other_decision(page: Any, snap: dict[str, Any]) -> None:
    """Any decision but placing: choices first, a mission when offered, then draw/end, else pass."""
    types = snap["types"]
    for kind in (
        "keep_reef",
        "keep_treasure",
        "choose_tail",
        "decline",
        "mission",
        "draw",
        "end_turn",
    ):
        if kind in types:
            page.click(f"button.act-{kind} >> nth=0")
            break
    else:
        if "pass" not in types:
            raise AssertionError(f"no button for {types}")
        page.click("details.group summary")
        page.click("button.act-pass >> nth=0")
    wait_version_change(page, snap["version"])


def test_whole_game_in_the_browser(browser: Any, real_server: str) -> None:
    """Two guests (invite link), a spectator and a reload; played to the score table."""
    url = real_server
    host_ctx = browser.new_context(viewport={"width": 1400, "height": 950})
    guest_ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    watch_ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    host, guest, watcher = host_ctx.new_page(), guest_ctx.new_page(), watch_ctx.new_page()
    errors = watch_console(guest, watch_console(host))

    sign_in_as_guest(host, url, "Nessie")
    shot(host, "lobby-signed-in")
    host.select_option("#create-form select[name=players]", "2")
    host.click("#create-form button[type=submit]")
    host.wait_for_url(re.compile(r"/games/\d+$"))
    game_id = int(host.url.rsplit("/", 1)[1])
    invite = host.wait_for_selector("#invite-link").input_value()
    shot(host, "waiting-room")

    guest.goto(invite)
    guest.fill("#join input[name=name]", "Kraken")
    guest.click("#join button[type=submit]")
    guest.wait_for_url(re.compile(rf"/games/{game_id}"))
    host.click("#waiting button.primary:has-text('Start')", timeout=15000)
    for p in (host, guest):
        p.wait_for_selector("#hand .card, #hand p", timeout=20000)
        p.wait_for_function("() => window.seadragons.state.doc !== null", timeout=20000)

    watcher.goto(f"{url}/games/{game_id}")
    watcher.wait_for_selector("#players .player")
    assert "watching" in watcher.inner_text("#hand")

    placements = 0
    reloaded = False
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:
        snaps = [(p, snapshot(p)) for p in (host, guest)]
        if all(s and s["over"] for _, s in snaps):
            break
        acting = [(p, s) for p, s in snaps if s and s["types"] and not s["pending"]]
        if not acting:
            time.sleep(0.3)
            continue
        page, snap = acting[0]
        if snap["places"] and "place" in snap["types"]:
            if placements % 2 == 0:
                place_with_pointer(page)
            else:
                place_with_keyboard(page)
            placements += 1
            if placements == 1:
                shot(page, "table-after-first-placement")
        else:
            other_decision(page, snap)
        if placements == 6 and not reloaded:
            reloaded = True
            before = snapshot(host)
            host.reload()
            host.wait_for_function(
                "v => window.seadragons?.state?.version >= v", arg=before["version"]
            )
            after = snapshot(host)
            assert after["seat"] == before["seat"] and after["dragons"] == before["dragons"]
            shot(host, "table-after-reload")
        if placements == 8:
            # The spectator sees the same board as the players once it has caught up.
            v = snapshot(host)["version"]
            watcher.wait_for_function("v => window.seadragons.state.version >= v", arg=v)
            if snapshot(watcher)["version"] == v:
                assert snapshot(watcher)["dragons"] == snapshot(host)["dragons"]
            shot(watcher, "spectator-mid-game")
    else:
        pytest.fail("the game did not finish in time")

    for p in (host, guest):
        p.wait_for_selector("#scores table.scores")
    shot(host, "final-scores")
    watcher.wait_for_selector("#scores table.scores", timeout=20000)
    assert snapshot(watcher)["dragons"] == snapshot(host)["dragons"]
    assert placements >= 2
    api = httpx.get(f"{url}/api/games/{game_id}").json()
    assert api["status"] == "finished"
    host.goto(f"{url}/games/{game_id}/replay")
    host.wait_for_selector("#moves li")
    host.click("#last")
    host.wait_for_selector("#scores table.scores")
    shot(host, "replay-end")
    assert not errors, errors
    for ctx in (host_ctx, guest_ctx, watch_ctx):
        ctx.close()

"""The replay of a finished game, against the real server: the page steps through the server's
replay (GET /api/games/{id}/replay, the engine's views and the ops between them) and, at every
step, each player's panel (Gold, heads, cards, Reefs, treasures, ships, missions, and every
hand, R-60 allowing it after the end) and the realm majorities equal the server's document for
that step, built here independently by applying the same ops with `jsonpatch`."""

from __future__ import annotations

import copy
import time
from typing import Any

import httpx
import jsonpatch
import pytest

from tests.e2e.helpers import shot, watch_console
from tests.e2e.test_pages_real_server import _host, _play_to_the_end

pytestmark = pytest.mark.e2e

SHIP_ORDER = ["green", "purple", "red", "blue"]  # the panels' ship chips, left to right

PANELS = """() => ({
  label: document.getElementById('step-label').textContent,
  lines: document.querySelectorAll('#move-text li').length,
  players: [...document.querySelectorAll('#players .player')].map(el => ({
    seat: Number(el.dataset.seat),
    stats: [...el.querySelectorAll('.stat b')].map(b => Number(b.textContent)),
    ships: [...el.querySelectorAll('.ships .chip')].map(c => Number(c.textContent)),
    hand: [...el.querySelectorAll('.hand-tags .tag')].map(t => t.textContent),
    reefs: [...el.querySelectorAll('.tag.reef')].map(t => t.textContent),
    treasures: [...el.querySelectorAll('.treasure-tags .tag')].map(t => t.textContent),
    missions: [...el.querySelectorAll('.tag.mission')].map(t => t.textContent),
  })),
  realms: [...document.querySelectorAll('#realms tbody tr')].map(tr => ({
    realm: tr.dataset.realm,
    whirlpools: Number(tr.querySelector('td.num').textContent),
    dragons: [...tr.querySelectorAll('td.count b')].map(b => b.textContent),
  })),
})"""


def _expected(view: dict[str, Any], step: int, last: int, lines: int) -> dict[str, Any]:
    """What the panels must show for the server's document `view` at `step`."""
    players = []
    for p in view["players"]:
        stats = [p["gold"], p["heads"], p["hand_count"], p["reef_count"]]
        if view.get("expansion"):
            stats.append(p.get("treasure_count") or 0)
        players.append(
            {
                "seat": p["seat"],
                "stats": stats,
                "ships": [p["ships"].get(c, 0) for c in SHIP_ORDER],
                "hand": list(p["hand"]),
                "reefs": list(p["reefs"]),
                "treasures": list(p.get("treasures") or []),
                "missions": list(p["missions"]),
            }
        )
    return {
        "label": "Setup" if step == 0 else f"Move {step} of {last}",
        "lines": lines,
        "players": players,
        "realms": [
            {
                "realm": r["realm"],
                "whirlpools": r["whirlpools"],
                "dragons": [str(x["dragons"]) if x["dragons"] else "·" for x in r["seats"]],
            }
            for r in view["realms"]
        ],
    }


def _finished_expansion_game(url: str) -> tuple[httpx.Client, int]:
    """A 3-player expansion game (the host and two random bots) played to the end."""
    host = _host(url, "Replayer")
    game = host.post("/api/games", json={"players": 3, "expansion": True}).json()
    for _ in range(2):
        assert host.post(f"/api/games/{game['id']}/bots", json={"level": "random"}).is_success
    assert host.post(f"/api/games/{game['id']}/start").is_success
    _play_to_the_end(host, game["id"], time.monotonic() + 240)
    return host, game["id"]


def test_the_replay_steps_through_the_servers_documents(browser: Any, real_server: str) -> None:
    url = real_server
    host, game_id = _finished_expansion_game(url)
    replay = host.get(f"/api/games/{game_id}/replay").json()
    frames = replay["frames"]
    last = len(frames)
    assert last > 20
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors = watch_console(page)
    page.goto(f"{url}/games/{game_id}/replay")
    page.wait_for_selector("#players .player")
    doc = copy.deepcopy(replay["start"])
    for step in range(last + 1):
        if step:
            doc = jsonpatch.apply_patch(doc, frames[step - 1]["ops"])
            page.keyboard.press("ArrowRight")
            page.wait_for_function(
                "t => document.getElementById('step-label').textContent === t",
                arg=f"Move {step} of {last}",
            )
        # A move without a log line is said by its action: one line, never a blank entry.
        lines = max(1, len(frames[step - 1]["lines"])) if step else 0
        assert page.evaluate(PANELS) == _expected(doc, step, last, lines), f"step {step}"
        if step == last // 2:
            shot(page, "truth-replay-mid-1280", full_page=False)
    # The last step is the end: the final scores are the server's.
    assert doc["over"]
    totals = page.locator("#scores tr.total td").all_inner_texts()
    assert totals == [str(p["total"]) for p in replay["final_scores"]["players"]]
    shot(page, "truth-replay-final-1280")
    # Stepping back reads the kept documents: Home shows the start again.
    page.keyboard.press("Home")
    page.wait_for_function("() => document.getElementById('step-label').textContent === 'Setup'")
    assert page.evaluate(PANELS) == _expected(replay["start"], 0, last, 0)
    phone = browser.new_page(viewport={"width": 390, "height": 844}, has_touch=True)
    phone.goto(f"{url}/games/{game_id}/replay")
    phone.wait_for_selector("#players .player")
    phone.keyboard.press("End")
    phone.wait_for_function(
        "t => document.getElementById('step-label').textContent === t", arg=f"Move {last} of {last}"
    )
    shot(phone, "truth-replay-final-390", full_page=False)
    assert phone.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    assert not errors, errors

"""Every page, signed out, on the real server at the three viewports:
no console error (GET /api/session answers 200 where GET /api/me said 401), no sideways
scroll, the finished list with winner and score, the name field's limit, a finished table that
no longer says "Live", and the final table and the replay with each realm's majority."""

from __future__ import annotations

import random
import time
from typing import Any

import httpx
import pytest

from tests.e2e.helpers import shot, watch_console

pytestmark = pytest.mark.e2e

VIEWPORTS = [
    ("1400x900", {"viewport": {"width": 1400, "height": 900}}),
    ("1280x800", {"viewport": {"width": 1280, "height": 800}}),
    (
        "390x844",
        {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True},
    ),
]
NO_SIDEWAYS_SCROLL = "() => document.documentElement.scrollWidth <= window.innerWidth"


def _host(url: str, name: str) -> httpx.Client:
    client = httpx.Client(base_url=url, timeout=20)
    assert client.post("/api/session/guest", json={"name": name}).status_code == 200
    return client


def _table(client: httpx.Client, bots: int, start: bool) -> dict[str, Any]:
    game = client.post("/api/games", json={"players": 2}).json()
    for _ in range(bots):
        r = client.post(f"/api/games/{game['id']}/bots", json={"level": "random"})
        assert r.status_code == 200, r.text
    if start:
        assert client.post(f"/api/games/{game['id']}/start").status_code == 200
    return game


def _play_to_the_end(client: httpx.Client, game_id: int, deadline: float) -> None:
    """Make the host's moves through the API (the server's bot plays the other seat)."""
    rng = random.Random(game_id)
    while time.monotonic() < deadline:
        state = client.get(f"/api/games/{game_id}/state").json()
        if state["view"]["over"]:
            return
        legal = state["legal_actions"]
        if not legal:
            time.sleep(0.05)  # the bot's turn: poll again (bounded by the deadline)
            continue
        places = [a for a in legal if a["type"] == "place"]
        action = rng.choice(places or [a for a in legal if a["type"] != "pass"] or legal)
        body = {"version": state["version"], "action": action}
        r = client.post(f"/api/games/{game_id}/actions", json=body)
        assert r.status_code in (200, 409), r.text  # 409: the bot moved first; read again
    raise AssertionError("the game did not finish in time")


def test_signed_out_pages_are_clean_at_every_viewport(browser: Any, real_server: str) -> None:
    url = real_server
    host = _host(url, "Nessie")
    finished = _table(host, bots=1, start=True)
    _play_to_the_end(host, finished["id"], time.monotonic() + 120)
    live = _table(host, bots=1, start=True)
    waiting = _table(host, bots=0, start=False)
    scores = host.get(f"/api/games/{finished['id']}").json()["final_scores"]
    assert scores and scores["players"][0]["realms"]

    pages = {
        "lobby": "/",
        "rules": "/rules",
        "join": f"/join/{waiting['invite_code']}",
        "spectate": f"/games/{live['id']}",
        "finished": f"/games/{finished['id']}",
        "replay": f"/games/{finished['id']}/replay",
    }
    ready = {
        "lobby": f"#finished-games li[data-game-id='{finished['id']}'] .result",
        "rules": "article.rules",
        "join": "#join input[name=name]",
        "spectate": "#players .player",
        "finished": "#scores table.scores tr.sub",
        "replay": "#moves li",
    }
    for label, options in VIEWPORTS:
        ctx = browser.new_context(**options)
        page = ctx.new_page()
        errors = watch_console(page)
        for name, path in pages.items():
            page.goto(url + path)
            page.wait_for_selector(ready[name], timeout=20000)
            if name == "lobby":
                # The guest name field takes what the server takes (24), no more.
                assert page.get_attribute("#identity input[name=name]", "maxlength") == "24"
                result = page.inner_text(f"#finished-games li[data-game-id='{finished['id']}']")
                # Each name beside its own total, best first (never names in seat order and
                # totals in score order side by side).
                seats = host.get(f"/api/games/{finished['id']}").json()["seats"]
                named = [(s["player"] or {}).get("display_name") or s["bot_name"] for s in seats]
                ranked = sorted(scores["players"], key=lambda p: -p["total"])
                line = ", ".join(f"{named[p['seat']]} {p['total']}" for p in ranked)
                # Bots' games may end level: two players then share the win.
                winners = [named[seat] for seat in scores["winners"]]
                who = f"{winners[0]} won" if len(winners) == 1 else None
                who = who or f"{' and '.join(winners)} shared the win"  # two seats: two at most
                assert f"{who} · {line}" in result, result
            if name == "finished":
                page.wait_for_function("() => document.getElementById('conn').textContent")
                page.wait_for_selector("#conn[data-status=over]")
                assert page.inner_text("#conn") == "Game over"
                assert page.locator("#scores tr.sub").count() == 4
            if name == "replay":
                page.click("#last")
                page.wait_for_selector("#scores table.scores tr.sub")
                for realm in scores["realm_whirlpools"]:
                    row = page.locator(f"#scores tr.sub[data-realm='{realm}']")
                    want = [str(p["realms"][realm] or "·") for p in scores["players"]]
                    # The VP (the Dragons counted beside them: test_table_truth.py).
                    assert row.locator("td .realm-vp").all_inner_texts() == want, realm
                    # The live panel at the last move shows the same majorities.
                    cells = page.locator(f"#realms tr[data-realm='{realm}'] td.count")
                    for p in scores["players"]:
                        vp = cells.nth(p["seat"]).locator(".vp-now")
                        got = vp.inner_text() if vp.count() else None
                        assert got == (f"{p['realms'][realm]} VP" if p["realms"][realm] else None)
                page.click("#first")
                page.wait_for_selector("#realms tbody tr")
            page.evaluate("() => new Promise(r => requestAnimationFrame(() => r()))")
            assert page.evaluate(NO_SIDEWAYS_SCROLL), (label, name)
            shot(page, f"signed-out-{name}-{label}", full_page=False)
        assert not errors, (label, errors)
        ctx.close()
    host.close()

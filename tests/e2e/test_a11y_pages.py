"""WCAG 2.2 AA on every page of the real server (uvicorn, temp SQLite): axe-core (vendored,
tests/e2e/vendor) finds no serious or critical violation on the lobby (signed out, signed in),
the waiting room, a live table (player and spectator), a finished table, the replay, the
account page, a profile, the leaderboard, the rules and the join page, at desktop and phone
sizes. Minor and moderate findings are written to test-artifacts/axe-pages-*.json."""

from __future__ import annotations

import itertools
import json
import random
import time
from typing import Any

import httpx
import pytest

from tests.e2e.axe import assert_no_blocking
from tests.e2e.helpers import ARTIFACTS, settle, watch_console

pytestmark = pytest.mark.e2e

# Animations that never end (WCAG 2.2.2: nothing moves on its own for more than five seconds
# without a way to stop it; and an endless one repaints for as long as the page stays open).
ENDLESS = """() => document.getAnimations()
  .filter(a => a.effect.getComputedTiming().iterations === Infinity)
  .map(a => `${a.effect.target.tagName}.${a.effect.target.className} ${a.animationName || ''}`)"""

SIZES = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True},
}


def _client(url: str) -> httpx.Client:
    return httpx.Client(base_url=url, timeout=20, headers={"Origin": url})


def _table(client: httpx.Client, bots: int, start: bool) -> dict[str, Any]:
    game = client.post("/api/games", json={"players": 2}).json()
    for _ in range(bots):
        assert (
            client.post(f"/api/games/{game['id']}/bots", json={"level": "random"}).status_code
            == 200
        )
    if start:
        assert client.post(f"/api/games/{game['id']}/start").status_code == 200
    return game


def _finish(client: httpx.Client, gid: int) -> None:
    rng = random.Random(gid)
    deadline = time.monotonic() + 150
    while time.monotonic() < deadline:
        state = client.get(f"/api/games/{gid}/state").json()
        if state["view"]["over"]:
            return
        legal = state["legal_actions"]
        if not legal:
            time.sleep(0.05)
            continue
        places = [a for a in legal if a["type"] == "place"]
        action = rng.choice(places or [a for a in legal if a["type"] != "pass"] or legal)
        client.post(
            f"/api/games/{gid}/actions", json={"version": state["version"], "action": action}
        )
    raise AssertionError("the game did not finish in time")


@pytest.mark.timeout(600)
def test_every_page_passes_axe(browser: Any, real_server: str) -> None:
    url = real_server
    ann = _client(url)
    r = ann.post("/api/users", json={"username": "ann_axe", "password": "correct horse battery"})
    assert r.status_code in (200, 201), r.text
    finished = _table(ann, bots=1, start=True)
    _finish(ann, finished["id"])
    live = _table(ann, bots=1, start=True)
    waiting = _table(ann, bots=0, start=False)
    # Waiting in a quick-match pool nobody else joins (its page stops the wait when left: the
    # later passes check the page that says so).
    entry = ann.post("/api/match", json={"players": 5, "pace": "daily"}).json()
    ann_cookies = dict(ann.cookies)

    signed_out = {
        "lobby": ("/", "#identity input"),
        "rules": ("/rules", "article.rules"),
        "leaderboard": ("/leaderboard", "main"),
        "profile": ("/u/ann_axe", "main h1, main h2"),
        "join": (f"/join/{waiting['invite_code']}", "#join input[name=name]"),
        "spectate": (f"/games/{live['id']}", "#players .player"),
        "finished": (f"/games/{finished['id']}", "#scores table.scores"),
        "replay": (f"/games/{finished['id']}/replay", "#moves li"),
        "learn": ("/learn", "#lessons a[data-lesson]"),
        "lesson": ("/learn?lesson=base", "#lesson .lesson-do"),
        "watch": ("/watch", "main h1"),
        "tv": ("/tv", "main h1"),
    }
    signed_in = {
        "lobby-signed-in": ("/", "#identity h2"),
        "account": ("/account", "#account h1"),
        "waiting-room": (f"/games/{waiting['id']}", "#waiting li.seat"),
        "table-player": (f"/games/{live['id']}", "#actions [data-slot=turn] .turn-line"),
        "play-now-waiting": (f"/play/{entry['id']}", "#match-leave, #match a.button"),
    }
    # Each page in both languages (the Spanish one has its own words, lengths and lang).
    for (size, options), locale in itertools.product(SIZES.items(), ("en-GB", "es-ES")):
        log: dict[str, Any] = {}
        for who, pages in (("out", signed_out), ("in", signed_in)):
            ctx = browser.new_context(**options, locale=locale)
            if who == "in":
                # The account signed up in English: in the Spanish pass it has switched.
                chosen = {**ann_cookies, "sd_lang": locale[:2]}
                ctx.add_cookies([{"name": k, "value": v, "url": url} for k, v in chosen.items()])
            page = ctx.new_page()
            errors = watch_console(page)
            for name, (path, ready) in pages.items():
                page.goto(url + path)
                page.wait_for_selector(ready, timeout=20000)
                if name == "replay":
                    page.keyboard.press("End")
                    page.wait_for_selector("#scores table.scores")
                settle(page)
                assert page.evaluate("document.documentElement.lang") == locale[:2]
                assert page.evaluate(ENDLESS) == [], name
                assert_no_blocking(page, f"{size}/{locale}/{name}", log)
            assert not errors, errors
            ctx.close()
        ARTIFACTS.mkdir(exist_ok=True)
        (ARTIFACTS / f"axe-pages-{size}-{locale}.json").write_text(json.dumps(log, indent=1))
    ann.close()

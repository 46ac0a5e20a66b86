"""Every page a player sees, read whole in Spanish at a desktop and a phone size, against the real
server: no English-only word and no clipped label anywhere on it (tests/e2e/pagecheck.py says
what counts, with its allow-list). The table is checked in each decision it asks for, a card
picked, at the end; then the reward board, the replay with its review, the tutorial, the lobby
(signed out, each sign-in tab, signed in), sign-up, the account page, and the other pages with
the signed-in name in their header. Screenshots: the reward board in Spanish, the review panel.
"""

from __future__ import annotations

import json
import random
import re
import time
from typing import Any

import pytest

from tests.e2e.helpers import shot, watch_console
from tests.e2e.pagecheck import assert_page_reads_right, clipped_on
from tests.e2e.play import MY_MOVE_OR_OVER
from tests.e2e.test_replay_review_real_server import _analysis_of

pytestmark = pytest.mark.e2e

SIZES = {"desktop": {"width": 1366, "height": 900}, "phone": {"width": 390, "height": 844}}
# Two animation frames: the page has drawn what its state says.
SETTLED = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"
DECISION = """() => {
  const s = window.seadragons.state;
  const legal = window.seadragons.st.legalOf(s);
  return {over: !!s.doc.view.over, version: s.version,
          kinds: [...new Set(legal.map((a) => a.type))].sort(),
          pending: (s.doc.view.pending || []).map((p) => p.kind)};
}"""


def _pages(browser: Any) -> dict[str, Any]:
    """One Spanish page per size, sharing one browser session (cookies copied)."""
    out = {}
    for name, size in SIZES.items():
        ctx = browser.new_context(locale="es-ES", viewport=size)
        out[name] = ctx.new_page()
    return out


def _share_session(pages: dict[str, Any]) -> None:
    cookies = pages["desktop"].context.cookies()
    for page in pages.values():
        page.context.add_cookies(cookies)


def _check(pages: dict[str, Any], what: str) -> None:
    for size, page in pages.items():
        page.evaluate(SETTLED)
        assert not page.locator("text=SEADRAGONS_").count(), f"{what} ({size})"
        assert_page_reads_right(page, f"{what} ({size})")


def _act(page: Any, url: str, game_id: int, rng: random.Random) -> None:
    """One of my moves through the API, as _play_to_the_end makes them (placements first)."""
    state = page.request.get(f"{url}/api/games/{game_id}/state").json()
    legal = state["legal_actions"]
    places = [a for a in legal if a["type"] == "place"]
    action = rng.choice(places or [a for a in legal if a["type"] != "pass"] or legal)
    r = page.request.post(
        f"{url}/api/games/{game_id}/actions",
        data={"version": state["version"], "action": action},
    )
    assert r.status in (200, 409), r.text()


def _play_out(page: Any, url: str, game_id: int, deadline: float) -> None:
    """My moves through the API until the game is over (the server's bot plays the rest)."""
    rng = random.Random(game_id)
    while time.monotonic() < deadline:
        state = page.request.get(f"{url}/api/games/{game_id}/state").json()
        if state["view"]["over"]:
            return
        if state["legal_actions"]:
            _act(page, url, game_id, rng)
        else:  # the bot's turn: wait until the version moves on
            page.wait_for_timeout(50)
    raise AssertionError("the game did not finish in time")


def test_the_table_in_each_decision_the_end_and_the_replay_read_spanish(
    browser: Any, real_server: str
) -> None:
    url = real_server
    pages = _pages(browser)
    desk = pages["desktop"]
    errors = watch_console(desk)
    assert desk.request.post(url + "/api/session/guest", data={"name": "Nessie"}).ok
    _share_session(pages)
    game = desk.request.post(
        url + "/api/games", data={"players": 2, "first_player": 0, "expansion": True}
    ).json()
    gid = game["id"]
    assert desk.request.post(url + f"/api/games/{gid}/bots", data={"level": "random"}).ok
    assert desk.request.post(url + f"/api/games/{gid}/start").ok
    for page in pages.values():
        page.goto(url + f"/games/{gid}")
        page.wait_for_selector("#hand .card.pattern", timeout=30_000)

    rng = random.Random(gid)
    seen: set[str] = set()
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        for page in pages.values():
            page.wait_for_function(MY_MOVE_OR_OVER, timeout=30_000)
        state = desk.evaluate(DECISION)
        if state["over"]:
            break
        key = json.dumps([state["kinds"], state["pending"]])
        if key not in seen:
            seen.add(key)
            _check(pages, f"table deciding {key}")
            if "place" in state["kinds"]:
                # A card picked: the placement bar, the ghost's words, the refusal tips.
                for page in pages.values():
                    page.click("#hand .card.pattern >> nth=0")
                    page.wait_for_selector(".placing")
                _check(pages, f"table placing {key}")
                shot(desk, "words-table-placing-es", full_page=False)
        _act(desk, url, gid, rng)
        for page in pages.values():
            page.wait_for_function(
                "v => window.seadragons.state.version > v", arg=state["version"], timeout=30_000
            )
    else:
        raise AssertionError("the game did not finish in time")
    print("decisions read:", sorted(seen))
    kinds = {k for key in seen for k in json.loads(key)[0]}
    assert {"place", "draw"} <= kinds, seen  # the placement and the draw at least were read
    shot(desk.locator("#reward"), "words-reward-es")
    # Gold as coins (never "1O", read as ten); each Bonus tile with this table's value only.
    reward = desk.inner_text("#reward")
    assert desk.locator("#reward .rw-coin").count() > 0
    assert not re.search(r"\b\d[GO]\b", reward), reward
    tiles = desk.locator("#reward .rw-tile small").all_inner_texts()
    assert len(tiles) == 3 and not any(re.search(r"\d/\d", x) for x in tiles), tiles
    # The rematch panel says who may offer one and until when, beside its button.
    desk.wait_for_selector("#rematch button[data-key=rematch-offer]")
    assert "Cualquier jugador de esta partida puede ofrecer la revancha" in desk.inner_text(
        "#rematch"
    )
    _check(pages, "table at the end")
    shot(desk, "words-table-end-es")
    # Someone signed out watching the end: no button, and the panel says why.
    ctx = browser.new_context(locale="es-ES", viewport=SIZES["desktop"])
    stranger = ctx.new_page()
    stranger.goto(url + f"/games/{gid}")
    stranger.wait_for_selector("#rematch p")
    assert "Entra como uno de los jugadores" in stranger.inner_text("#rematch")
    assert stranger.locator("#rematch button").count() == 0
    _check({"spectator": stranger}, "the end, signed out")
    ctx.close()

    # The replay and its review (the analysis supplied: a real one is a minute of CPU).
    replay = desk.request.get(f"{url}/api/games/{gid}/replay").json()
    # Move 1 is made forced, a later move of mine is the mistake "Next mistake" steps to.
    mistake_at = next(i for i, f in enumerate(replay["frames"], 1) if f["seat"] == 0 and i > 1)
    analysis = _analysis_of(replay, mistake_at, replay["frames"][mistake_at - 1]["action"])
    analysis["moves"][0] = {**analysis["moves"][0], "forced": True, "label": None}
    for page in pages.values():
        page.route(
            f"**/api/games/{gid}/analysis",
            lambda route: route.fulfill(
                status=200, content_type="application/json", body=json.dumps(analysis)
            ),
        )
        page.goto(url + f"/games/{gid}/replay")
        page.wait_for_selector("#analysis .analysis-legend")
    # No blank entry in the move list: each names what was done.
    entries = desk.locator("#moves li").all_inner_texts()
    assert len(entries) == len(replay["frames"])
    assert all(len(e.split(". ", 1)[-1].strip()) > 0 for e in entries), entries
    _check(pages, "replay at the start")
    for page in pages.values():
        page.keyboard.press("End")
    _check(pages, "replay at the end")
    for page in pages.values():
        page.keyboard.press("Home")
        page.keyboard.press("ArrowRight")  # the forced first move: said, not "Forced move"
    assert "(la única jugada posible)" in desk.inner_text("#analysis .analysis-move")
    for page in pages.values():
        page.click("#analysis .analysis-next")
    desk.wait_for_function(
        "() => document.querySelector('#analysis .analysis-move').textContent.includes('puntos"
        " porcentuales')"
    )
    _check(pages, "review at a mistake")
    shot(desk.locator("#analysis"), "words-review-es")
    assert not errors, errors
    for page in pages.values():
        page.context.close()


def test_the_lobby_sign_up_account_tutorial_and_other_pages_read_spanish(
    browser: Any, real_server: str
) -> None:
    url = real_server
    pages = _pages(browser)
    desk = pages["desktop"]
    errors = watch_console(desk)
    for page in pages.values():
        page.goto(url + "/")
        page.wait_for_selector("#identity .tabs")
    _check(pages, "lobby signed out")
    # Each sign-in tab; sign-up states its rules before anything is sent.
    for tab in range(3):
        for page in pages.values():
            page.click(f"#identity .tabs button >> nth={tab}")
        _check(pages, f"lobby sign-in tab {tab}")
    assert "Contraseña: de 8 a 128 caracteres" in desk.inner_text("#signup-rules")
    password = desk.locator("#identity input[name=password]")
    assert password.get_attribute("autocomplete") == "new-password"
    assert password.get_attribute("minlength") == "8"
    desk.fill("#identity input[name=username]", "ondina")
    desk.fill("#identity input[name=password]", "corta")
    desk.click("#identity button[type=submit]")
    # The browser holds to the rule: nothing was sent, no raw schema message shown.
    assert desk.evaluate(
        "() => !document.querySelector('#identity input[name=password]').checkValidity()"
    )
    assert desk.locator("#identity .error").is_hidden()
    desk.fill("#identity input[name=password]", "bastante larga")
    desk.click("#identity button[type=submit]")
    desk.wait_for_selector("#identity h2:has-text('ondina')")
    _share_session(pages)
    # A game of mine played out against a bot: "Your games" and the profile list it, the bot by
    # its name and level in Spanish.
    mine = desk.request.post(url + "/api/games", data={"players": 2, "first_player": 0}).json()
    assert desk.request.post(url + f"/api/games/{mine['id']}/bots", data={"level": "greedy"}).ok
    assert desk.request.post(url + f"/api/games/{mine['id']}/start").ok
    _play_out(desk, url, mine["id"], time.monotonic() + 240)
    # A table of bots, live, for the watch pages.
    game = desk.request.post(url + "/api/games", data={"players": 3}).json()
    for level in ("greedy", "random"):
        assert desk.request.post(url + f"/api/games/{game['id']}/bots", data={"level": level}).ok
    assert desk.request.post(url + f"/api/games/{game['id']}/start").ok
    for path, ready in [
        ("/", "#my-games li[data-group=finished]"),
        ("/account", "#account h1"),
        ("/leaderboard", "#leaderboard h1"),
        ("/u/ondina", "#recent li.game-line"),
        ("/rules", "#main h1"),
        ("/watch", "#watch-games li"),
        ("/tv", "#tv-info"),
        ("/learn", "[data-lesson=base]"),
        ("/learn?lesson=base", "#lesson .lesson-do"),
        ("/learn?lesson=deep", "#lesson .lesson-do"),
    ]:
        for page in pages.values():
            page.goto(url + path)
            page.wait_for_selector(ready, timeout=30_000)
            # The signed-in name in the header, on every page.
            page.wait_for_function("() => document.getElementById('me').textContent === 'ondina'")
        _check(pages, path)
        if path == "/learn?lesson=base":
            shot(desk, "words-learn-es", full_page=False)
    assert not errors, errors
    for page in pages.values():
        page.context.close()


def test_english_pages_have_no_clipped_label(browser: Any, real_server: str) -> None:
    """The clipping half of the check in English too (its words are the source)."""
    ctx = browser.new_context(locale="en-GB", viewport=SIZES["phone"])
    page = ctx.new_page()
    for path, ready in [("/", "#identity .tabs"), ("/learn?lesson=deep", "#lesson .lesson-do")]:
        page.goto(url := real_server + path)
        page.wait_for_selector(ready, timeout=30_000)
        page.evaluate(SETTLED)
        assert clipped_on(page) == [], url
    ctx.close()

"""Watching in Chromium against the real server: /watch (small live boards over one socket,
filters), /tv and the home page's featured game (switching when it ends), and following a
player from their profile into their next game."""

from __future__ import annotations

import random
import time
from typing import Any

import httpx
import pytest

from tests.e2e.helpers import shot, watch_console

pytestmark = pytest.mark.e2e

DRAWN = """(sel) => {
  const c = document.querySelector(sel);
  if (!c || !c.width) return false;
  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let lit = 0;
  for (let i = 0; i < d.length; i += 4 * 97) if (d[i + 3] > 0) lit++;
  return lit > 50;
}"""


def _guest(url: str, name: str) -> httpx.Client:
    client = httpx.Client(base_url=url, timeout=20)
    assert client.post("/api/session/guest", json={"name": name}).status_code == 200
    return client


def _account(url: str, name: str) -> httpx.Client:
    client = httpx.Client(base_url=url, timeout=20)
    r = client.post("/api/users", json={"username": name, "password": "correct horse"})
    assert r.status_code in (200, 201), r.text
    return client


def _live(client: httpx.Client, players: int = 2) -> int:
    """A live table: the client in seat 0, random bots in the others (they wait for it)."""
    game = client.post("/api/games", json={"players": players}).json()
    for _ in range(players - 1):
        r = client.post(f"/api/games/{game['id']}/bots", json={"level": "random"})
        assert r.status_code == 200, r.text
    assert client.post(f"/api/games/{game['id']}/start").status_code == 200
    return game["id"]


def _move(
    client: httpx.Client, game_id: int, rng: random.Random, deadline: float
) -> dict[str, Any] | None:
    """One move of the client's seat when it may act (waiting for the bots): the action made
    (a placement when there is one), or None once the game is over."""
    while time.monotonic() < deadline:
        state = client.get(f"/api/games/{game_id}/state").json()
        if state["view"]["over"]:
            return None
        legal = state["legal_actions"]
        if not legal:
            time.sleep(0.05)  # the bots' turn: poll again (bounded by the deadline)
            continue
        places = [a for a in legal if a["type"] == "place"]
        action = rng.choice(places or [a for a in legal if a["type"] != "pass"] or legal)
        r = client.post(
            f"/api/games/{game_id}/actions", json={"version": state["version"], "action": action}
        )
        assert r.status_code in (200, 409), r.text
        return action
    raise AssertionError("the game did not move in time")


# Own server: /watch lists every live game on the server (the filter's "1 of 2").
def test_watch_lists_live_boards_that_update_and_filter(browser: Any, own_real_server: str) -> None:
    url = own_real_server
    host = _guest(url, "Nessie")
    two, three = _live(host, 2), _live(host, 3)
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors = watch_console(page)
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    page.goto(url + "/watch")
    for game_id in (two, three):
        page.wait_for_selector(f'li.watch-card[data-game-id="{game_id}"] canvas', timeout=15000)
        page.wait_for_function(DRAWN, arg=f'li.watch-card[data-game-id="{game_id}"] canvas')
    card = page.locator(f'li.watch-card[data-game-id="{two}"]')
    assert "Nessie" in card.inner_text()
    before = int(card.get_attribute("data-version"))
    image = page.evaluate(
        "(s) => document.querySelector(s).toDataURL()",
        f'li.watch-card[data-game-id="{two}"] canvas',
    )
    rng = random.Random(two)
    deadline = time.monotonic() + 60
    while True:  # until a Dragon is placed: the board itself changes then
        action = _move(host, two, rng, deadline)
        assert action is not None, "the game ended before a placement"
        if action["type"] == "place":
            break
    page.wait_for_function(
        "([sel, old]) => Number(document.querySelector(sel).dataset.version) > old",
        arg=[f'li.watch-card[data-game-id="{two}"]', before],
        timeout=15000,
    )
    # The board drawn anew (the move placed a Dragon or changed the board's state).
    page.wait_for_function(
        "([sel, old]) => document.querySelector(sel).toDataURL() !== old",
        arg=[f'li.watch-card[data-game-id="{two}"] canvas', image],
        timeout=15000,
    )
    page.select_option('select[name="players"]', "3")
    assert page.locator(f'li.watch-card[data-game-id="{two}"]').is_hidden()
    assert page.locator(f'li.watch-card[data-game-id="{three}"]').is_visible()
    assert page.locator("#watch-status").inner_text().startswith("1 of 2")
    shot(page, "watch-list")
    # One socket for the whole page, whatever the number of games.
    assert [s for s in sockets if "/ws/" in s] == [
        s for s in sockets if s.endswith("/ws/watch?view=list")
    ]
    assert len(sockets) == 1, sockets
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.set_viewport_size({"width": 390, "height": 844})  # a phone: no sideways scroll either
    page.wait_for_function("() => document.documentElement.scrollWidth <= window.innerWidth")
    shot(page, "watch-list-phone")
    assert errors == []
    page.close()


# Own server: /tv and the home page feature one of all the server's live games.
def test_tv_and_the_home_page_switch_to_the_next_game_when_the_featured_one_ends(
    browser: Any, own_real_server: str
) -> None:
    url = own_real_server
    host = _guest(url, "Morgan")
    first = _live(host, 2)
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors = watch_console(page)
    page.goto(url + "/tv")
    page.wait_for_selector(f'#tv-game[data-game-id="{first}"]', timeout=15000)
    page.wait_for_function(DRAWN, arg="#tv-board")
    home = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    home_errors = watch_console(home)
    home.goto(url + "/")
    home.wait_for_selector(f'#featured[data-game-id="{first}"]', timeout=15000)
    assert home.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    shot(page, "tv-first")
    second = _live(host, 2)
    rng = random.Random(first)
    deadline = time.monotonic() + 180
    while _move(host, first, rng, deadline):
        pass
    page.wait_for_selector(f'#tv-game[data-game-id="{second}"]', timeout=15000)
    home.wait_for_selector(f'#featured[data-game-id="{second}"]', timeout=15000)
    shot(page, "tv-next")
    assert errors == [] and home_errors == []
    page.close()
    home.close()


def test_following_a_player_opens_their_next_game(browser: Any, real_server: str) -> None:
    url = real_server
    ann = _account(url, "annfollow")
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors = watch_console(page)
    page.goto(url + "/u/annfollow")
    page.click("#follow")
    page.wait_for_function(
        "() => document.querySelector('#follow-status').textContent.includes('next game')"
    )
    shot(page, "follow-waiting")
    with page.expect_navigation(timeout=20000):
        game_id = _live(ann, 2)
    assert page.url.endswith(f"/games/{game_id}")
    page.wait_for_selector("canvas")
    assert errors == []
    page.close()


def test_the_lobby_offers_a_spectator_delay_for_rated_live_tables(
    browser: Any, real_server: str
) -> None:
    url = real_server
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors = watch_console(page)
    page.goto(url + "/")
    page.get_by_role("tab", name="Register").click()
    page.fill('#identity input[name="username"]', "delaying")
    page.fill('#identity input[name="password"]', "correct horse")
    page.click('#identity button[type="submit"]')
    page.wait_for_selector("#create:not([hidden])")
    assert page.locator("#delay-option").is_hidden()  # unrated: no delay
    page.check('#create-form input[name="rated"]')
    assert page.locator("#delay-option").is_visible()
    page.select_option('#create-form select[name="clock"]', "daily:86400")
    assert page.locator("#delay-option").is_hidden()  # a daily table: no delay either
    page.select_option('#create-form select[name="clock"]', "live:300:5")
    page.select_option('#create-form select[name="spectator_delay"]', "moves:2")
    with page.expect_navigation():
        page.click('#create-form button[type="submit"]')
    game_id = int(page.url.rstrip("/").split("/")[-1])
    game = httpx.get(f"{url}/api/games/{game_id}", timeout=20).json()
    assert game["rated"] is True and game["options"]["spectator_delay"] == {"moves": 2}
    assert errors == []
    page.close()

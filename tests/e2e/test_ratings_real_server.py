"""Ratings in the browser, against the real server: a rated game from the lobby to the profiles.

Two accounts open a rated table from the lobby form (with a greedy bot), see the expected
places in the waiting room, play the game to the end (their moves go through the real API:
the first legal action each time, which is quick; the bot plays itself), and then the end
screen links both profiles, whose ratings and history charts now show the game; the lobby's
"Your games" lists it, finished, with the rating change.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from tests.e2e.conftest import QUICK, SharedApps
from tests.e2e.helpers import shot, watch_console

# The app runs in a process shared with the other tests on its settings (QUICK).
pytestmark = [pytest.mark.e2e, pytest.mark.server]


@pytest.fixture
def rated_server(shared_apps: SharedApps) -> str:
    """The real app with quick bots and jobs, shared by this worker's tests that ask for these
    settings (tests/e2e/conftest.py QUICK)."""
    return shared_apps.url(**QUICK)


def _register(page: Any, url: str, name: str) -> None:
    page.goto(url + "/")
    r = page.request.post(url + "/api/users", data={"username": name, "password": "sea dragons!"})
    assert r.ok, r.text()


def _play_to_the_end(url: str, game_id: int, players: dict[int, Any], deadline: float) -> None:
    """Each person's move, when it is theirs: their first legal action, over their session."""
    while time.monotonic() < deadline:
        game = players[0].request.get(url + f"/api/games/{game_id}").json()
        if game["status"] == "finished":
            return
        page = players.get(game["to_act"])
        if page is None:  # the bot's turn: it plays by itself
            time.sleep(0.05)
            continue
        state = page.request.get(url + f"/api/games/{game_id}/state").json()
        if not state["legal_actions"]:
            continue
        page.request.post(
            url + f"/api/games/{game_id}/actions",
            data={"version": state["version"], "action": state["legal_actions"][0]},
        )
    raise AssertionError("the game did not end in time")


@pytest.mark.timeout(300)
def test_a_rated_game_changes_both_profiles_and_draws_the_chart(
    browser: Any, rated_server: str
) -> None:
    url = rated_server
    ann_ctx = browser.new_context(viewport={"width": 1300, "height": 900})
    bob_ctx = browser.new_context(viewport={"width": 1300, "height": 900})
    ann, bob = ann_ctx.new_page(), bob_ctx.new_page()
    errors = watch_console(bob, watch_console(ann))
    _register(ann, url, "ann")
    _register(bob, url, "bob")
    # Before: Bob's profile has no rating yet.
    bob.goto(url + "/u/bob")
    bob.wait_for_selector(".rating[data-variant='base'] .rating-number:text('unrated')")
    assert bob.query_selector(".rating-chart") is None
    # Ann opens a rated 3-player table with one greedy bot from the lobby form.
    ann.goto(url + "/")
    ann.wait_for_selector("#rated-option", state="visible")
    ann.select_option("#create-form select[name=players]", "3")
    ann.select_option("#create-form select[name=bots]", "1")
    ann.select_option("#create-form select[name=bot_level]", "greedy")
    ann.check("#create-form input[name=rated]")
    ann.click("#create-form button[type=submit]")
    ann.wait_for_url(re.compile(r"/games/\d+$"))
    game_id = int(ann.url.rsplit("/", 1)[1])
    game = ann.request.get(url + f"/api/games/{game_id}").json()
    assert game["rated"] is True
    assert bob.request.post(
        url + f"/api/games/{game_id}/join", data={"invite_code": game["invite_code"]}
    ).ok
    # The waiting room shows the expected places of the three seats.
    ann.wait_for_selector("#waiting .prediction-list li[data-seat='2']", timeout=15_000)
    assert len(ann.query_selector_all("#waiting .prediction-list li")) == 3
    shot(ann, "ratings-waiting-room")
    ann.click("#waiting button:has-text('Start the game')")
    ann.wait_for_selector("#table", state="visible", timeout=20_000)
    bob.goto(url + f"/games/{game_id}")
    seats = {s["seat"]: s for s in ann.request.get(url + f"/api/games/{game_id}").json()["seats"]}
    people = {
        next(i for i, s in seats.items() if (s["player"] or {}).get("username") == name): page
        for name, page in (("ann", ann), ("bob", bob))
    }
    _play_to_the_end(url, game_id, people, time.monotonic() + 200)
    # The end screen links both profiles.
    ann.wait_for_selector("#profile-links a.profile-link", timeout=30_000)
    links = {a.inner_text() for a in ann.query_selector_all("#profile-links a.profile-link")}
    assert links == {"ann", "bob"}
    shot(ann, "ratings-end-links")
    ann.click("#profile-links a.profile-link:has-text('bob')")
    ann.wait_for_url(re.compile(r"/u/bob$"))
    # Bob's profile now has a rating and a chart with one point (the results job is quick).
    for page, name in ((ann, "bob"), (bob, "ann")):
        page.goto(url + f"/u/{name}")
        page.wait_for_function(
            "() => document.querySelector(\".rating[data-variant='base'] .rating-chart\")",
            timeout=20_000,
        )
        chart = page.query_selector(".rating[data-variant='base'] .rating-chart")
        assert chart.get_attribute("data-points") == "1"
        assert page.query_selector(".rating-chart polyline") is not None
        number = page.inner_text(".rating[data-variant='base'] .rating-number")
        assert re.fullmatch(r"\d+\??", number), number
        assert page.query_selector(f"#recent li[data-game-id='{game_id}'] a[href$='/replay']")
        shot(page, f"ratings-profile-{name}")
    # "Your games" lists it among the finished, rated, with the change.
    ann.goto(url + "/")
    item = f"#my-games li[data-group='finished'][data-game-id='{game_id}']"
    ann.wait_for_selector(item, timeout=15_000)
    assert "rated" in ann.inner_text(item)
    assert not errors, errors
    ann_ctx.close()
    bob_ctx.close()

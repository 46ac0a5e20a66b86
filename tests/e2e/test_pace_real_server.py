"""Clocks in the browser, against the real server: clocks, Your games, notifications, rematch.

1. A guest creates a table with a live clock from the lobby form: the lobby lists the clock, the
   table shows a clock that ticks, "Your games" leads with the game waiting for her and the tab
   title counts it.
2. A fast clock runs out while the page is hidden: a bot plays the turn (the log says so), and
   when it is her turn again the page shows a browser notification (permission asked once, from
   a click; the browser's Notification is recorded by a stand-in).
3. Two players finish a game (bots play for them), one offers a rematch from the end screen, the
   other accepts with one click: both land at the new table, which starts by itself.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from tests.e2e.conftest import QUICK, SharedApps
from tests.e2e.helpers import shot, watch_console
from tests.e2e.play import sign_in_as_guest

# The app runs in a process shared with the other tests on its settings (QUICK).
pytestmark = [pytest.mark.e2e, pytest.mark.server]

# A stand-in for the browser's Notification (headless Chromium shows none): records each one.
FAKE_NOTIFICATION = """
window.__notes = [];
window.__asked = 0;
class FakeNotification {
  constructor(title, options) { window.__notes.push({title, body: options?.body}); }
  close() {}
}
FakeNotification.permission = "default";
FakeNotification.requestPermission = async () => {
  window.__asked += 1;
  FakeNotification.permission = "granted";
  return "granted";
};
window.Notification = FakeNotification;
"""
HIDE_PAGE = "Object.defineProperty(document, 'visibilityState', {get: () => 'hidden'})"


@pytest.fixture
def pace_server(shared_apps: SharedApps) -> str:
    """The real app with fast sweeps and bots (seconds), on SQLite, shared by this worker's
    tests that ask for these settings (tests/e2e/conftest.py QUICK)."""
    return shared_apps.url(**QUICK)


def _clock_seconds(text: str) -> int:
    parts = [int(p) for p in text.split(":")]
    return (
        parts[0] * 60 + parts[1] if len(parts) == 2 else parts[0] * 3600 + parts[1] * 60 + parts[2]
    )


def _create_live_clock_table(page: Any, url: str, name: str) -> None:
    """Sign in as `name` and create a 2-player table against a random bot with a live clock of
    5 min + 5 s a turn; the page lands in its waiting room."""
    sign_in_as_guest(page, url, name)
    page.select_option("#create-form select[name=players]", "2")
    page.select_option("#create-form select[name=bots]", "1")
    page.select_option("#create-form select[name=bot_level]", "random")
    page.select_option("#create-form select[name=clock]", "live:300:5")
    page.click("#create-form button[type=submit]")
    page.wait_for_url(re.compile(r"/games/\d+$"))


def test_a_live_clock_from_the_lobby_ticks_and_your_games_lead(
    browser: Any, pace_server: str
) -> None:
    url = pace_server
    ctx = browser.new_context(viewport={"width": 1400, "height": 950})
    page = ctx.new_page()
    errors = watch_console(page)
    _create_live_clock_table(page, url, "Nessie")
    game_id = int(page.url.rsplit("/", 1)[1])
    # The lobby lists the table with its clock.
    lobby = ctx.new_page()
    lobby.goto(url + "/")
    lobby.wait_for_selector(f"#my-games li[data-game-id='{game_id}']")
    assert "Live clock · 5 min + 5 s a turn" in lobby.inner_text(
        f"#my-games li[data-game-id='{game_id}']"
    )
    page.click("#waiting button:has-text('Start the game')")
    # My clock runs on my turn (the bot's turns take a moment): it counts down in the page.
    row = "#clock .clock-row.running[data-seat='0'] .clock-time"
    page.wait_for_selector(row, timeout=30_000)
    first = _clock_seconds(page.inner_text(row))
    assert 295 <= first <= 305, first
    page.wait_for_function(
        "([sel, v]) => { const el = document.querySelector(sel); return el && "
        "el.textContent.split(':').reduce((a, b) => a * 60 + Number(b), 0) < v; }",
        arg=[row, first],
        timeout=10_000,
    )
    shot(page, "pace-clock-ticking")
    # "Your games" leads with the game waiting for me; the tab title counts it.
    lobby.reload()
    lobby.wait_for_selector(f"#my-games li[data-group='waiting'][data-game-id='{game_id}']")
    lobby.wait_for_function("() => document.title.startsWith('(1) ')")
    assert "left" in lobby.inner_text(f"#my-games li[data-game-id='{game_id}']")
    shot(lobby, "pace-your-games")
    assert not errors, errors
    ctx.close()


def test_a_turn_that_runs_out_while_hidden_is_played_by_a_bot_then_the_page_notifies(
    browser: Any, pace_server: str
) -> None:
    url = pace_server
    ctx = browser.new_context(viewport={"width": 1400, "height": 950})
    ctx.add_init_script(FAKE_NOTIFICATION)
    page = ctx.new_page()
    errors = watch_console(page)
    sign_in_as_guest(page, url, "Ann")
    game = page.request.post(
        url + "/api/games",
        data={
            "players": 2,
            "first_player": 0,
            "clock": {"mode": "live", "initial": 3, "per_turn": 1},
        },
    ).json()
    assert page.request.post(url + f"/api/games/{game['id']}/bots", data={"level": "random"}).ok
    page.goto(url + f"/games/{game['id']}")
    page.click("#waiting button:has-text('Start the game')")
    # Permission is asked from a click on the offer, once.
    page.click("#notify-offer button")
    page.wait_for_function("() => window.__asked === 1")
    # Granted, the offer becomes the page's own on/off switch (on).
    page.wait_for_selector("#notify-offer .notify-switch[aria-pressed=true]")
    page.evaluate(HIDE_PAGE)
    # 4 s later turn 1 runs out: a bot plays it, the log says so; then the bot's own turn; then
    # it is my turn again, and the hidden page shows a notification.
    page.wait_for_selector("#log li:has-text('ran out of time')", timeout=30_000)
    page.wait_for_function("() => window.__notes.length >= 1", timeout=30_000)
    note = page.evaluate("() => window.__notes[0]")
    assert note["title"].startswith("Your turn") and str(game["id"]) in note["body"]
    assert page.evaluate("() => window.__asked") == 1
    page.wait_for_selector("#clock .clock-timeouts", timeout=30_000)
    shot(page, "pace-timeout-notified")
    assert not errors, errors
    ctx.close()


def test_a_rematch_offered_at_the_end_is_accepted_with_one_click(
    browser: Any, pace_server: str
) -> None:
    url = pace_server
    ann_ctx = browser.new_context(viewport={"width": 1300, "height": 900})
    bob_ctx = browser.new_context(viewport={"width": 1300, "height": 900})
    ann, bob = ann_ctx.new_page(), bob_ctx.new_page()
    errors = watch_console(bob, watch_console(ann))
    sign_in_as_guest(ann, url, "Ann")
    sign_in_as_guest(bob, url, "Bob")
    game = ann.request.post(url + "/api/games", data={"players": 2}).json()
    gid = game["id"]
    assert bob.request.post(
        url + f"/api/games/{gid}/join", data={"invite_code": game["invite_code"]}
    ).ok
    assert ann.request.post(url + f"/api/games/{gid}/start").ok
    ann.goto(url + f"/games/{gid}")
    bob.goto(url + f"/games/{gid}")
    # Both let a bot play for them, so the game ends by itself in a few seconds.
    for page in (ann, bob):
        seat = page.request.get(url + f"/api/games/{gid}").json()["your_seat"]
        assert page.request.post(
            url + f"/api/games/{gid}/seats/{seat}/bot", data={"level": "random"}
        ).ok
    began = time.monotonic()
    ann.wait_for_selector("#rematch button:has-text('Offer a rematch')", timeout=120_000)
    print(f"\nbots finished the game in {time.monotonic() - began:.1f} s")
    ann.click("#rematch button:has-text('Offer a rematch')")
    ann.wait_for_url(lambda u: bool(re.search(r"/games/\d+$", u)) and not u.endswith(f"/{gid}"))
    new_id = int(ann.url.rsplit("/", 1)[1])
    assert new_id != gid
    # Bob's end screen learns of the offer by itself; one click and he is at the new table.
    bob.wait_for_selector("#rematch button:has-text('Accept')", timeout=15_000)
    shot(bob, "pace-rematch-offer")
    bob.click("#rematch button:has-text('Accept')")
    bob.wait_for_url(re.compile(rf"/games/{new_id}$"))
    for page in (ann, bob):
        page.wait_for_selector("#table", state="visible", timeout=20_000)
    state = ann.request.get(url + f"/api/games/{new_id}").json()
    assert state["status"] == "live" and state["rematch_of"] == gid
    assert {s["player"]["display_name"] for s in state["seats"]} == {"Ann", "Bob"}
    assert not errors, errors
    ann_ctx.close()
    bob_ctx.close()


def test_the_account_page_sets_notices_and_says_what_the_server_can_do(
    browser: Any, pace_server: str
) -> None:
    url = pace_server
    ctx = browser.new_context()
    page = ctx.new_page()
    errors = watch_console(page)
    page.goto(url + "/")
    assert page.request.post(
        url + "/api/users", data={"username": "nessie", "password": "sea dragons!"}
    ).ok
    page.goto(url + "/account")
    # This server has no SMTP URL: the page says so, and offers no address field and no box
    # that would promise emails (tests/e2e/test_account_page.py: a server that sends them).
    page.wait_for_selector("#account :text('not set up to send email')")
    assert page.query_selector("#email-form") is None and page.query_selector("#notices") is None
    assert page.query_selector("#password-form") is not None
    shot(page, "pace-account")
    guest = browser.new_context().new_page()
    sign_in_as_guest(guest, url, "Gus")
    guest.goto(url + "/account")
    guest.wait_for_selector("#account :text('need an account')")
    assert guest.query_selector("#password-form") is None
    assert not errors, errors
    ctx.close()


def test_a_browser_clock_four_minutes_fast_still_shows_the_servers_time_left(
    browser: Any, pace_server: str
) -> None:
    """Deadlines are the server's: the page counts down with the server's time as the socket
    measured it (ping/pong), not the browser's own clock, which here runs 240 s fast."""
    url = pace_server
    ctx = browser.new_context(viewport={"width": 1400, "height": 950})
    ctx.add_init_script("{ const real = Date.now; Date.now = () => real() + 240000; }")
    page = ctx.new_page()
    errors = watch_console(page)
    _create_live_clock_table(page, url, "Skewed")
    page.click("#waiting button:has-text('Start the game')")
    row = "#clock .clock-row.running[data-seat='0'] .clock-time"
    page.wait_for_selector(row, timeout=30_000)
    # Uncorrected, the 300 s bank would show about 60 s left (or 0:00 once a minute passes).
    page.wait_for_function(
        "(sel) => { const el = document.querySelector(sel); if (!el) return false; "
        "const s = el.textContent.split(':').reduce((a, b) => a * 60 + Number(b), 0); "
        "return s >= 280 && s <= 305; }",
        arg=row,
        timeout=10_000,
    )
    assert not errors, errors
    ctx.close()

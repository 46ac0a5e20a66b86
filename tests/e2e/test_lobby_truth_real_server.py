"""The lobby and the waiting room tell the truth, against the real server: the lists' refresh
keeps what a person types; a full waiting table is listed as full with nothing to join, the host
can cancel, a player can leave; turn notices can be switched off in the page; the log comes
from the socket."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.e2e.conftest import REAL_SERVER, SharedApps
from tests.e2e.helpers import shot, watch_console
from tests.e2e.play import sign_in_as_guest
from tests.e2e.test_pace_real_server import FAKE_NOTIFICATION

pytestmark = pytest.mark.e2e

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
# The lobby re-reads its lists every second here (10 s by default): the refresh test waits
# for two of them per page, the same code path, without waiting out the default interval.
QUICK_LOBBY = {**REAL_SERVER, "LOBBY_REFRESH_SECONDS": "1"}


@pytest.fixture
def lobby_server(shared_apps: SharedApps) -> str:
    """The shared real app with a quick lobby refresh."""
    return shared_apps.url(**QUICK_LOBBY)


def _next_refresh(page: Any) -> None:
    """Wait for the lobby's next periodic refresh to be answered (its last list request)."""
    with page.expect_response(lambda r: "/api/games?status=finished" in r.url, timeout=30_000):
        pass
    # The answer is drawn in the same task that awaited it; one frame later it is on screen.
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => r()))")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_lobby_refresh_keeps_the_forms_being_typed_in(
    browser: Any, lobby_server: str, viewport: dict[str, int]
) -> None:
    url = lobby_server
    page = browser.new_page(viewport=viewport)
    errors = watch_console(page)
    page.goto(url + "/")
    page.click("#identity [role=tab]:has-text('Log in')")
    page.fill("#identity input[name=username]", "half-typed")
    _next_refresh(page)
    assert page.get_attribute("#identity [role=tab]:has-text('Log in')", "aria-selected") == "true"
    assert page.input_value("#identity input[name=username]") == "half-typed"
    # Signed in as a guest, "Register this guest" stays open with what was typed.
    page.click("#identity [role=tab]:has-text('Play as guest')")
    page.fill("#identity input[name=name]", "Nessie")
    page.click("#identity button[type=submit]")
    page.wait_for_selector("#identity h2:has-text('Nessie')")
    page.click("#identity details summary")
    page.fill("#identity details input[name=username]", "nessie-forever")
    _next_refresh(page)
    assert page.locator("#identity details").get_attribute("open") is not None
    assert page.input_value("#identity details input[name=username]") == "nessie-forever"
    shot(page, f"truth-lobby-refresh-{viewport['width']}", full_page=False)
    assert not errors, errors


def test_a_full_waiting_table_says_so_the_host_cancels_and_a_player_leaves(
    browser: Any, real_server: str
) -> None:
    url = real_server
    host_ctx, guest_ctx, other_ctx = (browser.new_context(viewport=DESKTOP) for _ in range(3))
    host, guest, other = host_ctx.new_page(), guest_ctx.new_page(), other_ctx.new_page()
    errors = watch_console(host) + watch_console(guest)
    sign_in_as_guest(host, url, "Hostess")
    host.select_option("#create-form select[name=players]", "2")
    host.click("#create-form button[type=submit]")
    host.wait_for_url(re.compile(r"/games/\d+$"))
    game_id = int(host.url.rsplit("/", 1)[1])
    host.wait_for_selector("#waiting button[data-key=cancel-table]")
    assert host.locator("#waiting button[data-key=leave]").count() == 0
    # A second player sits down from the lobby: the table is now full.
    sign_in_as_guest(guest, url, "Guest")
    guest.click(f"#open-games li[data-game-id='{game_id}'] a:has-text('Join')")
    guest.wait_for_url(re.compile(rf"/games/{game_id}$"))
    guest.click("#waiting button:has-text('Take a seat')")
    guest.wait_for_selector("#waiting button[data-key=leave]")
    # Anyone else sees it full, with nothing to join; the seated guest's "Your games" agrees.
    sign_in_as_guest(other, url, "Onlooker")
    item = f"#open-games li[data-game-id='{game_id}']"
    other.wait_for_selector(item)
    text = other.inner_text(item)
    assert "full, waiting for the host to start" in text and "2/2 players" in text
    assert other.locator(f"{item} a:has-text('Join')").count() == 0
    shot(other, "truth-lobby-full-table-1280", full_page=False)
    guest.goto(url + "/")
    mine = f"#my-games li[data-game-id='{game_id}']"
    guest.wait_for_selector(mine)
    assert "full, waiting for the host to start" in guest.inner_text(mine)
    # The guest leaves: the table has room again.
    guest.goto(f"{url}/games/{game_id}")
    guest.click("#waiting button[data-key=leave]")
    guest.wait_for_selector("#waiting button:has-text('Take a seat')")
    other.reload()
    other.wait_for_selector(f"{item} a:has-text('Join')")
    # The host cancels (two steps): the table is gone from the lobby.
    host.click("#waiting button[data-key=cancel-table]")
    host.click("#waiting button[data-key=cancel-sure]")
    host.wait_for_selector("#waiting :text('This table was cancelled')")
    shot(host, "truth-table-cancelled-1280", full_page=False)
    other.reload()
    other.wait_for_selector("#open-games li")
    assert other.locator(item).count() == 0
    assert not errors, errors
    for ctx in (host_ctx, guest_ctx, other_ctx):
        ctx.close()


def test_turn_notices_can_be_switched_off_in_the_page(browser: Any, real_server: str) -> None:
    url = real_server
    ctx = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    ctx.add_init_script(FAKE_NOTIFICATION)
    ctx.add_init_script("Notification.permission = 'granted'")
    page = ctx.new_page()
    errors = watch_console(page)
    sign_in_as_guest(page, url, "Ann")
    game = page.request.post(url + "/api/games", data={"players": 2, "first_player": 0}).json()
    assert page.request.post(url + f"/api/games/{game['id']}/bots", data={"level": "random"}).ok
    page.goto(url + f"/games/{game['id']}")
    page.click("#waiting button:has-text('Start the game')")
    switch = "#notify-offer .notify-switch"
    page.wait_for_selector(f"{switch}[aria-pressed=true]")
    page.click(switch)
    page.wait_for_selector(f"{switch}[aria-pressed=false]")
    assert "off" in page.inner_text(switch)
    # Off stays off on this browser (the browser permission itself cannot be taken back).
    page.reload()
    page.wait_for_selector(f"{switch}[aria-pressed=false]")
    shot(page, "truth-notices-off-390", full_page=False)
    page.click(switch)
    page.wait_for_selector(f"{switch}[aria-pressed=true]")
    assert not errors, errors
    ctx.close()


def test_the_table_log_comes_from_the_socket(browser: Any, real_server: str) -> None:
    """Moves' log lines arrive on the socket (its `log` frames): the page reads GET .../log
    for the moves before it connected, not once per move."""
    url = real_server
    page = browser.new_page(viewport=DESKTOP)
    errors = watch_console(page)
    log_reads: list[str] = []
    page.on("request", lambda r: log_reads.append(r.url) if "/log?" in r.url else None)
    sign_in_as_guest(page, url, "Ann")
    game = page.request.post(url + "/api/games", data={"players": 2, "first_player": 0}).json()
    assert page.request.post(url + f"/api/games/{game['id']}/bots", data={"level": "random"}).ok
    page.goto(url + f"/games/{game['id']}")
    page.click("#waiting button:has-text('Start the game')")
    page.wait_for_selector("#conn[data-status=live]")
    page.wait_for_function("() => window.seadragons.st.isMyTurn(window.seadragons.state)")
    reads_at_start = len(log_reads)
    lines_at_start = page.locator("#log li").count()
    for _ in range(3):  # my moves through the API; the bot answers with its own
        page.wait_for_function("() => window.seadragons.st.isMyTurn(window.seadragons.state)")
        state = page.request.get(url + f"/api/games/{game['id']}/state").json()
        legal = [a for a in state["legal_actions"] if a["type"] != "pass"] or state["legal_actions"]
        body = {"version": state["version"], "action": legal[0]}
        assert page.request.post(url + f"/api/games/{game['id']}/actions", data=body).ok
        page.wait_for_function("v => window.seadragons.state.version > v", arg=state["version"])
    page.wait_for_function(
        "n => document.querySelectorAll('#log li').length > n", arg=lines_at_start
    )
    assert page.get_attribute("#conn", "data-status") == "live"
    assert len(log_reads) == reads_at_start, log_reads  # no GET .../log per move
    assert not errors, errors

"""End to end against the real server (uvicorn, temp SQLite, the server's own bot runner).

A guest creates a table with a bot from the lobby form and plays it to the end, making every
decision through the page (pointer for some placements, keyboard alone for others, buttons for
the rest); a second browser context spectates and sees the same board; the player reloads
mid-game and is back at the table; the tab title marks the player's turns. A second test joins
a private table through an invite link that carries only its code."""

from __future__ import annotations

import re
import time
from typing import Any

import httpx
import pytest

from app.services.tables.names import bot_name
from tests.e2e.helpers import shot, watch_console
from tests.e2e.play import (
    TITLE_RECORDER,
    place_with_keyboard,
    play_turns,
    sign_in_as_guest,
    snapshot,
    wait_my_move,
    wait_version_change,
)

pytestmark = pytest.mark.e2e

MARK = "● Your turn · "


def create_table(page: Any, players: int, bots: int = 0, level: str = "random", **opts: str) -> int:
    """Fill in the lobby's "Create a table" form; returns the new game's id."""
    page.select_option("#create-form select[name=players]", str(players))
    page.select_option("#create-form select[name=bots]", str(bots))
    if bots:
        page.select_option("#create-form select[name=bot_level]", level)
    for name, value in opts.items():
        page.select_option(f"#create-form select[name={name}]", value)
    page.click("#create-form button[type=submit]")
    page.wait_for_url(re.compile(r"/games/\d+$"))
    return int(page.url.rsplit("/", 1)[1])


def test_guest_plays_a_bot_to_the_end(browser: Any, real_server: str) -> None:
    """Lobby form with a bot, the whole game through the UI, a spectator, a reload, the title."""
    url = real_server
    started = time.monotonic()
    deadline = started + 170
    player_ctx = browser.new_context(viewport={"width": 1400, "height": 950})
    player_ctx.add_init_script(TITLE_RECORDER)
    watch_ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    player, watcher = player_ctx.new_page(), watch_ctx.new_page()
    errors = watch_console(watcher, watch_console(player))

    sign_in_as_guest(player, url, "Nessie")
    shot(player, "lobby-signed-in")
    game_id = create_table(player, players=2, bots=1, level="random")
    # The waiting room names the bot and shows its level; nothing of the table shows yet.
    bot_seat = player.wait_for_selector("#waiting li.seat[data-seat='1'] .badge-seat.bot")
    assert "beginner" in bot_seat.inner_text()  # the random level, named for players
    bot = bot_name(game_id, 1)
    assert player.inner_text("#waiting li.seat[data-seat='1'] b") == bot
    assert not player.is_visible("#table")
    shot(player, "waiting-room-with-bot")
    player.click("#waiting button.primary:has-text('Start')", timeout=15000)
    player.wait_for_selector("#hand .card.pattern", timeout=20000)
    base_title = f"Game {game_id} · Sea Dragons Online"

    log_reads: list[str] = []
    watcher.on("request", lambda r: log_reads.append(r.url) if "/log" in r.url else None)
    watcher.goto(f"{url}/games/{game_id}")
    watcher.wait_for_selector("#players .player")
    assert "watching" in watcher.inner_text("#hand")
    assert watcher.locator("#actions button").count() == 0
    # Both see the bot's seat as a bot, with its level.
    for page in (player, watcher):
        badge = page.wait_for_selector("#players .player[data-seat='1'] .badge-seat.bot")
        assert "beginner" in badge.inner_text()

    placements = [0]
    first = wait_my_move(player)
    assert not first["over"]
    player.wait_for_function("t => document.title === t", arg=MARK + base_title)

    # Two placements (one by pointer, one by keyboard), then reload mid-game.
    play_turns(player, lambda s: placements[0] >= 2 and s["places"], placements, deadline)
    shot(player, "table-before-reload")
    before = snapshot(player)
    player.reload()
    player.wait_for_selector("#hand .card.pattern")
    player.wait_for_function("v => window.seadragons?.state?.version >= v", arg=before["version"])
    after = wait_my_move(player)
    assert after["seat"] == before["seat"] == 0
    assert after["version"] == before["version"] and after["dragons"] == before["dragons"]
    assert player.is_visible("#table") and not player.is_visible("#waiting")
    shot(player, "table-after-reload")
    # Right after the reload a placement by keyboard alone still works.
    if after["places"]:
        place_with_keyboard(player)
        placements[0] += 1

    # On one of my turns (the bot cannot move then) the spectator shows the same board.
    snap = play_turns(player, lambda s: placements[0] >= 4 and s["places"], placements, deadline)
    if not snap["over"]:
        watcher.wait_for_function("v => window.seadragons.state.version === v", arg=snap["version"])
        assert snapshot(watcher)["dragons"] == snap["dragons"]
        shot(watcher, "spectator-mid-game")

    play_turns(player, lambda s: False, placements, deadline)
    player.wait_for_selector("#scores table.scores")
    shot(player, "final-scores")
    watcher.wait_for_selector("#scores table.scores", timeout=20000)
    assert snapshot(watcher)["dragons"] == snapshot(player)["dragons"]
    # The spectator's log came in the moves' log frames: the page read GET /log when it loaded
    # (and at most again after a reconnect), not once per version.
    assert watcher.locator("#log li").count() >= 10
    assert 1 <= len(log_reads) <= 3, log_reads
    assert placements[0] >= 4
    assert bot in player.inner_text("#scores table.scores thead")

    # The tab title: marked on each of my turns, back to normal in between and at the end.
    player.wait_for_function("t => document.title === t", arg=base_title)
    titles = player.evaluate("() => window.__titles")
    assert titles[-1] == base_title
    marked = [i for i, t in enumerate(titles) if t == MARK + base_title]
    assert marked and any(titles[i + 1] == base_title for i in marked if i + 1 < len(titles))
    assert set(titles) == {base_title, MARK + base_title}, titles

    game = httpx.get(f"{url}/api/games/{game_id}").json()
    assert game["status"] == "finished" and game["seats"][1]["bot_level"] == "random"
    # The lobby lists the finished game with the bot marked, and the replay opens at the end.
    watcher.goto(f"{url}/")
    item = watcher.wait_for_selector(f"#finished-games li[data-game-id='{game_id}']")
    assert "bot · beginner" in item.inner_text()
    shot(watcher, "lobby-with-finished-game")
    player.goto(f"{url}/games/{game_id}/replay")
    player.wait_for_selector("#moves li")
    player.click("#last")
    player.wait_for_selector("#scores table.scores")
    shot(player, "replay-end")
    assert not errors, errors
    assert time.monotonic() - started < 180
    for ctx in (player_ctx, watch_ctx):
        ctx.close()


def test_invite_link_with_the_code_alone(browser: Any, real_server: str) -> None:
    """A private table's link is /join/{code}: a new guest opens it, names themself, sits down."""
    url = real_server
    host_ctx = browser.new_context(viewport={"width": 1300, "height": 900})
    guest_ctx = browser.new_context(viewport={"width": 1100, "height": 800})
    host, guest = host_ctx.new_page(), guest_ctx.new_page()
    errors = watch_console(guest, watch_console(host))

    sign_in_as_guest(host, url, "Nessie")
    game_id = create_table(host, players=2, visibility="private")
    invite = host.wait_for_selector("#invite-link").input_value()
    code = invite.rsplit("/", 1)[1]
    assert invite == f"{url}/join/{code}", invite
    shot(host, "waiting-room")

    bad = guest_ctx.new_page()
    bad.goto(f"{url}/join/not-a-code")
    assert "does not match any table" in bad.wait_for_selector("#join .error").inner_text()
    bad.close()

    guest.goto(invite)
    guest.wait_for_selector(f"#join h1:has-text('Nessie invites you to table {game_id}')")
    shot(guest, "join-page")
    guest.fill("#join input[name=name]", "Kraken")
    guest.click("#join button[type=submit]")
    guest.wait_for_url(re.compile(rf"/games/{game_id}\?code="))
    guest.wait_for_selector("#waiting li.seat[data-seat='1'] .you")
    host.click("#waiting button.primary:has-text('Start')", timeout=15000)
    for page in (host, guest):
        page.wait_for_selector("#hand .card.pattern", timeout=20000)
    # The old form of the link (?game=) still leads a seated player back to the table.
    guest.goto(f"{url}/join/{code}?game={game_id}")
    guest.wait_for_url(re.compile(rf"/games/{game_id}\?code="))
    guest.wait_for_selector("#hand .card.pattern")
    assert snapshot(guest)["seat"] == 1
    assert not errors, errors
    for ctx in (host_ctx, guest_ctx):
        ctx.close()


def test_step_away_and_take_the_seat_back(browser: Any, real_server: str) -> None:
    """A player lets a bot play their seat from the table, then takes it back."""
    url = real_server
    ctx = browser.new_context(viewport={"width": 1300, "height": 900})
    page = ctx.new_page()
    errors = watch_console(page)
    sign_in_as_guest(page, url, "Nessie")
    game_id = create_table(page, players=2, bots=1, level="random")
    page.click("#waiting button.primary:has-text('Start')", timeout=15000)
    page.wait_for_selector("#hand .card.pattern", timeout=20000)

    page.click("#actions details.hand-over summary")
    page.click("#actions button:has-text('Let a bot play for me')")
    page.wait_for_selector("#actions .stand-in:has-text('bot is playing your seat')", timeout=15000)
    # While the bot sits in, the server plays both seats: the game moves on without the player.
    start = snapshot(page)["version"]
    wait_version_change(page, start + 1, timeout=30)
    shot(page, "table-stepped-away")

    page.click("#actions .stand-in button:has-text('Take my seat back')")
    page.wait_for_selector("#actions .stand-in", state="detached", timeout=15000)
    seats = httpx.get(f"{url}/api/games/{game_id}").json()["seats"]
    assert seats[0]["bot_level"] is None and seats[0]["stand_in_for"] is None
    assert not errors, errors
    ctx.close()

"""Play now against the real server: two browsers (one a phone) wait in one pool and land at the
same table; a player alone starts with bots after the wait, or stops waiting."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import app_process
from tests.e2e.helpers import shot, watch_console

pytestmark = pytest.mark.e2e

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def server(tmp_path: Path, migrated_sqlite_file: Path) -> Iterator[str]:
    """A process of this test's own (the pools see every waiting player on the server), on a
    copy of the migrated database (no upgrade at start)."""
    with app_process(
        tmp_path, migrated_sqlite_file, BOT_DELAY_SECONDS="0.05", MATCH_BOTS_AFTER_SECONDS="2"
    ) as url:
        yield url


def _play_now(page: Any, url: str, name: str | None, players: str, pace: str) -> None:
    """The home page's Play now form; signed out, it asks the name and signs in as a guest."""
    page.goto(url + "/")
    form = page.locator("#play-now-form")
    if name is not None:
        form.locator("input[name=name]").fill(name)
    form.locator("select[name=players]").select_option(players)
    form.locator("select[name=pace]").select_option(pace)
    form.locator("button[type=submit]").click()
    page.wait_for_url(re.compile(r"/play/\d+$"))


def test_two_browsers_wait_in_one_pool_and_land_at_one_table(browser: Any, server: str) -> None:
    phone = browser.new_context(viewport=PHONE)
    desk = browser.new_context(viewport=DESKTOP)
    try:
        ann, bob = phone.new_page(), desk.new_page()
        errors = watch_console(ann) + watch_console(bob)
        _play_now(ann, server, "Ann", "2", "daily")
        ann.wait_for_selector("#match .count[data-waiting='1']")
        # The form fits a phone: nothing wider than the screen.
        assert ann.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
        shot(ann, "quick-match-waiting-phone", full_page=False)
        _play_now(bob, server, "Bob", "2", "daily")
        for page in (ann, bob):
            page.wait_for_url(re.compile(r"/games/\d+$"), timeout=20_000)
        assert ann.url == bob.url
        gid = int(ann.url.rsplit("/", 1)[1])
        game = ann.request.get(f"{server}/api/games/{gid}").json()
        assert game["status"] == "live" and game["your_seat"] is not None
        assert sorted(s["player"]["display_name"] for s in game["seats"]) == ["Ann", "Bob"]
        assert bob.request.get(f"{server}/api/games/{gid}").json()["your_seat"] is not None
        assert not errors, errors
    finally:
        phone.close()
        desk.close()


def test_alone_a_player_starts_with_bots_or_stops_waiting(browser: Any, server: str) -> None:
    ctx = browser.new_context(viewport=PHONE)
    try:
        page = ctx.new_page()
        errors = watch_console(page)
        _play_now(page, server, "Cleo", "3", "live")
        page.locator("#match-leave").click()
        page.wait_for_url(server + "/")
        assert page.request.get(f"{server}/api/match").json()["entries"] == []
        # Signed in now: the form asks no name any more.
        page.locator("#play-now-form button[type=submit]").wait_for()
        assert page.locator("#play-now-form [data-guest-name]").is_hidden()
        _play_now(page, server, None, "3", "live")
        bots = page.locator("#match-bots")
        bots.wait_for()
        page.wait_for_selector("#match-bots:not([disabled])", timeout=10_000)
        bots.click()
        page.wait_for_url(re.compile(r"/games/\d+$"), timeout=20_000)
        gid = int(page.url.rsplit("/", 1)[1])
        game = page.request.get(f"{server}/api/games/{gid}").json()
        assert game["status"] == "live" and game["players"] == 3
        assert [s["bot_level"] is not None for s in game["seats"]] == [False, True, True]
        assert not errors, errors
    finally:
        ctx.close()

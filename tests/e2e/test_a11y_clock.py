"""Extra time seen by everyone at the table (real server): the player to act asks for it (over
the API here; by keyboard in test_a11y_keyboard_game.py); a spectator's clock, whose countdown
reached the old deadline, reads the clock again and counts down to the new one; the turn does
not run out at the old deadline."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from tests.e2e.helpers import watch_console

pytestmark = pytest.mark.e2e

SEAT0_TIME = "#clock .clock-time[data-seat='0']"


def seconds(text: str) -> int:
    m = re.fullmatch(r"(\d+):(\d\d)", text.strip())
    assert m, text
    return int(m.group(1)) * 60 + int(m.group(2))


def test_a_spectator_sees_the_extended_deadline(browser: Any, real_server: str) -> None:
    url = real_server
    ann = httpx.Client(base_url=url, timeout=20, headers={"Origin": url})
    assert ann.post("/api/session/guest", json={"name": "Ann"}).status_code == 200
    clock = {"mode": "daily", "per_turn": 4, "extension": 60}
    game = ann.post("/api/games", json={"players": 2, "first_player": 0, "clock": clock}).json()
    gid = game["id"]
    assert ann.post(f"/api/games/{gid}/bots", json={"level": "random"}).status_code == 200
    page = browser.new_page()
    errors = watch_console(page)
    assert ann.post(f"/api/games/{gid}/start").status_code == 200
    page.goto(f"{url}/games/{gid}")
    page.wait_for_selector(SEAT0_TIME)
    assert ann.post(f"/api/games/{gid}/clock/extend").status_code == 200
    # The page had no frame about it: its countdown reaches 0:00 at the old deadline, then it
    # reads the clock again and shows the minute granted.
    page.wait_for_function(
        "sel => /^(0:5\\d|1:0\\d)$/.test(document.querySelector(sel)?.textContent ?? '')",
        arg=SEAT0_TIME,
        timeout=20000,
    )
    left = seconds(page.inner_text(SEAT0_TIME))
    assert 40 <= left <= 64, left
    state = ann.get(f"/api/games/{gid}/state").json()
    assert state["clock"]["turn"] == 1 and state["clock"]["timeouts"] == [0, 0]
    assert state["clock"]["extended"] == 1
    assert not errors, errors
    page.close()
    ann.close()

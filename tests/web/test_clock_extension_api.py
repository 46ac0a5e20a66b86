"""Extra time on a turn clock (WCAG 2.2.1, a time limit the player can extend): a table option
at creation (`clock.extension`), asked for by the player to act once per turn, enforced by the
server: the deadline and the sweep's `due_at` move on, a live bank keeps none of it, and every
other caller or second ask is refused with nothing changed."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select

from app.db.models.games import Game
from app.main import create_app
from app.settings import Settings
from app.shared.clock import FakeClock

Factory = Callable[..., TestClient]


def _table(client_factory: Factory, clock: dict[str, Any]) -> tuple[int, TestClient, TestClient]:
    host, guest = client_factory("Ann"), client_factory("Bob")
    r = host.post("/api/games", json={"players": 2, "first_player": 0, "clock": clock})
    assert r.status_code == 201, r.text
    game = r.json()
    guest.post(f"/api/games/{game['id']}/join", json={"invite_code": game["invite_code"]})
    return game["id"], host, guest


def _clock(client: TestClient, gid: int) -> dict[str, Any]:
    return client.get(f"/api/games/{gid}/state").json()["clock"]


def _due_at(app: FastAPI, gid: int) -> datetime:
    with app.state.sessionmaker() as db:
        due = db.scalar(select(Game.due_at).where(Game.id == gid))
    assert due is not None
    return due.replace(tzinfo=None)


def test_the_player_to_act_extends_once_and_the_deadline_moves_on(
    app: FastAPI, client_factory: Factory
) -> None:
    gid, ann, bob = _table(client_factory, {"mode": "daily", "per_turn": 600, "extension": 120})
    assert ann.post(f"/api/games/{gid}/clock/extend").json()["error"]["code"] == "not_started"
    assert ann.post(f"/api/games/{gid}/start").status_code == 200
    before = _clock(ann, gid)
    assert before["extension"] == 120 and before["extended"] is None and before["seat"] == 0
    due_before = _due_at(app, gid)
    # Not Bob (not his turn), not a stranger (no seat), not before Ann asks.
    r = bob.post(f"/api/games/{gid}/clock/extend")
    assert (r.status_code, r.json()["error"]["code"]) == (409, "not_your_turn")
    r = client_factory("Cy").post(f"/api/games/{gid}/clock/extend")
    assert (r.status_code, r.json()["error"]["code"]) == (403, "not_seated")
    assert _clock(ann, gid) == before  # refused: nothing changed
    r = ann.post(f"/api/games/{gid}/clock/extend")
    assert r.status_code == 200, r.text
    after = r.json()["clock"]
    moved = datetime.fromisoformat(after["deadline"]) - datetime.fromisoformat(before["deadline"])
    assert moved.total_seconds() == 120
    assert after["extended"] == before["turn"]
    assert _clock(bob, gid) == after  # everyone reads the same clock
    assert (_due_at(app, gid) - due_before).total_seconds() == pytest.approx(120, abs=0.01)
    # Once per turn.
    r = ann.post(f"/api/games/{gid}/clock/extend")
    assert (r.status_code, r.json()["error"]["code"]) == (409, "already_extended")
    assert _clock(ann, gid) == after


def test_no_extension_and_too_long_ones(client_factory: Factory) -> None:
    gid, ann, _ = _table(client_factory, {"mode": "daily", "per_turn": 600})
    assert ann.post(f"/api/games/{gid}/start").status_code == 200
    assert _clock(ann, gid)["extension"] == 0
    r = ann.post(f"/api/games/{gid}/clock/extend")
    assert (r.status_code, r.json()["error"]["code"]) == (409, "no_extension")
    # At most SEADRAGONS_CLOCK_MAX_EXTENSION_SECONDS (3600 by default); never negative.
    host = client_factory("Dee")
    for bad in (3601, -1):
        clock = {"mode": "live", "initial": 300, "per_turn": 5, "extension": bad}
        r = host.post("/api/games", json={"players": 2, "clock": clock})
        assert r.status_code == 422, r.text
    assert host.get("/api/me/games").json()["games"] == []


def test_a_live_bank_keeps_none_of_the_extra_time(client_factory: Factory) -> None:
    clock = {"mode": "live", "initial": 300, "per_turn": 10, "extension": 200}
    gid, ann, _ = _table(client_factory, clock)
    assert ann.post(f"/api/games/{gid}/start").status_code == 200
    assert ann.post(f"/api/games/{gid}/clock/extend").status_code == 200
    # Ann plays her whole turn at once: her bank is what was left, less the 200 s granted.
    for _ in range(20):
        state = ann.get(f"/api/games/{gid}/state").json()
        if state["clock"]["seat"] != 0:
            break
        legal = state["legal_actions"]
        action = next((a for a in legal if a["type"] == "place"), None) or next(
            a for a in legal if a["type"] != "pass"
        )
        r = ann.post(
            f"/api/games/{gid}/actions", json={"version": state["version"], "action": action}
        )
        assert r.status_code == 200, r.text
    after = _clock(ann, gid)
    assert after["seat"] == 1
    assert 300 <= after["remaining"][0] <= 310, after  # not 500


@pytest.fixture
def fast_app(database_url: str, make_settings: Callable[..., Settings]) -> FastAPI:
    """An app whose clock the test moves; its own deadline sweep idles (the test sweeps)."""
    settings = make_settings(
        database_url, clock_sweep_seconds=3600, bot_delay_seconds=0, bot_sweep_seconds=0.2
    )
    return create_app(settings, FakeClock())


def test_the_sweep_keeps_to_the_extended_deadline(fast_app: FastAPI) -> None:
    """A 2 s turn extended by 3 s does not run out at 2 s; it runs out after 5 s, and the bot
    then plays the turn. The app's clock is moved, not waited for."""
    clock = fast_app.state.context.clock
    sweeper = fast_app.state.deadlines
    with TestClient(fast_app) as ann, TestClient(fast_app) as bob:
        ann.post("/api/session/guest", json={"name": "Ann"})
        bob.post("/api/session/guest", json={"name": "Bob"})
        settings = {"mode": "daily", "per_turn": 2, "extension": 3, "grace": 0}
        game = ann.post("/api/games", json={"players": 2, "first_player": 0, "clock": settings})
        gid = game.json()["id"]
        bob.post(f"/api/games/{gid}/join", json={"invite_code": game.json()["invite_code"]})
        assert ann.post(f"/api/games/{gid}/start").status_code == 200
        assert ann.post(f"/api/games/{gid}/clock/extend").status_code == 200
        clock.advance(3.0)  # past the 2 s the turn had
        assert sweeper.sweep() == []  # nothing due: still Ann's, no timeout
        c = _clock(ann, gid)
        assert c["turn"] == 1 and c["timeouts"] == [0, 0], c
        clock.advance(1.9)  # 4.9 s: not yet
        assert sweeper.sweep() == []
        clock.advance(0.2)  # 5.1 s: it runs out, and the bot plays Ann's turn
        [claimed] = sweeper.sweep()
        assert (claimed.game_id, claimed.seat) == (gid, 0)
        deadline = time.monotonic() + 30
        while _clock(ann, gid)["turn"] == 1:  # the bot runner plays the rest of the turn
            assert time.monotonic() < deadline, "the extended turn never ran out"
            time.sleep(0.05)
        assert _clock(ann, gid)["timeouts"][0] == 1

"""Clocks over HTTP: chosen at creation, visible everywhere, timeouts in real time."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings

Factory = Callable[..., TestClient]


def _create(client: TestClient, **body: Any) -> Any:
    return client.post("/api/games", json={"players": 2, **body})


def test_the_clock_chosen_at_creation_is_shown_in_the_game_and_the_lobby(
    client_factory: Factory,
) -> None:
    host = client_factory("Ann")
    r = _create(host, clock={"mode": "live", "initial": 300, "per_turn": 10})
    assert r.status_code == 201, r.text
    game = r.json()
    assert game["clock"]["mode"] == "live" and game["clock"]["initial"] == 300
    assert game["clock"]["deadline"] is None  # nothing runs before the start
    listed = client_factory().get("/api/games?status=open").json()["games"]
    assert [g["clock"]["per_turn"] for g in listed if g["id"] == game["id"]] == [10]
    guest = client_factory("Bob")
    guest.post(f"/api/games/{game['id']}/join", json={"invite_code": game["invite_code"]})
    assert host.post(f"/api/games/{game['id']}/start").status_code == 200
    # Everyone sees the same clock: players, spectators, the game object and the state.
    seen = [c.get(f"/api/games/{game['id']}/state").json()["clock"] for c in (host, guest)]
    seen.append(client_factory().get(f"/api/games/{game['id']}/state").json()["clock"])
    seen.append(client_factory().get(f"/api/games/{game['id']}").json()["clock"])
    assert all(c == seen[0] for c in seen)
    clock = seen[0]
    to_act = clock["seat"]
    assert clock["remaining"][to_act] == 310.0 and clock["remaining"][1 - to_act] == 300.0
    deadline = datetime.fromisoformat(clock["deadline"])
    started = datetime.fromisoformat(clock["started_at"])
    assert (deadline - started).total_seconds() == pytest.approx(310.0)


def test_no_clock_is_the_default_and_changes_nothing(client_factory: Factory) -> None:
    host = client_factory("Ann")
    game = _create(host).json()
    assert game["clock"] == {"mode": "none"}
    assert _create(host, clock={"mode": "none"}).json()["clock"] == {"mode": "none"}


@pytest.mark.parametrize(
    "clock",
    [
        {"mode": "live", "initial": 0, "per_turn": 5},
        {"mode": "live", "per_turn": 5},
        {"mode": "daily"},
        {"mode": "daily", "per_turn": 10**9},
        {"mode": "daily", "per_turn": 60, "initial": 5},
        {"mode": "fast"},
        "daily",
    ],
)
def test_a_bad_clock_is_refused_and_creates_nothing(client_factory: Factory, clock: Any) -> None:
    host = client_factory("Ann")
    r = _create(host, clock=clock)
    assert r.status_code == 422, r.text
    assert r.json()["error"]["code"] in ("invalid_request", "invalid_options")
    assert host.get("/api/me/games").json()["games"] == []


@pytest.fixture
def fast_app(database_url: str, make_settings: Callable[..., Settings]) -> FastAPI:
    """An app whose sweeps and bots run fast (real time, seconds)."""
    settings = make_settings(
        database_url, clock_sweep_seconds=0.1, bot_delay_seconds=0, bot_sweep_seconds=0.2
    )
    return create_app(settings)


def _wait(check: Callable[[], Any], timeout: float = 30.0) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        assert time.monotonic() < deadline, "timed out waiting"
        time.sleep(0.05)


def test_a_one_second_turn_runs_out_and_a_bot_plays_it_logged_as_a_timeout(
    fast_app: FastAPI, database_url: str, make_settings: Callable[..., Settings]
) -> None:
    with TestClient(fast_app) as host, TestClient(fast_app) as guest:
        host.post("/api/session/guest", json={"name": "Ann"})
        guest.post("/api/session/guest", json={"name": "Bob"})
        body = {"first_player": 0, "clock": {"mode": "daily", "per_turn": 1, "grace": 0}}
        game = _create(host, **body).json()
        gid = game["id"]
        guest.post(f"/api/games/{gid}/join", json={"invite_code": game["invite_code"]})
        began = time.monotonic()
        assert host.post(f"/api/games/{gid}/start").status_code == 200
        # Nobody moves: after one second the sweep hands turn 1 to a bot, which plays all of it.
        clock = _wait(
            lambda: (c := host.get(f"/api/games/{gid}/state").json()["clock"])["turn"] == 2 and c
        )
        took = time.monotonic() - began
        assert clock["timeouts"] == [1, 0] and clock["seat"] == 1
        assert 1.0 <= took < 15, took
        print(f"\na 1 s turn ran out and the bot finished it {took:.2f} s after the start")
        log = guest.get(f"/api/games/{gid}/log").json()["moves"]
        # (Bob's one-second turn may have run out by now too: look at Ann's moves.)
        anns = [m for m in log if m["seat"] == 0]
        assert anns and log[0]["seat"] == 0 and all(m["timeout"] for m in anns)
        assert all("ran out of time" in m["note"] for m in anns)
    # The clock is stored: another app on the same database (a restart) shows the same.
    again = create_app(make_settings(database_url))
    try:
        with TestClient(again) as client:
            stored = client.get(f"/api/games/{gid}/state").json()["clock"]
        assert stored["mode"] == "daily" and stored["per_turn"] == 1
        assert stored["timeouts"][0] >= 1 and stored["turn"] >= 2
    finally:
        again.state.engine.dispose()

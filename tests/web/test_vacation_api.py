"""Vacation days over HTTP (GET/POST /api/me/vacation, POST /api/me/vacation/end), and a daily
table's public clock while a player is away: the server's vacation-until, banks, grace and cap.
The app's clock is a FakeClock the test moves."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings
from app.shared.clock import FakeClock

T0 = datetime(2026, 5, 4, 8, 0, tzinfo=UTC)


@pytest.fixture
def clock() -> FakeClock:
    """The app's clock."""
    return FakeClock(T0)


@pytest.fixture
def vac_app(
    database_url: str, make_settings: Callable[..., Settings], clock: FakeClock
) -> Iterator[FastAPI]:
    """An app with 5 vacation days a year whose sweep idles (the test moves the clock)."""
    settings = make_settings(
        database_url, vacation_days_per_year=5, clock_sweep_seconds=3600, bot_sweep_seconds=0
    )
    application = create_app(settings, clock)
    yield application
    application.state.engine.dispose()


def _account(app: FastAPI, name: str) -> TestClient:
    client = TestClient(app)
    r = client.post("/api/users", json={"username": name, "password": "correct horse battery"})
    assert r.status_code == 201, r.text
    return client


def _error(r: Any) -> tuple[int, str]:
    return r.status_code, r.json()["error"]["code"]


def test_start_see_and_end_a_vacation(vac_app: FastAPI, clock: FakeClock) -> None:
    ann = _account(vac_app, "ann")
    r = ann.get("/api/me/vacation")
    assert r.json() == {
        "year": 2026,
        "allowance_days": 5,
        "used_days": 0,
        "left_days": 5,
        "active": None,
    }
    r = ann.post("/api/me/vacation", json={"until": "2026-05-07"})
    assert r.status_code == 201, r.text
    active = r.json()["active"]
    assert active["days"] == 3 and r.json()["left_days"] == 2
    assert datetime.fromisoformat(active["ends_at"]) == T0 + timedelta(days=3)
    assert _error(ann.post("/api/me/vacation", json={"days": 1})) == (409, "vacation_active")
    clock.advance(3600)
    r = ann.post("/api/me/vacation/end")
    assert r.status_code == 200 and r.json()["active"] is None and r.json()["used_days"] == 1
    assert _error(ann.post("/api/me/vacation/end")) == (409, "no_vacation")
    assert _error(ann.post("/api/me/vacation", json={"days": 5})) == (409, "vacation_too_long")


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({}, 422, "invalid_vacation"),
        ({"days": 1, "until": "2026-05-09"}, 422, "invalid_vacation"),
        ({"until": "2026-05-04"}, 422, "invalid_vacation"),
        ({"days": 0}, 422, "invalid_request"),
        ({"days": "a week"}, 422, "invalid_request"),
        ({"until": "next monday"}, 422, "invalid_request"),
        ({"days": 2, "extra": 1}, 422, "invalid_request"),
    ],
)
def test_bad_input_is_a_clear_4xx_and_stores_nothing(
    vac_app: FastAPI, body: dict[str, Any], status: int, code: str
) -> None:
    ann = _account(vac_app, "ann")
    assert _error(ann.post("/api/me/vacation", json=body)) == (status, code)
    assert ann.get("/api/me/vacation").json()["used_days"] == 0


def test_guests_and_strangers_are_refused(vac_app: FastAPI) -> None:
    with TestClient(vac_app) as guest:
        guest.post("/api/session/guest", json={"name": "Gus"})
        assert _error(guest.post("/api/me/vacation", json={"days": 1})) == (403, "account_required")
    with TestClient(vac_app) as nobody:
        assert nobody.get("/api/me/vacation").status_code == 401
        assert nobody.post("/api/me/vacation", json={"days": 1}).status_code == 401


def test_the_table_shows_vacation_until_and_banks(vac_app: FastAPI, clock: FakeClock) -> None:
    ann, bob = _account(vac_app, "ann"), _account(vac_app, "bob")
    spec = {"mode": "daily", "per_turn": 86400, "grace": 3600, "bank_cap": 7200}
    r = ann.post("/api/games", json={"players": 2, "first_player": 0, "clock": spec})
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    bob.post(f"/api/games/{gid}/join", json={"invite_code": r.json()["invite_code"]})
    assert ann.post(f"/api/games/{gid}/start").status_code == 200
    before = bob.get(f"/api/games/{gid}/state").json()["clock"]
    assert (before["grace"], before["bank_cap"]) == (3600, 7200)
    assert before["banks"] == [0.0, 0.0] and before["vacation_until"] == [None, None]
    assert ann.post("/api/me/vacation", json={"days": 2}).status_code == 201
    seen = bob.get(f"/api/games/{gid}/state").json()["clock"]
    back = T0 + timedelta(days=2)
    assert seen["vacation_until"] == [back.isoformat(), None]
    assert datetime.fromisoformat(seen["deadline"]) == back + timedelta(days=1)
    assert vac_app.state.context.clock is clock
    assert bob.get(f"/api/games/{gid}").json()["clock"]["vacation_until"][0] == back.isoformat()


def test_table_options_out_of_bounds_are_refused(vac_app: FastAPI) -> None:
    ann = _account(vac_app, "ann")
    for bad in ({"grace": 8 * 86400}, {"bank_cap": -1}, {"bank_cap": 10**9}):
        spec = {"mode": "daily", "per_turn": 86400, **bad}
        r = ann.post("/api/games", json={"players": 2, "clock": spec})
        assert r.status_code == 422, r.text
    r = ann.post("/api/games", json={"players": 2, "clock": {"mode": "daily", "per_turn": 60}})
    shown = r.json()["clock"]
    assert (shown["grace"], shown["bank_cap"]) == (86400, 2 * 86400)  # the settings' defaults

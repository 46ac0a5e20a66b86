"""Caps on what one guest or one address may set running (open tables, live games), rematches
within them, and rematches that keep their bots' names."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select

from app.db.models.games import Game
from app.main import create_app
from app.services.tables.names import BOT_NAMES
from app.settings import Settings
from tests.web.test_rematch_home_api import _mark_finished


@pytest.fixture
def capped_app(database_url: str, make_settings: Callable[..., Settings]) -> Iterator[FastAPI]:
    settings = make_settings(
        database_url,
        max_open_tables_per_user=3,
        max_live_games_per_user=3,
        max_live_games_per_address=5,
        guest_limits_per_address="",
    )
    app = create_app(settings)
    yield app
    app.state.engine.dispose()


def _guest(app: FastAPI, address: str, name: str = "Guest") -> TestClient:
    client = TestClient(app, client=(address, 5000))
    assert client.post("/api/session/guest", json={"name": name}).status_code == 200
    return client


def _bot_table(client: TestClient, players: int = 2) -> int:
    """A table of the caller and bots, ready to start."""
    r = client.post("/api/games", json={"players": players})
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    for _ in range(players - 1):
        assert client.post(f"/api/games/{gid}/bots", json={"level": "random"}).status_code == 200
    return gid


def _start_bot_game(client: TestClient) -> int:
    gid = _bot_table(client)
    r = client.post(f"/api/games/{gid}/start")
    assert r.status_code == 200, r.text
    return gid


def test_live_games_per_user_are_capped_at_the_start(capped_app: FastAPI) -> None:
    """The report: one guest made 300 live tables in 37 s (only open tables were capped)."""
    guest = _guest(capped_app, "198.51.100.10")
    live = [_start_bot_game(guest) for _ in range(3)]
    gid = _bot_table(guest)
    r = guest.post(f"/api/games/{gid}/start")
    assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_games", r.text
    assert int(r.headers["retry-after"]) >= 1
    assert guest.get(f"/api/games/{gid}").json()["status"] == "open"  # nothing changed
    # Handing one's seat to a bot does not take the game off one's count.
    assert guest.post(f"/api/games/{live[0]}/seats/0/bot", json={"level": "random"}).is_success
    assert guest.post(f"/api/games/{gid}/start").status_code == 429
    _mark_finished(capped_app, live[1])  # a game that ends frees its place
    assert guest.post(f"/api/games/{gid}/start").status_code == 200


def test_live_games_per_address_are_capped_across_guests(capped_app: FastAPI) -> None:
    address = "198.51.100.20"
    guests = [_guest(capped_app, address, f"G{i}") for i in range(3)]
    answers = []
    for guest in guests:
        for _ in range(2):
            gid = _bot_table(guest)
            answers.append(guest.post(f"/api/games/{gid}/start"))
    assert [r.status_code for r in answers] == [200] * 5 + [429]  # each guest is within 3
    assert "address" in answers[-1].json()["error"]["message"]
    # Another address is not affected; and no address is stored as it is.
    assert _start_bot_game(_guest(capped_app, "198.51.100.21"))
    with capped_app.state.sessionmaker() as db:
        stored = set(db.scalars(select(Game.started_from).where(Game.status == "live")))
    assert len(stored) == 2 and not any(address in (s or "") for s in stored)


def test_concurrent_starts_from_one_address_stay_within_the_cap(capped_app: FastAPI) -> None:
    """The count and the start are one step per address: racing starts cannot overshoot."""
    address = "198.51.100.30"
    guests = [_guest(capped_app, address, f"R{i}") for i in range(4)]
    tables = [(g, _bot_table(g)) for g in guests for _ in range(2)]

    def start(pair: tuple[TestClient, int]) -> int:
        client, gid = pair
        return client.post(f"/api/games/{gid}/start").status_code

    with ThreadPoolExecutor(8) as pool:
        codes = list(pool.map(start, tables))
    assert sorted(codes) == [200] * 5 + [429] * 3, codes


def _finished_bot_game(app: FastAPI, client: TestClient, players: int) -> int:
    gid = _bot_table(client, players)
    assert client.post(f"/api/games/{gid}/start").status_code == 200
    _mark_finished(app, gid)
    return gid


def test_rematch_offers_count_among_open_tables(capped_app: FastAPI) -> None:
    """The report: 5 open tables, then 4 rematch offers -> 9 open tables."""
    host = _guest(capped_app, "198.51.100.40")
    finished = [_finished_bot_game(capped_app, host, 2) for _ in range(2)]
    for _ in range(2):
        assert host.post("/api/games", json={"players": 2}).status_code == 201
    assert host.post(f"/api/games/{finished[0]}/rematch").status_code == 200  # the third
    r = host.post(f"/api/games/{finished[1]}/rematch")
    assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_tables"
    assert r.json().get("rematch_id") is None
    open_tables = [g for g in host.get("/api/me/games").json()["games"] if g["status"] == "open"]
    assert len(open_tables) == 3
    # An offer already made is returned again, not counted again.
    assert host.post(f"/api/games/{finished[0]}/rematch").status_code == 200


def test_a_rematch_of_a_bots_only_game_keeps_its_bots_and_their_names(
    capped_app: FastAPI,
) -> None:
    """the same bots, the same levels, the same names, rematch after rematch."""
    host = _guest(capped_app, "198.51.100.50", "Nessie")
    gid = _bot_table(host, 4)
    assert host.post(f"/api/games/{gid}/start").status_code == 200
    assert host.post(f"/api/games/{gid}/seats/0/bot", json={"level": "greedy"}).is_success
    _mark_finished(capped_app, gid)
    old = host.get(f"/api/games/{gid}").json()["seats"]
    names = [s["bot_name"] for s in old[1:]]
    assert len(set(names)) == 3 and set(names) <= set(BOT_NAMES)
    chain = [gid]
    for _ in range(2):
        offer = host.post(f"/api/games/{chain[-1]}/rematch").json()
        new = host.get(f"/api/games/{offer['rematch_id']}").json()
        assert [s["bot_name"] for s in new["seats"][1:]] == names
        assert [s["bot_level"] for s in new["seats"][1:]] == ["random"] * 3
        assert new["seats"][0]["player"]["display_name"] == "Nessie"
        assert new["seats"][0]["bot_level"] is None  # the host plays their own seat again
        described = [s["name"] for s in offer["seats"][1:]]
        assert described == [f"{n} (random bot)" for n in names]
        assert host.post(f"/api/games/{new['id']}/start").status_code == 200
        _mark_finished(capped_app, new["id"])
        chain.append(new["id"])
    assert len(set(chain)) == 3

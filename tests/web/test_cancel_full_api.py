"""The host cancels a waiting table; `full` says when every seat of a table is taken."""

from __future__ import annotations

from collections.abc import Callable

from fastapi.testclient import TestClient

Factory = Callable[..., TestClient]


def _table(client_factory: Factory, players: int = 3):
    host = client_factory("Host")
    game = host.post("/api/games", json={"players": players}).json()
    return host, game


def test_host_cancels_a_waiting_table(client_factory: Factory) -> None:
    host, game = _table(client_factory)
    gid = game["id"]
    guest = client_factory("Guest")
    assert guest.post(f"/api/games/{gid}/join", json={}).status_code == 200
    r = guest.post(f"/api/games/{gid}/cancel")
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_host"
    r = host.post(f"/api/games/{gid}/cancel")
    assert r.status_code == 200, r.text
    assert r.json()["status"] == "cancelled"
    listed = client_factory().get("/api/games").json()["games"]
    assert gid not in [g["id"] for g in listed]
    for client in (host, guest):  # gone from both players' games
        home = client.get("/api/me/home").json()
        assert gid not in [g["id"] for group in ("waiting", "playing") for g in home[group]]
    r = client_factory("Late").post(f"/api/games/{gid}/join", json={})
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_open"
    r = host.post(f"/api/games/{gid}/cancel")  # twice: nothing left to cancel
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_open"


def test_a_started_game_cannot_be_cancelled(client_factory: Factory) -> None:
    host, game = _table(client_factory, players=2)
    gid = game["id"]
    client_factory("Guest").post(f"/api/games/{gid}/join", json={})
    assert host.post(f"/api/games/{gid}/start").status_code == 200
    r = host.post(f"/api/games/{gid}/cancel")
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_open"
    assert host.get(f"/api/games/{gid}").json()["status"] == "live"


def test_cancel_needs_a_session_and_a_game(client_factory: Factory) -> None:
    _, game = _table(client_factory)
    r = client_factory().post(f"/api/games/{game['id']}/cancel")
    assert r.status_code == 401
    r = client_factory("Someone").post("/api/games/999999/cancel")
    assert r.status_code == 404


def test_full_on_lists_the_game_and_your_games(client_factory: Factory) -> None:
    host, game = _table(client_factory, players=2)
    gid = game["id"]
    assert game["full"] is False
    assert host.get(f"/api/games/{gid}").json()["full"] is False
    guest = client_factory("Guest")
    assert guest.post(f"/api/games/{gid}/join", json={}).json()["full"] is True
    assert host.get(f"/api/games/{gid}").json()["full"] is True
    listed = {g["id"]: g for g in client_factory().get("/api/games").json()["games"]}
    assert listed[gid]["full"] is True and listed[gid]["status"] == "open"
    playing = {g["id"]: g for g in host.get("/api/me/home").json()["playing"]}
    assert playing[gid]["full"] is True
    guest.post(f"/api/games/{gid}/leave")
    assert host.get(f"/api/games/{gid}").json()["full"] is False

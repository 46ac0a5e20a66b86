"""Invite links carry only the code: GET /api/invites/{code} names the game it opens."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient

# SQLite alone: nothing checked here differs by dialect (docs/testing.md, Postgres).
pytestmark = pytest.mark.one_database

Factory = Callable[..., TestClient]


def test_code_names_its_private_game_for_anyone(client_factory: Factory) -> None:
    host = client_factory("Host")
    game = host.post("/api/games", json={"players": 3, "visibility": "private"}).json()
    for caller in (client_factory(), client_factory("Guest")):  # signed out, and signed in
        r = caller.get(f"/api/invites/{game['invite_code']}")
        assert r.status_code == 200, r.text
        found = r.json()
        assert found["id"] == game["id"] and found["visibility"] == "private"
        assert found["status"] == "open" and found["your_seat"] is None
        assert [s["player"]["display_name"] if s["player"] else None for s in found["seats"]] == [
            "Host",
            None,
            None,
        ]
        # The code is not echoed to outsiders (players see it in the game object, as before).
        assert found["invite_code"] is None
    # The host sees the game as a player.
    mine = host.get(f"/api/invites/{game['invite_code']}").json()
    assert mine["your_seat"] == 0 and mine["invite_code"] == game["invite_code"]


def test_the_code_alone_is_enough_to_join(client_factory: Factory) -> None:
    host = client_factory("Host")
    game = host.post("/api/games", json={"players": 2, "visibility": "private"}).json()
    guest = client_factory("Guest")
    found = guest.get(f"/api/invites/{game['invite_code']}").json()
    r = guest.post(f"/api/games/{found['id']}/join", json={"invite_code": game["invite_code"]})
    assert r.status_code == 200 and r.json()["your_seat"] == 1
    again = guest.get(f"/api/invites/{game['invite_code']}").json()
    assert again["your_seat"] == 1 and again["seats"][1]["player"]["display_name"] == "Guest"


def test_unknown_codes_are_404_no_such_invite(client_factory: Factory) -> None:
    host = client_factory("Host")
    game = host.post("/api/games", json={"players": 2}).json()
    anon = client_factory()
    other = game["invite_code"][:-1] + ("A" if game["invite_code"][-1] != "A" else "B")
    for code in (other, "nope", "x" * 65, game["invite_code"].lower() + "x"):
        r = anon.get(f"/api/invites/{code}")
        assert r.status_code == 404, code
        assert r.json()["error"]["code"] == "no_such_invite"
        assert str(game["id"]) not in r.json()["error"]["message"]


def test_finished_and_cancelled_tables_still_resolve(client_factory: Factory) -> None:
    """The join page then tells the visitor what happened instead of a dead link."""
    host = client_factory("Host")
    game = host.post("/api/games", json={"players": 2}).json()
    assert host.post(f"/api/games/{game['id']}/leave").json()["status"] == "cancelled"
    r = client_factory().get(f"/api/invites/{game['invite_code']}")
    assert r.status_code == 200 and r.json()["status"] == "cancelled"

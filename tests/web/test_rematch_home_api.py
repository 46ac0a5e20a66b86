"""Rematches and "Your games" over HTTP."""

from __future__ import annotations

from collections.abc import Callable

from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import update

from app.db.models.base import utcnow
from app.db.models.games import Game
from tests.web.test_full_game_api import play_to_the_end

Factory = Callable[..., TestClient]


def _table(
    client_factory: Factory, bots: int = 0, **options: object
) -> tuple[int, list[TestClient]]:
    """A finished game: Ann hosts, Bob joins, `bots` bots take the other seats."""
    ann, bob = client_factory("Ann"), client_factory("Bob")
    game = ann.post("/api/games", json={"players": 2 + bots, **options}).json()
    bob.post(f"/api/games/{game['id']}/join", json={"invite_code": game["invite_code"]})
    for _ in range(bots):
        assert (
            ann.post(f"/api/games/{game['id']}/bots", json={"level": "random"}).status_code == 200
        )
    assert ann.post(f"/api/games/{game['id']}/start").status_code == 200
    return game["id"], [ann, bob]


def _mark_finished(app: FastAPI, gid: int) -> None:
    """End a game at once (no bot runner runs in these tests; a rematch needs only the end)."""
    with app.state.sessionmaker() as db:
        db.execute(
            update(Game)
            .where(Game.id == gid)
            .values(status="finished", to_act=None, finished_at=utcnow(), due_at=None)
        )
        db.commit()


def test_a_rematch_seats_everyone_who_accepts_and_keeps_the_bots(
    app: FastAPI, client_factory: Factory
) -> None:
    clock = {"mode": "daily", "per_turn": 3600}
    gid, (ann, bob) = _table(client_factory, bots=1, expansion=True, clock=clock)
    assert ann.post(f"/api/games/{gid}/rematch").json()["error"]["code"] == "not_finished"
    assert ann.get(f"/api/games/{gid}").json()["seats"][2]["bot_level"] == "random"
    stranger = client_factory("Cy")
    _mark_finished(app, gid)
    assert stranger.post(f"/api/games/{gid}/rematch").json()["error"]["code"] == "not_seated"
    offer = bob.post(f"/api/games/{gid}/rematch").json()
    new_id = offer["rematch_id"]
    assert [s["answer"] for s in offer["seats"]] == ["pending", "accepted", "bot"]
    again = ann.post(f"/api/games/{gid}/rematch").json()  # a second offer: the same table
    assert again["rematch_id"] == new_id
    new = bob.get(f"/api/games/{new_id}").json()
    assert new["host_id"] != ann.get("/api/me").json()["id"]  # Bob offered, Bob hosts
    assert new["options"]["expansion"] is True and new["clock"]["per_turn"] == 3600
    assert new["seats"][0]["reserved_for"]["display_name"] == "Ann"
    assert new["seats"][2]["bot_level"] == "random"
    # Ann's seat is kept: a stranger can only watch, not take it.
    r = stranger.post(f"/api/games/{new_id}/join", json={"invite_code": new["invite_code"]})
    assert r.status_code == 409 and r.json()["error"]["code"] == "game_full"
    accepted = ann.post(f"/api/games/{gid}/rematch/accept").json()
    assert [s["answer"] for s in accepted["seats"]] == ["accepted", "accepted", "bot"]
    started = ann.get(f"/api/games/{new_id}").json()
    assert started["status"] == "live" and started["your_seat"] == 0  # the last one started it
    assert started["clock"]["seat"] == started["to_act"]


def test_a_declined_seat_opens_for_anyone(client_factory: Factory) -> None:
    gid, (ann, bob) = _table(client_factory)
    r = bob.post(f"/api/games/{gid}/rematch/accept")
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_finished"
    _finish(gid, ann, bob)
    for answer in ("accept", "decline"):  # nothing offered yet: nothing to answer
        r = bob.post(f"/api/games/{gid}/rematch/{answer}")
        assert r.status_code == 404 and r.json()["error"]["code"] == "no_rematch"
    before = ann.get(f"/api/games/{gid}/rematch").json()
    assert before["rematch_id"] is None and [s["answer"] for s in before["seats"]] == [None, None]
    new_id = ann.post(f"/api/games/{gid}/rematch").json()["rematch_id"]
    declined = bob.post(f"/api/games/{gid}/rematch/decline").json()
    assert [s["answer"] for s in declined["seats"]] == ["accepted", "declined"]
    r = bob.post(f"/api/games/{gid}/rematch/accept")
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_invited"
    cy = client_factory("Cy")
    new = ann.get(f"/api/games/{new_id}").json()
    assert (
        cy.post(f"/api/games/{new_id}/join", json={"invite_code": new["invite_code"]}).json()[
            "your_seat"
        ]
        == 1
    )


def _finish(gid: int, ann: TestClient, bob: TestClient) -> None:
    play_to_the_end(gid, _by_seat(gid, ann, bob))


def _by_seat(gid: int, ann: TestClient, bob: TestClient) -> list[TestClient]:
    """The two players' clients in seat order."""
    game = ann.get(f"/api/games/{gid}").json()
    return [bob if s["player"]["display_name"] == "Bob" else ann for s in game["seats"]]


def test_your_games_lead_with_the_ones_waiting_for_you(client_factory: Factory) -> None:
    ann, bob = client_factory("Ann"), client_factory("Bob")

    def table(first: int, clock: dict[str, object] | None = None) -> int:
        body: dict[str, object] = {"players": 2, "first_player": first}
        if clock:
            body["clock"] = clock
        g = ann.post("/api/games", json=body).json()
        bob.post(f"/api/games/{g['id']}/join", json={"invite_code": g["invite_code"]})
        ann.post(f"/api/games/{g['id']}/start")
        return g["id"]

    slow = table(0, {"mode": "daily", "per_turn": 7200})
    soon = table(0, {"mode": "daily", "per_turn": 600})
    plain = table(0)
    theirs = table(1)
    opened = ann.post("/api/games", json={"players": 3}).json()["id"]
    done = table(0)
    _finish(done, ann, bob)
    home = ann.get("/api/me/home").json()
    # The one that has waited longest first (however near its deadline).
    assert [g["id"] for g in home["waiting"]] == [slow, soon, plain]
    assert home["waiting_count"] == 3
    assert home["waiting"][0]["clock"]["deadline"]
    assert [g["id"] for g in home["playing"]] == [theirs, opened]  # live ones, then open
    assert [g["id"] for g in home["finished"]] == [done]
    assert home["finished"][0]["winners"] and set(home["finished"][0]["winners"]) <= {"Ann", "Bob"}
    assert [g["id"] for g in bob.get("/api/me/home").json()["waiting"]] == [theirs]
    # A seat a bot plays is not waiting for its owner.
    ann.post(f"/api/games/{plain}/seats/0/bot", json={"level": "random"})
    assert plain not in [g["id"] for g in ann.get("/api/me/home").json()["waiting"]]
    assert client_factory().get("/api/me/home").status_code == 401


def test_a_private_games_rematch_is_for_its_players_only(
    app: FastAPI, client_factory: Factory
) -> None:
    """A private table's rematch, like the table, is hidden from strangers: 404, as for a game
    that does not exist."""
    gid, (ann, bob) = _table(client_factory, visibility="private")
    _mark_finished(app, gid)
    offer = ann.post(f"/api/games/{gid}/rematch").json()
    stranger = client_factory("Cy")
    r = stranger.get(f"/api/games/{gid}/rematch")
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    r = stranger.get(f"/api/games/{offer['rematch_id']}")
    assert r.status_code == 404
    for what in ("", "/accept", "/decline"):  # nor can a stranger act on it
        r = stranger.post(f"/api/games/{gid}/rematch{what}")
        assert r.status_code == 404 and r.json()["error"]["code"] == "not_found", what
    assert bob.get(f"/api/games/{gid}/rematch").json()["rematch_id"] == offer["rematch_id"]

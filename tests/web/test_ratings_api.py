"""Ratings over HTTP: rated tables, profiles, leaderboard, history, predictions; R-60 checks."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

import app.engine as rules
from app.services.play import games
from app.services.tables import lobby
from app.settings import Settings
from tests.moves import play_seat


@pytest.fixture
def app(database_url: str, make_settings: Callable[..., Settings]) -> Any:
    from app.main import create_app

    # Settled after one game here, and pages of one, so paging and ranks show with few games.
    application = create_app(
        make_settings(
            database_url, rating_provisional_sigma=100.0, history_page_size=1, jobs_workers=0
        )
    )
    yield application
    application.state.engine.dispose()


def _account(client_factory: Callable[..., TestClient], name: str) -> TestClient:
    client = client_factory()
    r = client.post("/api/users", json={"username": name, "password": "correct horse"})
    assert r.status_code in (200, 201), r.text
    return client


def _finish(app: FastAPI, game_id: int, *, stop_before_last: bool = False) -> None:
    """Play the game out on the server's side (first legal action each time), then its jobs."""
    with app.state.sessionmaker() as db:
        while True:
            game = lobby.get_game(db, game_id)
            if game.status != "live":
                break
            state = games.load_state(db, game)
            seat = rules.to_act(state)
            action = rules.legal_actions(state, seat)[0]
            if stop_before_last and rules.is_over(rules.apply(state, action, seat)[0]):
                return
            play_seat(db, game_id, seat, game.version, action)
    app.state.jobs.run_due()


def _rated_table(host: TestClient, guest_ok: TestClient | None = None, **extra: Any) -> dict:
    r = host.post("/api/games", json={"players": 3, "rated": True, **extra})
    assert r.status_code == 201, r.text
    game = r.json()
    assert game["rated"] is True
    if guest_ok is not None:
        body = {"invite_code": game["invite_code"]}
        assert guest_ok.post(f"/api/games/{game['id']}/join", json=body).status_code == 200
    assert host.post(f"/api/games/{game['id']}/bots", json={"level": "greedy"}).status_code == 200
    return game


def test_guests_cannot_open_or_join_a_rated_table(
    client_factory: Callable[..., TestClient],
) -> None:
    guest = client_factory("Gus")
    r = guest.post("/api/games", json={"players": 2, "rated": True})
    assert r.status_code == 403 and r.json()["error"]["code"] == "account_required"
    ann = _account(client_factory, "ann")
    game = ann.post("/api/games", json={"players": 2, "rated": True}).json()
    r = guest.post(f"/api/games/{game['id']}/join", json={"invite_code": game["invite_code"]})
    assert r.status_code == 403 and r.json()["error"]["code"] == "account_required"
    assert ann.get(f"/api/games/{game['id']}").json()["seats"][1]["player"] is None
    listed = client_factory().get("/api/games?status=open").json()["games"]
    assert [g["rated"] for g in listed if g["id"] == game["id"]] == [True]  # the lobby shows it


def test_a_rated_game_shows_on_both_profiles_the_leaderboard_and_history(
    app: FastAPI, client_factory: Callable[..., TestClient]
) -> None:
    ann, bob = _account(client_factory, "ann"), _account(client_factory, "bob")
    anon = client_factory()
    before = anon.get("/api/users/ann/profile").json()
    assert [r["rating"] for r in before["ratings"]] == [None, None]
    game = _rated_table(ann, bob)
    prediction = anon.get(f"/api/games/{game['id']}/prediction").json()
    assert [s["seat"] for s in prediction["seats"]] == [0, 1, 2]
    assert ann.post(f"/api/games/{game['id']}/start").status_code == 200
    _finish(app, game["id"])
    profiles = {n: anon.get(f"/api/users/{n}/profile").json() for n in ("ann", "bob")}
    finished = anon.get(f"/api/games/{game['id']}").json()
    scores = finished["final_scores"]["players"]
    for seat, name in enumerate(("ann", "bob")):
        p = profiles[name]
        base = p["ratings"][0]
        assert base["variant"] == "base" and base["games"] == 1 and base["rating"] is not None
        assert [h["game_id"] for h in base["history"]] == [game["id"]]
        assert base["history"][0]["rating"] == base["rating"]
        assert base["rank"] in (1, 2)
        assert p["by_players"] == [
            {"players": 3, "played": 1, "won": int(p["recent"][0]["place"] == 1)}
        ]
        line = p["recent"][0]
        assert line["game_id"] == game["id"] and line["replay"] == f"/games/{game['id']}/replay"
        assert line["total"] == scores[seat]["total"]
        assert {s["username"] for s in line["seats"]} == {"ann", "bob", None}
        assert p["averages"]["you"]["gold"] == scores[seat]["categories"]["gold"]
        others = [s["categories"]["gold"] for i, s in enumerate(scores) if i != seat]
        assert p["averages"]["opponents"]["gold"] == pytest.approx(sum(others) / 2, abs=0.01)
        # The finished game's page links each account to its profile (usernames in the seats).
        assert finished["seats"][seat]["player"]["username"] == name
    board = anon.get("/api/leaderboard?variant=base").json()
    assert {e["username"] for e in board["entries"]} == {"ann", "bob"}
    assert [e["rank"] for e in board["entries"]] == [1, 2]
    assert anon.get("/api/leaderboard?variant=expansion").json()["entries"] == []
    vs = anon.get("/api/users/ann/profile?vs=BOB").json()["vs"]
    assert vs["games"] == 1 and vs["ahead"] + vs["behind"] + vs["level"] == 1
    history = ann.get("/api/me/history").json()
    assert history["total"] == 1 and history["games"][0]["rated"] is True
    assert history["games"][0]["rating_after"] == profiles["ann"]["ratings"][0]["rating"]


def test_history_is_paged_and_needs_a_session(
    app: FastAPI, client_factory: Callable[..., TestClient]
) -> None:
    ann, bob = _account(client_factory, "ann"), _account(client_factory, "bob")
    ids = []
    for _ in range(2):
        game = _rated_table(ann, bob)
        ann.post(f"/api/games/{game['id']}/start")
        _finish(app, game["id"])
        ids.append(game["id"])
    first, second = (
        ann.get("/api/me/history?page=1").json(),
        ann.get("/api/me/history?page=2").json(),
    )
    assert (first["pages"], first["total"]) == (2, 2)
    assert [first["games"][0]["game_id"], second["games"][0]["game_id"]] == ids[::-1]
    assert client_factory().get("/api/me/history").status_code == 401
    assert ann.get("/api/me/history?page=0").status_code == 422


def test_history_tells_stepping_away_from_leaving(
    app: FastAPI, client_factory: Callable[..., TestClient]
) -> None:
    """ "Step away" (a bot plays on, the seat stays yours) is not "left" in "Your games": both
    are `quit` (ranked last), only the first is `stepped_away`."""
    ann, bob = _account(client_factory, "ann"), _account(client_factory, "bob")
    game = _rated_table(ann, bob)
    gid = game["id"]
    assert ann.post(f"/api/games/{gid}/start").status_code == 200
    assert ann.post(f"/api/games/{gid}/seats/0/bot", json={"level": "greedy"}).status_code == 200
    assert bob.post(f"/api/games/{gid}/leave").status_code == 200
    _finish(app, gid)
    mine = ann.get("/api/me/history").json()["games"][0]
    theirs = bob.get("/api/me/history").json()["games"][0]
    assert (mine["game_id"], mine["quit"], mine["stepped_away"]) == (gid, True, True)
    assert (theirs["game_id"], theirs["quit"], theirs["stepped_away"]) == (gid, True, False)


def test_unknown_players_guests_and_bad_queries_are_clear_errors(
    client_factory: Callable[..., TestClient],
) -> None:
    client_factory("Gus")  # a guest has no profile
    anon = client_factory()
    for name in ("nobody", "gus"):
        r = anon.get(f"/api/users/{name}/profile")
        assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    _account(client_factory, "ann")
    assert anon.get("/api/users/ann/profile?vs=nobody").status_code == 404
    assert anon.get("/api/leaderboard?variant=chess").status_code == 422
    assert anon.get("/api/leaderboard?page=0").status_code == 422


def test_prediction_is_for_rated_tables_that_the_caller_may_see(
    client_factory: Callable[..., TestClient],
) -> None:
    ann = _account(client_factory, "ann")
    unrated = ann.post("/api/games", json={"players": 2}).json()
    r = ann.get(f"/api/games/{unrated['id']}/prediction")
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_rated"
    private = ann.post("/api/games", json={"players": 2, "rated": True, "visibility": "private"})
    game = private.json()
    assert client_factory().get(f"/api/games/{game['id']}/prediction").status_code == 404
    assert ann.get(f"/api/games/{game['id']}/prediction").status_code == 200


@pytest.mark.slow  # plays rated games to the end
def test_profiles_tell_no_secret_r60(
    app: FastAPI, client_factory: Callable[..., TestClient]
) -> None:
    """R-60: a profile shows public facts of finished games only: no hand, no seed, nothing of
    a live game, and a private game is never named to others."""
    ann, bob = _account(client_factory, "ann"), _account(client_factory, "bob")
    anon = client_factory()
    done = _rated_table(ann, bob)
    ann.post(f"/api/games/{done['id']}/start")
    _finish(app, done["id"])
    secret = _rated_table(ann, bob, visibility="private")
    ann.post(f"/api/games/{secret['id']}/start")
    _finish(app, secret["id"])
    live = _rated_table(ann, bob)
    ann.post(f"/api/games/{live['id']}/start")
    _finish(app, live["id"], stop_before_last=True)
    text = anon.get("/api/users/ann/profile").text
    profile = json.loads(text)
    # Nothing of the live game; the private one counts in the rating but is never named.
    assert str(live["id"]) not in {str(r["game_id"]) for r in profile["recent"]}
    ids_named = {h["game_id"] for r in profile["ratings"] for h in r["history"]}
    assert ids_named == {done["id"], None}
    assert profile["ratings"][0]["games"] == 2
    assert [r["game_id"] for r in profile["recent"]] == [done["id"]]
    # No hand, seed or card of any game: no such key anywhere in the document.
    keys: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            keys.update(node)
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(profile)
    assert not keys & {"hand", "hands", "seed", "reefs", "cards", "missions_hand", "snapshot"}
    with app.state.sessionmaker() as db:
        snapshot = lobby.get_game(db, live["id"]).snapshot
        seed = str(lobby.get_game(db, done["id"]).seed)
    assert seed not in text
    # No hidden card of the live game (any seat's hand) appears in the profile.
    hand_cards = {c for p in snapshot["players"] for c in p.get("hand", []) if isinstance(c, str)}
    assert hand_cards and not any(f'"{c}"' in text for c in hand_cards)
    board = anon.get("/api/leaderboard").text
    assert seed not in board


def test_the_pages_are_served(client_factory: Callable[..., TestClient]) -> None:
    _account(client_factory, "ann")
    anon = client_factory()
    r = anon.get("/u/ann")
    assert r.status_code == 200 and "/static/js/pages/profile.mjs" in r.text
    assert 'data-username="ann"' in r.text
    r = anon.get("/leaderboard")
    assert r.status_code == 200 and "/static/js/pages/leaderboard.mjs" in r.text


@pytest.mark.timeout(120)
def test_the_end_of_a_game_wakes_the_job_runner(
    database_url: str, make_settings: Callable[..., Settings]
) -> None:
    """The runner polls once an hour here: the results still come at once, woken by the end."""
    from sqlalchemy import func, select

    from app.db.models.ratings import GameResult
    from app.main import create_app

    application = create_app(make_settings(database_url, jobs_poll_seconds=3600.0))
    try:
        with TestClient(application) as client:
            r = client.post("/api/session/guest", json={"name": "Gus"})
            assert r.status_code == 200
            game = client.post("/api/games", json={"players": 2}).json()
            assert client.post(f"/api/games/{game['id']}/bots", json={"level": "random"}).is_success
            assert client.post(f"/api/games/{game['id']}/start").is_success
            with application.state.sessionmaker() as db:
                while (g := lobby.get_game(db, game["id"])).status == "live":
                    state = games.load_state(db, g)
                    seat = rules.to_act(state)
                    action = rules.legal_actions(state, seat)[0]
                    try:
                        play_seat(
                            db, g.id, seat, g.version, action, notifier=application.state.notifier
                        )
                    except Exception:  # the bot runner played this version first
                        db.rollback()
                query = select(func.count()).select_from(GameResult)
                deadline = time.monotonic() + 60
                while db.scalar(query.where(GameResult.game_id == game["id"])) != 2:
                    assert time.monotonic() < deadline, "the results job did not run"
                    db.rollback()
                    time.sleep(0.05)
    finally:
        application.state.engine.dispose()

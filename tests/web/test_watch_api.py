"""Watching over HTTP: /api/watch summaries (R-60, size, filters, order), the featured game,
the spectator delay over REST (state, log, summaries) and its option's clear errors."""

from __future__ import annotations

import json
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

SUMMARY_KEYS = {
    "id",
    "v",
    "players",
    "expansion",
    "clock",
    "rated",
    "delay",
    "seats",
    "spectators",
    "board",
    "turn",
    "to_act",
    "gold",
}


@pytest.fixture
def app(database_url: str, make_settings: Callable[..., Settings]) -> Any:
    from app.main import create_app

    application = create_app(make_settings(database_url, jobs_workers=0))
    yield application
    application.state.engine.dispose()


def _account(client_factory: Callable[..., TestClient], name: str) -> TestClient:
    client = client_factory()
    r = client.post("/api/users", json={"username": name, "password": "correct horse"})
    assert r.status_code in (200, 201), r.text
    return client


def _table(host: TestClient, players: int = 3, **extra: Any) -> dict[str, Any]:
    r = host.post("/api/games", json={"players": players, **extra})
    assert r.status_code == 201, r.text
    game = r.json()
    for _ in range(players - 1):
        assert (
            host.post(f"/api/games/{game['id']}/bots", json={"level": "greedy"}).status_code == 200
        )
    assert host.post(f"/api/games/{game['id']}/start").status_code == 200
    return game


def _moves(app: FastAPI, game_id: int, count: int) -> int:
    """Play `count` moves on the server's side (first legal action); the version after."""
    with app.state.sessionmaker() as db:
        for _ in range(count):
            game = lobby.get_game(db, game_id)
            state = games.load_state(db, game)
            seat = rules.to_act(state)
            play_seat(db, game_id, seat, game.version, rules.legal_actions(state, seat)[0])
        return lobby.get_game(db, game_id).version


def test_summaries_are_public_small_and_filtered(
    app: FastAPI, client_factory: Callable[..., TestClient]
) -> None:
    """R-60: a summary holds the spectator's view's public facts only; under 2 KB; filters."""
    ann = _account(client_factory, "ann")
    three = _table(ann, 3)
    two = _table(ann, 2, expansion=True)
    _moves(app, three["id"], 6)
    anon = client_factory()
    r = anon.get("/api/watch")
    assert r.status_code == 200, r.text
    listed = {g["id"]: g for g in r.json()["games"]}
    assert set(listed) == {three["id"], two["id"]}
    for g in listed.values():
        assert set(g) == SUMMARY_KEYS
        assert len(json.dumps(g, separators=(",", ":")).encode()) < 2048
    summary = listed[three["id"]]
    assert summary["v"] == 6 and summary["players"] == 3 and summary["clock"] == "none"
    assert summary["seats"][0] == {
        "name": "ann",
        "user": "ann",
        "bot": None,
        "bot_name": None,  # a bot seat names its bot here, for the page to word its level
        "rating": None,
    }
    assert len(summary["board"]["rows"]) == 225
    # No card in anyone's hand, Reefs or choice appears in it.
    with app.state.sessionmaker() as db:
        snapshot = lobby.get_game(db, three["id"]).snapshot
    secret = {c for p in snapshot["players"] for c in p.get("hand", []) + p.get("reefs", [])}
    text = json.dumps(summary)
    assert secret and not any(f'"{c}"' in text for c in secret)
    assert [g["id"] for g in anon.get("/api/watch?players=2").json()["games"]] == [two["id"]]
    assert [g["id"] for g in anon.get("/api/watch?expansion=false").json()["games"]] == [
        three["id"]
    ]
    assert anon.get("/api/watch?clock=daily").json()["games"] == []
    featured = anon.get("/api/watch/featured").json()["game"]
    assert featured["id"] in listed


@pytest.mark.parametrize("query", ["players=9", "players=x", "clock=bogus", "expansion=maybe"])
def test_bad_filters_are_clear_errors(
    client_factory: Callable[..., TestClient], query: str
) -> None:
    r = client_factory().get(f"/api/watch?{query}")
    assert r.status_code == 422
    assert r.json()["error"]["code"] == "invalid_request"


def test_private_and_unstarted_games_are_not_listed(
    app: FastAPI, client_factory: Callable[..., TestClient]
) -> None:
    ann = _account(client_factory, "ann")
    _table(ann, 2, visibility="private")
    ann.post("/api/games", json={"players": 2})
    assert client_factory().get("/api/watch").json()["games"] == []
    assert client_factory().get("/api/watch/featured").json() == {"game": None}


def test_a_move_delay_holds_back_state_log_and_summary(
    app: FastAPI, client_factory: Callable[..., TestClient]
) -> None:
    """A spectator never sees a version newer than the delay allows over REST; players do."""
    ann = _account(client_factory, "ann")
    clock = {"mode": "live", "initial": 300, "per_turn": 5}
    game = _table(ann, 3, rated=True, spectator_delay={"moves": 2}, clock=clock)
    assert game["options"]["spectator_delay"] == {"moves": 2}
    anon = client_factory()
    assert anon.get(f"/api/games/{game['id']}/state").json()["version"] == 0
    for played in range(1, 6):
        version = _moves(app, game["id"], 1)
        assert version == played
        state = anon.get(f"/api/games/{game['id']}/state").json()
        assert state["version"] == max(0, played - 2)
        assert state["clock"] == {"mode": "none"}  # the live clock would tell whose turn
        log = anon.get(f"/api/games/{game['id']}/log").json()
        assert [m["seq"] for m in log["moves"]] == list(range(1, max(0, played - 2) + 1))
        summary = anon.get("/api/watch").json()["games"][0]
        assert summary["v"] == max(0, played - 2) and summary["delay"] == {"moves": 2}
        # The lobby's game object says no more: its version and seat to act are the view's.
        for out in (
            anon.get(f"/api/games/{game['id']}").json(),
            anon.get("/api/games?status=live").json()["games"][0],
        ):
            assert (out["version"], out["to_act"]) == (state["version"], state["to_act"])
            assert out["clock"] == state["clock"]
        mine = ann.get(f"/api/games/{game['id']}").json()
        assert mine["version"] == played and mine["clock"]["mode"] == "live"
        assert ann.get(f"/api/games/{game['id']}/state").json()["version"] == played
    # The view a delayed spectator gets is the engine's view of that earlier position.
    from sqlalchemy import select

    from app.db.models.games import Move

    with app.state.sessionmaker() as db:
        row = lobby.get_game(db, game["id"])
        state = rules.new_game(rules.GameOptions.from_dict(row.options), row.seed)
        query = select(Move).where(Move.game_id == game["id"], Move.seq <= 3).order_by(Move.seq)
        for move in db.scalars(query):
            state, _ = rules.apply(state, move.action, move.seat)
    expected = json.loads(json.dumps(rules.view_for(state, None)))
    assert anon.get(f"/api/games/{game['id']}/state").json()["view"] == expected


def test_a_seconds_delay_shows_nothing_newer_than_that(
    app: FastAPI, client_factory: Callable[..., TestClient]
) -> None:
    ann = _account(client_factory, "ann")
    game = _table(ann, 2, rated=True, spectator_delay={"seconds": 600})
    _moves(app, game["id"], 3)
    anon = client_factory()
    assert anon.get(f"/api/games/{game['id']}/state").json()["version"] == 0
    assert anon.get(f"/api/games/{game['id']}/log").json()["moves"] == []
    assert anon.get("/api/watch").json()["games"][0]["v"] == 0
    # Once the first two moves are older than the delay (their commit times moved back, as
    # if 11 minutes had passed), they show, and the third does not.
    from datetime import timedelta

    from sqlalchemy import update

    from app.db.models.base import utcnow
    from app.db.models.games import Move

    with app.state.sessionmaker() as db:
        db.execute(
            update(Move)
            .where(Move.game_id == game["id"], Move.seq <= 2)
            .values(created_at=utcnow() - timedelta(seconds=660))
        )
        db.commit()
    assert anon.get(f"/api/games/{game['id']}/state").json()["version"] == 2
    assert [m["seq"] for m in anon.get(f"/api/games/{game['id']}/log").json()["moves"]] == [1, 2]
    assert anon.get("/api/watch").json()["games"][0]["v"] == 2


def test_the_delay_ends_with_the_game(
    app: FastAPI, client_factory: Callable[..., TestClient]
) -> None:
    ann = _account(client_factory, "ann")
    game = _table(ann, 2, rated=True, spectator_delay={"moves": 5})
    with app.state.sessionmaker() as db:
        while lobby.get_game(db, game["id"]).status == "live":
            _moves(app, game["id"], 1)
        final = lobby.get_game(db, game["id"]).version
    state = client_factory().get(f"/api/games/{game['id']}/state").json()
    assert state["version"] == final and state["view"]["over"] is True


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"rated": True, "spectator_delay": {}}, "invalid_options"),
        ({"rated": True, "spectator_delay": {"moves": 2, "seconds": 5}}, "invalid_options"),
        ({"spectator_delay": {"moves": 2}}, "invalid_options"),  # unrated
        ({"rated": True, "spectator_delay": {"moves": 21}}, "invalid_options"),  # over the max
        ({"rated": True, "spectator_delay": {"seconds": 601}}, "invalid_options"),
        ({"rated": True, "spectator_delay": {"moves": 0}}, "invalid_request"),
        ({"rated": True, "spectator_delay": {"moves": "2"}}, "invalid_request"),
        ({"rated": True, "spectator_delay": {"turns": 2}}, "invalid_request"),
        (
            {
                "rated": True,
                "spectator_delay": {"moves": 2},
                "clock": {"mode": "daily", "per_turn": 86400},
            },
            "invalid_options",
        ),
    ],
)
def test_bad_delay_options_are_clear_errors(
    app: FastAPI, client_factory: Callable[..., TestClient], body: dict[str, Any], code: str
) -> None:
    ann = _account(client_factory, "ann")
    r = ann.post("/api/games", json={"players": 2, **body})
    assert r.status_code == 422, r.text
    assert r.json()["error"]["code"] == code
    assert ann.get("/api/games?status=open").json()["games"] == []  # nothing was created


def test_the_pages_are_served_and_the_readme_lists_them(
    client_factory: Callable[..., TestClient],
) -> None:
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    client = client_factory()
    for path, script in (("/watch", "pages/watch.mjs"), ("/tv", "pages/tv.mjs")):
        assert f"`{path}`" in readme
        r = client.get(path)
        assert r.status_code == 200 and f"/static/js/{script}" in r.text
    assert 'href="/watch"' in client.get("/").text  # in the top bar

"""POST /api/games/{id}/hint: the expert's move for the seat to act, at unrated tables only."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings

# SQLite alone: nothing checked here differs by dialect (docs/testing.md, Postgres).
pytestmark = pytest.mark.one_database

Factory = Callable[..., TestClient]
Start = Callable[..., tuple[int, list[TestClient]]]


@pytest.fixture
def app(database_url: str, make_settings: Callable[..., Settings]) -> Iterator[FastAPI]:
    # Threads, not worker processes, and a search capped by rounds: quick on a busy machine.
    settings = make_settings(
        database_url,
        bot_processes=0,
        hint_budget_seconds=30.0,
        hint_rounds=1,
        hint_limits_per_user="3/minute",
        jobs_workers=0,
    )
    application = create_app(settings)
    yield application
    application.state.engine.dispose()


def _state(client: TestClient, gid: int) -> dict:
    return client.get(f"/api/games/{gid}/state").json()


def test_a_hint_is_one_legal_action_with_its_reasons(start_game: Start) -> None:
    gid, clients = start_game(2)
    seat = _state(clients[0], gid)["to_act"]
    me, other = clients[seat], clients[1 - seat]
    state = _state(me, gid)
    r = me.post(f"/api/games/{gid}/hint", json={"version": state["version"]})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["version"] == state["version"]
    assert body["action"] in state["legal_actions"]
    assert body["summary"].startswith(body["action"]["type"])
    assert body["reasons"] and all(isinstance(line, str) and line for line in body["reasons"])
    # The same position, the same hint: asking again tells nothing new.
    again = me.post(f"/api/games/{gid}/hint", json={"version": state["version"]}).json()
    assert again == body
    # Only the seat to act, at the game's version.
    r = other.post(f"/api/games/{gid}/hint", json={"version": state["version"]})
    assert (r.status_code, r.json()["error"]["code"]) == (409, "not_your_turn")
    r = me.post(f"/api/games/{gid}/hint", json={"version": state["version"] + 1})
    assert (r.status_code, r.json()["error"]["code"]) == (409, "stale_version")


class ChangingSearch:
    """A search the time budget ended, as on a busy server: each run answers a different legal
    action."""

    def __init__(self) -> None:
        self.runs = 0

    def run(self, _timeout: float, _fn: object, _view: dict, legal: list[dict], *_: object) -> dict:
        self.runs += 1
        return legal[self.runs % len(legal)]

    def shutdown(self) -> None:
        pass


def test_asking_again_gets_the_kept_hint_without_a_search(app: FastAPI, start_game: Start) -> None:
    search = ChangingSearch()
    app.state.context.bot_workers = search
    gid, clients = start_game(2)
    seat = _state(clients[0], gid)["to_act"]
    me = clients[seat]
    version = _state(me, gid)["version"]
    first = me.post(f"/api/games/{gid}/hint", json={"version": version}).json()
    again = me.post(f"/api/games/{gid}/hint", json={"version": version}).json()
    assert again == first and search.runs == 1
    # A new position is searched anew.
    assert (
        me.post(
            f"/api/games/{gid}/actions", json={"version": version, "action": first["action"]}
        ).status_code
        == 200
    )
    state = _state(clients[0], gid)
    asker = clients[state["to_act"]]
    r = asker.post(f"/api/games/{gid}/hint", json={"version": state["version"]})
    assert r.status_code == 200, r.text
    assert search.runs == 2


def test_hints_are_bounded_per_user(start_game: Start) -> None:
    gid, clients = start_game(2)
    seat = _state(clients[0], gid)["to_act"]
    me = clients[seat]
    version = _state(me, gid)["version"]
    codes = [
        me.post(f"/api/games/{gid}/hint", json={"version": version + 1}).status_code
        for _ in range(4)
    ]
    assert codes == [409, 409, 409, 429]  # stale versions count too: the limit is per user
    r = me.post(f"/api/games/{gid}/hint", json={"version": version})
    assert r.json()["error"]["code"] == "too_many_hints" and "retry-after" in r.headers


def test_hints_are_refused_at_rated_tables(client_factory: Factory) -> None:
    host = client_factory()
    r = host.post("/api/users", json={"username": "ann", "password": "correct horse"})
    assert r.status_code in (200, 201), r.text
    game = host.post("/api/games", json={"players": 2, "rated": True}).json()
    assert game["rated"] is True
    gid = game["id"]
    assert host.post(f"/api/games/{gid}/bots", json={"level": "greedy"}).status_code == 200
    assert host.post(f"/api/games/{gid}/start").status_code == 200
    state = _state(host, gid)
    # Refused whoever is to act: a rated table never hints.
    r = host.post(f"/api/games/{gid}/hint", json={"version": state["version"]})
    assert (r.status_code, r.json()["error"]["code"]) == (409, "rated_table"), r.text


def test_hint_needs_a_seat(start_game: Start, client_factory: Factory) -> None:
    gid, _ = start_game(2)
    r = client_factory("Watcher").post(f"/api/games/{gid}/hint", json={"version": 1})
    assert (r.status_code, r.json()["error"]["code"]) == (403, "not_seated")
    r = client_factory().post(f"/api/games/{gid}/hint", json={"version": 1})
    assert r.status_code == 401

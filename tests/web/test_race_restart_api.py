"""Concurrent submissions for one decision, and a new app continuing a game from the database."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings

Factory = Callable[..., TestClient]
Start = Callable[..., tuple[int, list[TestClient]]]


def _mover(gid: int, clients: list[TestClient]) -> tuple[int, dict[str, Any]]:
    seat = clients[0].get(f"/api/games/{gid}/state").json()["to_act"]
    return seat, clients[seat].get(f"/api/games/{gid}/state").json()


def race(clients: list[TestClient], path: str, body: dict[str, Any]) -> list[Any]:
    """POST the same body from every client at the same moment; the responses in client order."""
    barrier = threading.Barrier(len(clients))
    results: list[Any] = [None] * len(clients)

    def submit(i: int) -> None:
        barrier.wait()
        results[i] = clients[i].post(path, json=body)

    threads = [threading.Thread(target=submit, args=(i,)) for i in range(len(clients))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return results


def test_two_concurrent_submissions_one_wins(start_game: Start, app: FastAPI) -> None:
    gid, clients = start_game(2)
    for _round in range(8):
        seat, state = _mover(gid, clients)
        # A second browser tab of the same player: same cookie, its own connection.
        twin = TestClient(app, cookies=dict(clients[seat].cookies))
        body = {"version": state["version"], "action": state["legal_actions"][0]}
        results = race([clients[seat], twin], f"/api/games/{gid}/actions", body)
        twin.close()
        statuses = sorted(r.status_code for r in results)
        assert statuses == [200, 409], [r.text for r in results]
        loser = next(r for r in results if r.status_code == 409)
        assert loser.json()["error"]["code"] == "stale_version"
        after = clients[0].get(f"/api/games/{gid}/state").json()
        assert after["version"] == state["version"] + 1
    log = clients[0].get(f"/api/games/{gid}/log").json()
    assert [m["seq"] for m in log["moves"]] == list(range(1, 9))


def test_a_new_app_on_the_same_database_continues_the_game(
    database_url: str, make_settings: Callable[..., Settings]
) -> None:
    settings = make_settings(database_url)
    first = create_app(settings)
    players = [TestClient(first) for _ in range(2)]
    players[0].post("/api/session/guest", json={"name": "Ann"})
    players[1].post("/api/session/guest", json={"name": "Bob"})
    gid = players[0].post("/api/games", json={"players": 2}).json()["id"]
    players[1].post(f"/api/games/{gid}/join")
    players[0].post(f"/api/games/{gid}/start")
    for _ in range(5):
        seat, state = _mover(gid, players)
        body = {"version": state["version"], "action": state["legal_actions"][0]}
        assert players[seat].post(f"/api/games/{gid}/actions", json=body).status_code == 200
    before = [p.get(f"/api/games/{gid}/state").json() for p in players]
    cookies = [dict(p.cookies) for p in players]
    for p in players:
        p.close()
    first.state.engine.dispose()

    second = create_app(settings)  # a restarted server: empty caches, same database and key
    again = [TestClient(second, cookies=c) for c in cookies]
    assert [p.get(f"/api/games/{gid}/state").json() for p in again] == before
    seat, state = _mover(gid, again)
    body = {"version": 5, "action": state["legal_actions"][0]}
    r = again[seat].post(f"/api/games/{gid}/actions", json=body)
    assert r.status_code == 200 and r.json()["version"] == 6
    assert len(again[0].get(f"/api/games/{gid}/log").json()["moves"]) == 6
    for p in again:
        p.close()
    second.state.engine.dispose()

"""A whole game over plain HTTP, each seat always submitting its first legal action."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

Factory = Callable[..., TestClient]
Start = Callable[..., tuple[int, list[TestClient]]]


def _keys(value: Any) -> set[str]:
    """Every dict key anywhere inside a JSON value."""
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in _keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in _keys(v)}
    return set()


def play_to_the_end(gid: int, clients: list[TestClient], limit: int = 2000) -> int:
    """Play first legal actions until the game is over; returns the number of moves."""
    watcher = clients[0]
    for moves in range(limit):
        state = watcher.get(f"/api/games/{gid}/state").json()
        if state["status"] == "finished":
            return moves
        seat = state["to_act"]
        mine = clients[seat].get(f"/api/games/{gid}/state").json()
        assert mine["legal_actions"], f"seat {seat} is to act but has no legal action"
        r = clients[seat].post(
            f"/api/games/{gid}/actions",
            json={"version": mine["version"], "action": mine["legal_actions"][0]},
        )
        assert r.status_code == 200, r.text
        assert r.json()["version"] == mine["version"] + 1
    raise AssertionError(f"game {gid} did not end in {limit} moves")


@pytest.mark.slow  # whole games over HTTP
@pytest.mark.parametrize("players", [2, 4])
def test_play_a_whole_game(start_game: Start, client_factory: Factory, players: int) -> None:
    gid, clients = start_game(players)
    moves = play_to_the_end(gid, clients)
    assert moves > 0

    game = clients[0].get(f"/api/games/{gid}").json()
    assert game["status"] == "finished" and game["finished_at"] and game["to_act"] is None
    assert game["version"] == moves
    assert len(game["final_scores"]["players"]) == players

    # After the end the record is complete for everyone, except the seed.
    log = client_factory().get(f"/api/games/{gid}/log").json()
    assert "seed" not in _keys(log)
    assert len(log["moves"]) == moves
    assert all("action" in m and m["text"] for m in log["moves"])
    record = log["record"]
    assert record["options"]["players"] == players
    assert record["final_scores"] == game["final_scores"]
    assert len(record["setup"]["seats"]) == players
    assert len(record["players"]) == players

    # The game is over: no more actions, and listed as finished.
    r = clients[0].post(f"/api/games/{gid}/actions", json={"version": moves, "action": {}})
    assert r.status_code == 409 and r.json()["error"]["code"] == "game_over"
    finished = client_factory().get("/api/games", params={"status": "finished"}).json()["games"]
    assert gid in [g["id"] for g in finished]
    state = client_factory().get(f"/api/games/{gid}/state").json()
    assert state["legal_actions"] == [] and state["to_act"] is None

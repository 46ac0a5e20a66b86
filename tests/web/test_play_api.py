"""State, actions and the log over HTTP: permissions, versions and hidden information (R-60)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient

Factory = Callable[..., TestClient]
Start = Callable[..., tuple[int, list[TestClient]]]


def _state(client: TestClient, gid: int, **params: Any) -> dict[str, Any]:
    r = client.get(f"/api/games/{gid}/state", params=params)
    assert r.status_code == 200, r.text
    return r.json()


def _act(client: TestClient, gid: int, version: int, action: dict[str, Any]) -> Any:
    return client.post(f"/api/games/{gid}/actions", json={"version": version, "action": action})


def _first_secret_move(start_game: Start) -> tuple[int, list[TestClient], int]:
    """Play first-legal actions until a move with a secret event; returns its seat."""
    gid, clients = start_game(2)
    for _ in range(200):
        state = _state(clients[0], gid)
        seat = state["to_act"]
        mover = _state(clients[seat], gid)
        legal = mover["legal_actions"]
        pass_moves = [a for a in legal if a["type"] == "pass" and a["draw"]["source"] == "deck"]
        action = pass_moves[0] if pass_moves else legal[0]
        r = _act(clients[seat], gid, mover["version"], action)
        assert r.status_code == 200, r.text
        if any("secret" in ev for ev in r.json()["events"]):
            return gid, clients, seat
    raise AssertionError("no secret event in 200 moves")


def test_only_the_seat_to_act_gets_legal_actions(
    start_game: Start, client_factory: Factory
) -> None:
    gid, clients = start_game(3)
    states = [_state(c, gid) for c in clients]
    to_act = states[0]["to_act"]
    for seat, state in enumerate(states):
        assert state["seat"] == seat and state["version"] == 0 and state["status"] == "live"
        assert bool(state["legal_actions"]) == (seat == to_act)
        assert state["view"]["viewer"] == seat
    spectator = _state(client_factory(), gid)
    assert spectator["seat"] is None and spectator["legal_actions"] == []
    assert spectator["view"]["viewer"] is None
    assert "seed" not in json.dumps(states) + json.dumps(spectator)


def test_a_legal_action_moves_the_game_on(start_game: Start) -> None:
    gid, clients = start_game(2)
    state = _state(clients[0], gid)
    seat = state["to_act"]
    action = _state(clients[seat], gid)["legal_actions"][0]
    r = _act(clients[seat], gid, 0, action)
    assert r.status_code == 200, r.text
    assert r.json()["version"] == 1 and r.json()["events"]
    assert _state(clients[0], gid)["version"] == 1
    assert clients[0].get(f"/api/games/{gid}").json()["version"] == 1


def test_stale_version_is_409_and_changes_nothing(start_game: Start) -> None:
    gid, clients = start_game(2)
    seat = _state(clients[0], gid)["to_act"]
    before = _state(clients[seat], gid)
    action = before["legal_actions"][0]
    for version in (1, 7):
        r = _act(clients[seat], gid, version, action)
        assert r.status_code == 409 and r.json()["error"]["code"] == "stale_version"
    assert _state(clients[seat], gid) == before


def test_out_of_turn_is_409_not_your_turn(start_game: Start) -> None:
    gid, clients = start_game(2)
    seat = _state(clients[0], gid)["to_act"]
    action = _state(clients[seat], gid)["legal_actions"][0]
    other = clients[1 - seat]
    before = _state(other, gid)
    r = _act(other, gid, 0, action)
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_your_turn"
    assert _state(other, gid) == before


def test_spectators_and_strangers_cannot_act(start_game: Start, client_factory: Factory) -> None:
    gid, clients = start_game(2)
    seat = _state(clients[0], gid)["to_act"]
    action = _state(clients[seat], gid)["legal_actions"][0]
    r = _act(client_factory("Watcher"), gid, 0, action)
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_seated"
    r = _act(client_factory(), gid, 0, action)
    assert r.status_code == 401 and r.json()["error"]["code"] == "not_signed_in"
    assert _state(clients[0], gid)["version"] == 0


def test_illegal_and_malformed_actions(start_game: Start) -> None:
    gid, clients = start_game(2)
    seat = _state(clients[0], gid)["to_act"]
    player = clients[seat]
    r = _act(player, gid, 0, {"type": "teleport"})
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_action"
    r = _act(player, gid, 0, {"type": "place", "card": "M01", "cells": [[0, 0]], "head": [0, 0]})
    assert r.status_code in (409, 422) and r.json()["error"]["code"] != "internal_error"
    r = player.post(f"/api/games/{gid}/actions", json={"version": 0})
    assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_request"
    r = player.post(f"/api/games/{gid}/actions", json={"version": -1, "action": {}})
    assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_request"
    r = player.post(f"/api/games/{gid}/actions", json={"version": 0, "action": "pass"})
    assert r.status_code == 422
    assert _state(player, gid)["version"] == 0


def test_actions_before_the_start(client_factory: Factory) -> None:
    host = client_factory("Host")
    gid = host.post("/api/games", json={"players": 2}).json()["id"]
    r = host.get(f"/api/games/{gid}/state")
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_started"
    r = _act(host, gid, 0, {"type": "pass"})
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_started"
    assert host.get(f"/api/games/{gid}/log").json()["moves"] == []


def test_private_game_state_and_log_need_the_code(
    start_game: Start, client_factory: Factory
) -> None:
    gid, clients = start_game(2, visibility="private")
    code = clients[0].get(f"/api/games/{gid}").json()["invite_code"]
    stranger = client_factory()
    for path in (f"/api/games/{gid}/state", f"/api/games/{gid}/log"):
        r = stranger.get(path)
        assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
        assert stranger.get(path, params={"invite_code": "wrong"}).status_code == 404
        assert stranger.get(path, params={"invite_code": code}).status_code == 200
    assert _state(stranger, gid, invite_code=code)["legal_actions"] == []


def test_secrets_reach_only_their_owner(start_game: Start, client_factory: Factory) -> None:
    gid, clients, seat = _first_secret_move(start_game)
    mine = clients[seat].get(f"/api/games/{gid}/log").json()["moves"]
    theirs = clients[1 - seat].get(f"/api/games/{gid}/log").json()["moves"]
    public = client_factory().get(f"/api/games/{gid}/log").json()["moves"]
    assert any("secret" in ev for m in mine if m["seat"] == seat for ev in m["events"])
    assert not any("secret" in ev for m in theirs if m["seat"] == seat for ev in m["events"])
    assert not any("secret" in ev for m in public for ev in m["events"])
    assert all("action" not in m for m in public)  # actions may name hidden cards
    assert all(len(m["text"]) == len(m["events"]) for m in public)
    assert all(isinstance(t, str) and t for m in public for t in m["text"])
    assert [m["seq"] for m in public] == list(range(1, len(public) + 1))
    since = client_factory().get(f"/api/games/{gid}/log", params={"since": 1}).json()["moves"]
    assert [m["seq"] for m in since] == list(range(2, len(public) + 1))

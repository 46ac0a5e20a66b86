"""Why not here over HTTP: refused actions carry the engine's reason, and GET .../explain."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.settings import Settings
from app.web.throttle import Throttles

# SQLite alone: nothing checked here differs by dialect (docs/testing.md, Postgres).
pytestmark = pytest.mark.one_database

Factory = Callable[..., TestClient]
Start = Callable[..., tuple[int, list[TestClient]]]


def _state(client: TestClient, gid: int) -> dict:
    return client.get(f"/api/games/{gid}/state").json()


def _corner_place(state: dict, seat: int) -> dict:
    """An action of the seat's first card on squares far from the island (never legal first)."""
    legal = next(a for a in state["legal_actions"] if a["type"] == "place")
    card = legal["card"]
    # The card's own shape, moved so that its squares start in the top-left corner.
    r0 = min(r for r, _ in legal["cells"])
    c0 = min(c for _, c in legal["cells"])
    cells = [[r - r0, c - c0] for r, c in legal["cells"]]
    head = [legal["head"][0] - r0, legal["head"][1] - c0]
    return {"type": "place", "card": card, "cells": cells, "head": head}


def test_a_refused_action_says_why_and_explain_says_the_same_R21(start_game: Start) -> None:
    gid, clients = start_game(2)
    seat = _state(clients[0], gid)["to_act"]
    me = clients[seat]
    state = _state(me, gid)
    action = _corner_place(state, seat)
    r = me.post(f"/api/games/{gid}/actions", json={"version": state["version"], "action": action})
    assert r.status_code == 422, r.text
    error = r.json()["error"]
    assert error["code"] == "illegal_placement"
    assert error["reason"]["code"] == "not_touching"
    assert error["reason"]["text"].startswith("Not next to the Central Island")
    assert _state(me, gid)["version"] == state["version"]  # nothing changed

    q = {"version": state["version"], "action": json.dumps(action)}
    r = me.get(f"/api/games/{gid}/explain", params=q)
    assert r.status_code == 200, r.text
    assert r.json() == {"version": state["version"], "legal": False, "reason": error["reason"]}

    legal = next(a for a in state["legal_actions"] if a["type"] == "place")
    q = {"version": state["version"], "action": json.dumps(legal)}
    assert me.get(f"/api/games/{gid}/explain", params=q).json()["legal"] is True


def test_explain_only_for_the_seat_to_act_R60(start_game: Start, client_factory: Factory) -> None:
    gid, clients = start_game(2)
    seat = _state(clients[0], gid)["to_act"]
    me, other = clients[seat], clients[1 - seat]
    state = _state(me, gid)
    version = state["version"]
    action = json.dumps(_corner_place(state, seat))
    url = f"/api/games/{gid}/explain"

    def answer(client, **params):
        r = client.get(url, params={"version": version, "action": action, **params})
        return r.status_code, r.json().get("error", {}).get("code")

    # Another seat learns nothing of the hand the action comes from.
    assert answer(other) == (409, "not_your_turn")
    assert answer(client_factory("Watcher")) == (403, "not_seated")
    assert answer(client_factory()) == (401, "not_signed_in")
    assert answer(me, version=version + 1) == (409, "stale_version")
    # Text that is not JSON is no action: explained as malformed, like JSON that is no action.
    for text in ("{not json", "0000", json.dumps([1, 2])):
        r = me.get(url, params={"version": version, "action": text})
        assert r.status_code == 200, r.text
        assert r.json()["legal"] is False and r.json()["reason"]["code"] == "malformed"
    assert answer(me, action=json.dumps({"type": "pass", "x": "y" * 2000})) == (
        422,
        "invalid_request",
    )


def test_explain_is_rate_limited_per_user(
    app: FastAPI, start_game: Start, database_url: str, make_settings: Callable[..., Settings]
) -> None:
    settings = make_settings(database_url, explain_limits_per_user="3/minute")
    app.state.throttles = Throttles.from_settings(settings)
    gid, clients = start_game(2)
    seat = _state(clients[0], gid)["to_act"]
    me = clients[seat]
    state = _state(me, gid)
    q = {"version": state["version"], "action": json.dumps(_corner_place(state, seat))}
    codes = [me.get(f"/api/games/{gid}/explain", params=q).status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]
    r = me.get(f"/api/games/{gid}/explain", params=q)
    assert r.json()["error"]["code"] == "too_many_explains" and "retry-after" in r.headers

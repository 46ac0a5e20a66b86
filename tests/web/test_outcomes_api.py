"""GET /api/games/{id}/outcomes: the engine's outcomes of a card's placements, for its player."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient

from app.main import create_app

# SQLite alone: nothing checked here differs by dialect (docs/testing.md, Postgres).
pytestmark = pytest.mark.one_database

Factory = Callable[..., TestClient]
Start = Callable[..., tuple[int, list[TestClient]]]


def _state(client: TestClient, gid: int) -> dict:
    return client.get(f"/api/games/{gid}/state").json()


def test_outcomes_list_every_legal_placement_and_playing_one_gives_its_numbers(
    start_game: Start,
) -> None:
    gid, clients = start_game(3)
    seat = _state(clients[0], gid)["to_act"]
    me = clients[seat]
    state = _state(me, gid)
    card = state["view"]["players"][seat]["hand"][0]
    r = me.get(f"/api/games/{gid}/outcomes", params={"card": card, "version": state["version"]})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["version"] == state["version"] and body["card"] == card
    legal = [a for a in state["legal_actions"] if a["type"] == "place" and a["card"] == card]
    assert [o["action"] for o in body["outcomes"]] == legal
    # Play the dearest one: Gold moves by exactly what the preview said.
    out = max(body["outcomes"], key=lambda o: (o["cost"], o["gold"]["total"]))
    gold_before = state["view"]["players"][seat]["gold"]
    others_before = {p["seat"]: p["gold"] for p in state["view"]["players"]}
    r = me.post(
        f"/api/games/{gid}/actions", json={"version": state["version"], "action": out["action"]}
    )
    assert r.status_code == 200, r.text
    after = _state(me, gid)["view"]["players"]
    assert after[seat]["gold"] == gold_before + out["gold_change"] == out["gold_after"]
    for n in out["neighbours_gold"]:
        assert after[n["seat"]]["gold"] == others_before[n["seat"]] + n["gold"]
    text = clients[0].get(f"/api/games/{gid}/log").json()["moves"][-1]["text"]
    assert text[0] == out["events"][0]


def test_outcomes_refusals(start_game: Start, client_factory: Factory) -> None:
    gid, clients = start_game(2)
    seat = _state(clients[0], gid)["to_act"]
    me, other = clients[seat], clients[1 - seat]
    state = _state(me, gid)
    version = state["version"]
    card = state["view"]["players"][seat]["hand"][0]
    url = f"/api/games/{gid}/outcomes"

    def code(client, **params):
        r = client.get(url, params={"card": card, "version": version, **params})
        return r.status_code, r.json()["error"]["code"]

    assert code(me, version=version + 1) == (409, "stale_version")
    assert code(other) == (409, "not_your_turn")
    assert code(client_factory("Watcher")) == (403, "not_seated")
    assert code(client_factory()) == (401, "not_signed_in")
    assert code(me, card="M99") == (422, "bad_action")  # not a card in the hand
    other_card = _state(other, gid)["view"]["players"][1 - seat]["hand"][0]
    assert code(me, card=other_card)[1] == "bad_action"
    # After the placement the seat is no longer choosing one.
    place = next(a for a in state["legal_actions"] if a["type"] == "place")
    me.post(f"/api/games/{gid}/actions", json={"version": version, "action": place})
    r = me.get(url, params={"card": card, "version": version + 1})
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_action"


def test_outcomes_of_a_private_game_are_404_to_strangers(client_factory: Factory) -> None:
    host = client_factory("Host")
    game = host.post("/api/games", json={"players": 2, "visibility": "private"}).json()
    r = client_factory("Stranger").get(
        f"/api/games/{game['id']}/outcomes", params={"card": "M01", "version": 0}
    )
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"


def test_a_card_with_too_many_placements_is_refused(make_settings, database_url) -> None:
    application = create_app(make_settings(database_url, outcomes_max=3))
    try:
        with TestClient(application) as a, TestClient(application) as b:
            a.post("/api/session/guest", json={"name": "A"})
            b.post("/api/session/guest", json={"name": "B"})
            game = a.post("/api/games", json={"players": 2}).json()
            b.post(f"/api/games/{game['id']}/join", json={"invite_code": game["invite_code"]})
            a.post(f"/api/games/{game['id']}/start")
            gid = game["id"]
            seat = a.get(f"/api/games/{gid}/state").json()["to_act"]
            me = (a, b)[seat]
            state = me.get(f"/api/games/{gid}/state").json()
            card = state["view"]["players"][seat]["hand"][0]
            r = me.get(f"/api/games/{gid}/outcomes", params={"card": card, "version": 0})
            assert r.status_code == 422 and r.json()["error"]["code"] == "too_many_outcomes"
    finally:
        application.state.engine.dispose()


def test_take_back_over_the_api_R56(start_game: Start) -> None:
    """The view says what a take-back would undo; the move is stored and logged like any."""
    gid, clients = start_game(3, expansion=True)
    seat = _state(clients[0], gid)["to_act"]
    me = clients[seat]
    state = _state(me, gid)
    assert state["view"]["turn"]["take_back"] is None
    r = me.post(
        f"/api/games/{gid}/actions",
        json={"version": state["version"], "action": {"type": "use_ancestral"}},
    )
    assert r.status_code == 200, r.text
    state = _state(me, gid)
    assert state["view"]["turn"]["take_back"] == {"kind": "ancestral"}
    watcher = _state(clients[(seat + 1) % 3], gid)
    assert watcher["view"]["turn"]["take_back"] == {"kind": "ancestral"}  # public
    assert {"type": "take_back"} not in state["legal_actions"]
    r = me.post(
        f"/api/games/{gid}/actions",
        json={"version": state["version"], "action": {"type": "take_back"}},
    )
    assert r.status_code == 200, r.text
    view = _state(me, gid)["view"]
    assert view["turn"]["ancestral"] is False and view["turn"]["take_back"] is None
    log = clients[0].get(f"/api/games/{gid}/log").json()["moves"]
    who = view["players"][seat]["colour"].capitalize()
    assert log[-1]["text"] == [f"{who} took back the Ancestral Dragon head"]
    r = me.post(
        f"/api/games/{gid}/actions",
        json={"version": state["version"] + 1, "action": {"type": "take_back"}},
    )
    assert r.status_code == 422 and r.json()["error"]["code"] == "not_allowed"


def test_no_outcomes_while_a_bot_plays_the_seat(start_game: Start) -> None:
    gid, clients = start_game(2)
    host = clients[0]
    r = host.post(f"/api/games/{gid}/seats/0/bot", json={"level": "random"})
    assert r.status_code == 200, r.text
    state = _state(host, gid)
    card = state["view"]["players"][0]["hand"][0]
    r = host.get(f"/api/games/{gid}/outcomes", params={"card": card, "version": state["version"]})
    assert r.status_code == 409 and r.json()["error"]["code"] == "seat_has_bot"

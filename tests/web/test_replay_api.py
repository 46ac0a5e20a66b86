"""GET /api/games/{id}/replay: a finished game, position by position, from the engine (R-60).

Two whole games are played over the API with random legal actions (a 3-player base game and a
4-player expansion game, so treasures, conversions and Reward Board Gold occur); beside the
server the test keeps its own engine copy of every position. Walking the replay's frames by
applying their ops must give, at every step, exactly the engine's after-the-end view of that
position, and must agree with what the live game showed each seat when it acted (its own
hand included), panel number by panel number.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable

import jsonpatch
import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

import app.engine as rules
from app.db.models.games import Game

Factory = Callable[..., TestClient]
Start = Callable[..., tuple[int, list[TestClient]]]
PUBLIC = ("gold", "heads", "ships", "missions", "played", "discarded", "hand_count", "used")


def _seed(app, gid: int) -> tuple[rules.GameOptions, int]:
    with Session(app.state.engine) as db:
        game = db.get(Game, gid)
        return rules.GameOptions.from_dict(game.options), game.seed


def _play(app, gid: int, clients: list[TestClient], seed: int):
    """Random legal actions to the end; the engine's views per step and the live seat views."""
    options, game_seed = _seed(app, gid)
    state = rules.new_game(options, game_seed)
    views = [rules.replay_view(state)]
    live = []
    rng = random.Random(seed)
    while True:
        seat = clients[0].get(f"/api/games/{gid}/state").json()["to_act"]
        if seat is None:
            return views, live
        mine = clients[seat].get(f"/api/games/{gid}/state").json()
        live.append((len(views) - 1, seat, mine["view"]))
        action = rng.choice(mine["legal_actions"])
        r = clients[seat].post(
            f"/api/games/{gid}/actions", json={"version": mine["version"], "action": action}
        )
        assert r.status_code == 200, r.text
        state, _ = rules.apply(state, action, seat)
        views.append(rules.replay_view(state))


def _keys(value) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in _keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in _keys(v)}
    return set()


def _walk(replay: dict) -> list[dict]:
    docs = [replay["start"]]
    for frame in replay["frames"]:
        docs.append(jsonpatch.apply_patch(copy.deepcopy(docs[-1]), frame["ops"]))
    return docs


@pytest.mark.slow  # whole games, every frame
@pytest.mark.parametrize(("players", "expansion", "seed"), [(3, False, 1), (4, True, 2)])
def test_every_frame_is_the_engines_view_with_every_hand_R60(
    app, start_game: Start, client_factory: Factory, players, expansion, seed
) -> None:
    gid, clients = start_game(players, expansion=expansion)
    views, live = _play(app, gid, clients, seed)
    r = client_factory().get(f"/api/games/{gid}/replay")  # a stranger: the game is public
    assert r.status_code == 200, r.text
    replay = r.json()
    assert replay["game_id"] == gid and len(replay["seats"]) == players
    assert "seed" not in _keys(replay)  # everything but the seed
    docs = _walk(replay)
    assert len(docs) == len(views)
    for step, (doc, view) in enumerate(zip(docs, views, strict=True)):
        assert doc == view, f"step {step} differs from the engine's view"
        assert all(p["hand"] is not None and p["reefs"] is not None for p in doc["players"])
    # What the live game showed each seat when it acted: every public number, its own hand.
    for step, seat, shown in live:
        doc = docs[step]
        for p, q in zip(doc["players"], shown["players"], strict=True):
            assert {k: p[k] for k in PUBLIC} == {k: q[k] for k in PUBLIC}, f"step {step}"
            if expansion:
                assert p["tails"] == q["tails"] and p["treasure_count"] == q["treasure_count"]
        assert doc["players"][seat]["hand"] == shown["players"][seat]["hand"]
        assert doc["players"][seat]["reefs"] == shown["players"][seat]["reefs"]
        assert doc["board"] == shown["board"] and doc["market"] == shown["market"]
    final = clients[0].get(f"/api/games/{gid}").json()["final_scores"]
    assert replay["final_scores"] == final == docs[-1]["scores"]
    log = clients[0].get(f"/api/games/{gid}/log").json()["moves"]
    assert [f["seq"] for f in replay["frames"]] == [m["seq"] for m in log]
    assert [f["action"] for f in replay["frames"]] == [m["action"] for m in log]
    # Each line also in pieces, so a page words it in its reader's language.
    assert [len(f["pieces"]) for f in replay["frames"]] == [
        len(f["lines"]) for f in replay["frames"]
    ]
    assert all(
        isinstance(k, str) for f in replay["frames"] for line in f["pieces"] for k, _ in line
    )
    if expansion:  # hands of a finished expansion game include Hidden Treasures
        assert any(p["treasures"] for d in docs for p in d["players"])
    # A second request is served from the cache: the same document.
    assert client_factory().get(f"/api/games/{gid}/replay").json() == replay


def test_no_replay_of_a_live_game_R60(start_game: Start, client_factory: Factory) -> None:
    gid, clients = start_game(2)
    for client in (clients[0], client_factory(), client_factory("Watcher")):
        r = client.get(f"/api/games/{gid}/replay")
        assert r.status_code == 409 and r.json()["error"]["code"] == "not_finished"


def test_no_replay_of_a_table_not_started(client_factory: Factory) -> None:
    host = client_factory("Host")
    gid = host.post("/api/games", json={"players": 2}).json()["id"]
    r = host.get(f"/api/games/{gid}/replay")
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_finished"


def test_private_replays_need_a_seat_or_the_invite(app, client_factory: Factory) -> None:
    host = client_factory("Host")
    game = host.post("/api/games", json={"players": 2, "visibility": "private"}).json()
    guest = client_factory("Guest")
    body = {"invite_code": game["invite_code"]}
    assert guest.post(f"/api/games/{game['id']}/join", json=body).status_code == 200
    assert host.post(f"/api/games/{game['id']}/start").status_code == 200
    gid = game["id"]
    _play(app, gid, [host, guest], seed=3)  # the host sits in seat 0
    stranger = client_factory("Stranger")
    r = stranger.get(f"/api/games/{gid}/replay")
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    r = stranger.get(f"/api/games/{gid}/replay", params={"invite_code": "wrong"})
    assert r.status_code == 404
    assert (
        stranger.get(
            f"/api/games/{gid}/replay", params={"invite_code": game["invite_code"]}
        ).status_code
        == 200
    )
    assert guest.get(f"/api/games/{gid}/replay").status_code == 200

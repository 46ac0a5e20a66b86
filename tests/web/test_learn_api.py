"""/api/learn: lesson positions, moves refused with their reason, the limits, R-60, and the rules
page's examples (their figures are the engine's)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

import app.engine as rules
from app.engine import preview
from app.engine.state import GameOptions
from app.i18n import translate_reason
from app.main import create_app
from app.settings import Settings
from app.tutorial import session
from app.tutorial.lessons import LEARNER, LESSONS, script

Json = dict[str, Any]
CARD_ID = re.compile(r"\b(?:S|M|L|MS|RF|HT)\d\d\b")


@pytest.fixture
def client(sqlite_url: str, make_settings: Callable[..., Settings]) -> Iterator[TestClient]:
    app = create_app(make_settings(sqlite_url, learn_answers_max=20))
    with TestClient(app) as c:
        yield c
    app.state.engine.dispose()


def steps_of(lesson: str) -> list[Json]:
    return [m for m in script(lesson)["moves"] if "step" in m]


def test_the_lessons_are_listed(client: TestClient) -> None:
    r = client.get("/api/learn")
    assert r.status_code == 200
    lessons = r.json()["lessons"]
    assert [x["id"] for x in lessons] == list(LESSONS)
    assert {x["tutorial"] for x in lessons} == {"base", "deep"}
    assert all(x["steps"] == len(steps_of(x["id"])) for x in lessons)


def test_a_lesson_is_played_step_by_step_and_back(client: TestClient) -> None:
    answers: list[Json] = []
    pos = client.post("/api/learn/base/position", json={"answers": []}).json()
    assert pos["step"] == 0 and pos["seat"] == LEARNER and pos["text"]["rulings"]
    for move in steps_of("base")[:4]:
        assert pos["target"]["action"] == move["action"]
        r = client.post("/api/learn/base/act", json={"answers": answers, "action": move["action"]})
        assert r.status_code == 200, r.text
        answers.append(move["action"])
        pos = r.json()
        assert pos["step"] == len(answers)
    back = client.post("/api/learn/base/position", json={"answers": answers[:-1]}).json()
    assert back["step"] == 3 and back["target"]["action"] == steps_of("base")[3]["action"]


def test_a_refused_move_carries_the_engines_reason_and_changes_nothing(client: TestClient) -> None:
    first = steps_of("base")[0]
    for t in first["tries"]:
        r = client.post("/api/learn/base/act", json={"answers": [], "action": t["action"]})
        assert r.status_code == 422
        err = r.json()["error"]
        assert err["reason"]["code"] == t["reason"]
        assert err["reason"]["text"]
    pos = client.post("/api/learn/base/position", json={"answers": []}).json()
    assert pos["step"] == 0 and not pos["view"]["board"]["dragons"]
    # A legal move the step does not ask for: the lesson's own reason, the step's move as a fact.
    other = next(
        a
        for a in pos["legal_actions"]
        if a["type"] == "place" and a["cells"] != first["action"]["cells"]
    )
    r = client.post("/api/learn/base/act", json={"answers": [], "action": other})
    assert r.status_code == 422
    assert r.json()["error"]["reason"]["code"] == "lesson_step"
    assert r.json()["error"]["reason"]["facts"]["expected"] == first["action"]


def test_the_ghosts_reason_and_preview_are_the_engines(client: TestClient) -> None:
    first = steps_of("base")[0]
    t = first["tries"][0]
    r = client.post("/api/learn/base/explain", json={"answers": [], "action": t["action"]})
    assert r.status_code == 200
    # The engine's reason as a player reads it: the ruling's id left out (R-21 stays in code).
    engine = session.explain_here(session.position("base", []), t["action"]).to_json()
    assert r.json() == {"legal": False, "reason": translate_reason(engine)}
    assert "(R-" in engine["text"] and "(R-" not in r.json()["reason"]["text"]
    ok = client.post("/api/learn/base/explain", json={"answers": [], "action": first["action"]})
    assert ok.json() == {"legal": True, "reason": None}
    card = first["action"]["card"]
    r = client.post("/api/learn/base/outcomes", json={"answers": [], "card": card})
    state = session.position("base", []).state
    assert r.json()["outcomes"] == json.loads(json.dumps(preview.outcomes(state, LEARNER, card)))


def test_bad_requests_are_refused_clearly(client: TestClient) -> None:
    moves = [m["action"] for m in steps_of("base")]
    r = client.post("/api/learn/base/position", json={"answers": [moves[1]]})
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_answers"
    r = client.post("/api/learn/nope/position", json={"answers": []})
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    # SEADRAGONS_LEARN_ANSWERS_MAX (20 here): more answers are refused before any replay.
    r = client.post("/api/learn/base/position", json={"answers": [moves[0]] * 21})
    assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_request"
    r = client.post("/api/learn/base/position", json={"answers": "x"})
    assert r.status_code == 422
    done = client.post(
        "/api/learn/ending/position", json={"answers": [m["action"] for m in steps_of("ending")]}
    )
    assert done.json()["done"] and done.json()["legal_actions"] == []
    r = client.post(
        "/api/learn/ending/act",
        json={"answers": [m["action"] for m in steps_of("ending")], "action": {"type": "pass"}},
    )
    assert r.status_code == 409 and r.json()["error"]["code"] == "lesson_done"


def _public_and_secret(lesson: str, answers: list[Json]) -> tuple[str, set[str], set[str]]:
    """What a spectator sees of the position (its view and log), the learner's own card ids, and
    every other card id (the others' hands and Reef cards, the decks)."""
    data = script(lesson)
    state = rules.new_game(GameOptions.from_dict(data["options"]), data["seed"])
    public_log: list[str] = []
    step = 0
    for move in data["moves"]:
        if "step" in move:
            if step == len(answers):
                break
            step += 1
        state, events = rules.apply(state, move["action"], move["seat"])
        public_log.extend(rules.describe(rules.event_for(e, None)) for e in events)
    public = json.dumps(rules.view_for(state, None)) + json.dumps(public_log)
    me = state.players[LEARNER]
    own = set(me.hand) | set(me.reefs) | set(me.treasures) | set(me.used)
    for d in state.pending:
        own |= set(d.get("cards", []))
    secret: set[str] = set()
    for p in state.players:
        if p.seat != LEARNER:
            secret |= set(p.hand) | set(p.reefs) | set(p.treasures)
    for cards in state.decks.values():
        secret |= set(cards)
    return public, own, secret - own


@pytest.mark.parametrize("lesson", list(LESSONS))
def test_no_position_shows_what_the_learner_may_not_see(client: TestClient, lesson: str) -> None:
    # at every step, every card id in the answer is public, or the learner's own.
    answers: list[Json] = []
    leaked: dict[int, set[str]] = {}
    for move in [*steps_of(lesson), None]:
        body = client.post(f"/api/learn/{lesson}/position", json={"answers": answers}).text
        public, own, secret = _public_and_secret(lesson, answers)
        shown = set(CARD_ID.findall(body))
        bad = {c for c in shown & secret if c not in public and c not in own}
        if bad:
            leaked[len(answers)] = bad
        view = json.loads(body)["view"]
        assert (
            all(p.get("hand") is None for p in view["players"] if p["seat"] != LEARNER)
            or view["over"]
        )
        if move is not None:
            answers.append(move["action"])
    assert leaked == {}


def test_the_rules_examples_are_the_engines(client: TestClient) -> None:
    r = client.get("/api/learn/examples")
    assert r.status_code == 200
    examples = {x["id"]: x for x in r.json()["examples"]}
    kinds = [x["kind"] for x in examples.values()]
    assert kinds.count("treasure") == 10 and kinds.count("bonus") == 8
    # Smaug's placement, as in the rulebook: red and green ships, 1 Gold, 2 Gold for the
    # Whirlpool, Haku and Mushu +1 each.
    data = script("smaug")
    before = rules.replay(
        GameOptions.from_dict(data["options"]),
        data["seed"],
        [(m["seat"], m["action"]) for m in data["moves"]],
    )
    o = preview.outcome(before, 2, data["example"])
    smaug = {f["label"]: f["value"] for f in examples["smaug"]["figures"]}
    assert smaug == {
        "ships taken": 2,
        "Gold from symbols": 1,
        "cost": 2,
        "Haku gets": 1,
        "Mushu gets": 1,
    }
    assert (o["ships"], o["gold"]["squares"], o["cost"]) == (2, 1, 2)
    assert sorted(o["ship_colours"]) == ["green", "red"]
    assert examples["smaug"]["marks"] == data["example"]["cells"]
    # The Starfish majority: 21 and 10 VP.
    star = {f["label"].split(" ")[0]: f["value"] for f in examples["starfish"]["figures"]}
    assert (star["Haku"], star["Smaug"], star["uncovered"]) == (21, 10, 7)
    # Every example is a spectator's view: no hand of a running game.
    for x in examples.values():
        if not x["view"]["over"]:
            assert all(p.get("hand") is None for p in x["view"]["players"]), x["id"]


def test_the_pages_link_to_learn(client: TestClient) -> None:
    assert client.get("/learn").status_code == 200
    for path in ("/", "/join/abc", "/rules"):
        assert 'href="/learn"' in client.get(path).text, path

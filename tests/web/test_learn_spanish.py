"""The tutorials and the rules page's examples in Spanish: every lesson text has its
translation, and /api/learn answers a Spanish reader in Spanish with the engine's figures in
it (the same numbers as in English)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.engine.content import expansion_content
from app.i18n.catalogs import translations
from app.main import create_app
from app.settings import Settings
from app.tutorial import session, words
from app.tutorial.lessons import LESSONS, NAMES, STEPS, script

Json = dict[str, Any]
ES = {"accept-language": "es"}
EN = {"accept-language": "en"}
NUMBER = re.compile(r"\d+")
# A text that is all places or figures reads the same in both languages.
ONLY_PLACES = re.compile(r"^[\s{}\w+]*$")


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    # One app for the module: the lessons and examples store nothing (module scope: the
    # examples are built once per language and process, as in production).
    tmp = tmp_path_factory.mktemp("learn_es")
    settings = Settings(
        database_url=f"sqlite:///{tmp / 'test.db'}", data_dir=tmp, secret_key="test-secret"
    )
    app = create_app(settings)
    with TestClient(app) as c:
        yield c
    app.state.engine.dispose()


def spanish(text: str) -> str:
    return translations("es").gettext(text)


def test_every_lesson_step_has_spanish_for_its_title_do_and_why() -> None:
    missing = [
        f"{kind}.{part}"
        for kind, step in STEPS.items()
        for part in ("title", "do", "why")
        if spanish(getattr(step, part)) == getattr(step, part)
    ]
    missing += [
        f"{lesson.id}.{part}"
        for lesson in LESSONS.values()
        for part in ("title", "intro", "done")
        if spanish(getattr(lesson, part)) == getattr(lesson, part)
        and not ONLY_PLACES.match(getattr(lesson, part))
    ]
    assert missing == []
    assert spanish(NAMES[0]) == "Tú"


def test_the_tutorials_words_are_translated_and_the_bonus_tiles_are_the_engines() -> None:
    for table in (words.DECK_NAMES, words.TREASURE_WORDS, words.TREASURE_NAMES, words.BONUS_WORDS):
        assert all(spanish(text) != text for text in table.values()), table
    # The Bonus tiles' English is the engine's content, word for word.
    tiles = expansion_content().bonus_tiles
    assert {k: t["text"] for k, t in tiles.items()} == words.BONUS_WORDS
    assert set(expansion_content().treasures.values()) <= set(words.TREASURE_WORDS)


def _steps(lesson: str) -> list[Json]:
    return [m["action"] for m in script(lesson)["moves"] if "step" in m]


def _numbers(text: str) -> list[str]:
    return sorted(NUMBER.findall(text))


@pytest.mark.parametrize("lesson", list(LESSONS))
def test_a_lessons_steps_come_back_in_spanish_with_the_engines_figures(
    client: TestClient, lesson: str
) -> None:
    actions = _steps(lesson)
    for n in range(len(actions) + 1):
        body = {"answers": actions[:n]}
        en = client.post(f"/api/learn/{lesson}/position", json=body, headers=EN).json()
        es = client.post(f"/api/learn/{lesson}/position", json=body, headers=ES).json()
        assert es["title"] != en["title"] and es["intro"] != en["intro"]
        assert es["names"] == ["Tú", *en["names"][1:]] and en["names"][0] == "You"
        # The position itself is the same: only the words change.
        assert es["view"] == en["view"] and es["target"] == en["target"]
        assert len(es["log"]) == len(en["log"])
        if en["log"]:
            assert es["log"][-1] != en["log"][-1]
        if en["done"]:
            assert es["done_text"] != en["done_text"]
            assert _numbers(es["done_text"]) == _numbers(en["done_text"])
            continue
        for part in ("title", "do", "why"):
            assert es["text"][part] != en["text"][part], (n, part)
            assert not re.search(r"\{\w+\}", es["text"][part]), es["text"][part]
            assert _numbers(es["text"][part]) == _numbers(en["text"][part]), (n, part)
        assert es["text"]["rulings"] == en["text"]["rulings"]
        assert [t["action"] for t in es["tries"]] == [t["action"] for t in en["tries"]]
        assert all(a["label"] != b["label"] for a, b in zip(es["tries"], en["tries"], strict=True))


def test_a_step_with_a_cost_says_the_engines_cost_in_spanish(client: TestClient) -> None:
    # the landing_gold step's cost and Gold held, as the engine counts them.
    moves = [m for m in script("base")["moves"] if "step" in m]
    n = next(i for i, m in enumerate(moves) if m["step"] == "landing_gold")
    body = {"answers": [m["action"] for m in moves[:n]]}
    es = client.post("/api/learn/base/position", json=body, headers=ES).json()
    facts = session.facts(session.position("base", body["answers"]))
    why = es["text"]["why"]
    assert f"este lugar cuesta {facts['cost']} y tienes {facts['gold_before']}" in why
    assert f"+{facts['gold_squares']} de Oro" in why


def test_refusals_and_the_ghosts_reason_are_in_spanish(client: TestClient) -> None:
    first = next(m for m in script("base")["moves"] if "step" in m)
    tried = first["tries"][0]["action"]
    en = client.post("/api/learn/base/explain", json={"action": tried}, headers=EN).json()
    es = client.post("/api/learn/base/explain", json={"action": tried}, headers=ES).json()
    assert es["reason"]["code"] == en["reason"]["code"]
    assert es["reason"]["text"] != en["reason"]["text"]
    # A legal move the step does not ask for: the lesson's reason, with the step's words.
    pos = client.post("/api/learn/base/position", json={}, headers=EN).json()
    other = next(
        a
        for a in pos["legal_actions"]
        if a["type"] == "place" and a["cells"] != first["action"]["cells"]
    )
    r = client.post("/api/learn/base/act", json={"action": other}, headers=ES)
    assert r.status_code == 422
    text = r.json()["error"]["reason"]["text"]
    assert text.startswith("Esa jugada es legal, pero esta lección pide otra: Elige la carta ")
    assert first["action"]["card"] in text


def test_the_rules_examples_come_back_in_spanish_with_the_same_figures(
    client: TestClient,
) -> None:
    en = {x["id"]: x for x in client.get("/api/learn/examples", headers=EN).json()["examples"]}
    es = {x["id"]: x for x in client.get("/api/learn/examples", headers=ES).json()["examples"]}
    assert list(es) == list(en)
    for key, x in en.items():
        y = es[key]
        assert y["title"] != x["title"] and y["text"] != x["text"], key
        assert _numbers(y["text"]) == _numbers(x["text"]), key
        assert y["view"] == x["view"] and y["marks"] == x["marks"]
        assert [f["value"] for f in y["figures"] if f["value"] != "no"] == [
            f["value"] for f in x["figures"] if f["value"] != "no"
        ]
        assert all(
            a["label"] != b["label"] for a, b in zip(y["figures"], x["figures"], strict=True)
        ), key
        assert y["names"] == ["Tú", "Haku", "Smaug", "Mushu"]
    # Smaug's placement (the rulebook's example, R-22/R-23/R-24) in Spanish.
    smaug = {f["label"]: f["value"] for f in es["smaug"]["figures"]}
    assert smaug == {
        "barcos tomados": 2,
        "Oro de los símbolos": 1,
        "coste": 2,
        "Haku recibe": 1,
        "Mushu recibe": 1,
    }
    assert "paga 2 de Oro por el Remolino" in es["smaug"]["text"]
    # The Starfish majority: 21 and 10 VP.
    assert "Haku: 4 Dragones" in es["starfish"]["text"] and "21 PV" in es["starfish"]["text"]

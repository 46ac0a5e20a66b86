"""A viewer's own log lines in their own grammar: "You placed" in English, "Colocaste" in
Spanish (never "Tú colocó", a second-person subject with a third-person verb), on the server
(`app.engine.events.render`, `app.i18n.log_lines.render_line`) and in the browser
(`static/js/lib/logline.mjs`), for every event type the engine logs."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from app.engine import GameOptions, apply, event_for, legal_actions, line, new_game, to_act
from app.engine.events import ENGLISH, MINE, PIECES, LineText
from app.engine.state import COLOURS
from app.i18n import translate, use_language
from app.i18n.log_lines import render_line
from app.tutorial import session
from app.tutorial.lessons import LEARNER, LESSONS, script
from tests.i18n.browser import browser_lines

ROOT = Path(__file__).resolve().parents[2]
SPANISH = json.loads((ROOT / "static/i18n/es.json").read_text(encoding="utf-8"))
# The Spanish log's verbs in the third person: a line about the viewer has none of them.
THIRD_PERSON = re.compile(
    r"\b(colocó|tomó|ganó|pagó|robó|cumplió|pasó|cobró|quedó|terminó|usó|jugó|retiró|colocará"
    r"|devolvió)\b"
)
COLOUR_NAMES = {
    language: tuple(words[f"colour.{c}"] for c in COLOURS)
    for language, words in (("en", ENGLISH), ("es", SPANISH))
}


def _events() -> list[dict]:
    """Every event of random games (base and expansion), as its own seat sees it."""
    out = []
    for seed in range(6):
        state = new_game(GameOptions(players=3 + seed % 3, expansion=seed % 2 == 1), seed)
        rng = random.Random(seed)
        while (seat := to_act(state)) is not None:
            state, events = apply(state, rng.choice(legal_actions(state, seat)), seat)
            out.extend(event_for(e, e.get("seat")) for e in events)
    return out


@pytest.fixture(scope="module")
def events() -> list[dict]:
    return _events()


def test_the_corpus_has_most_event_types(events) -> None:
    # So the checks below see each type's own form, not only placements.
    seen = {e["type"] for e in events}
    assert {"placed", "drew", "turn_started", "turn_ended", "passed", "tail_advanced"} <= seen
    assert len(seen) >= len(PIECES) // 2


def test_every_clause_about_a_player_has_its_own_form_in_both_catalogues() -> None:
    english = json.loads((ROOT / "static/i18n/en.json").read_text(encoding="utf-8"))
    about = [key for key, text in ENGLISH.items() if "{who}" in text or "{neighbour}" in text]
    assert len(about) >= 20
    assert [key for key in about if key + MINE not in ENGLISH] == []
    for key in (k for k in ENGLISH if k.endswith(MINE)):
        assert key in english and key in SPANISH, key
        assert SPANISH[key] != SPANISH[key.removesuffix(MINE)], key


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_viewers_own_lines_never_name_their_colour(events, language) -> None:
    """Types placed, drew, mission, passed, cashed, reef_kept, turn_ended, turn_started,
    tail_advanced, tail_blocked, treasure_kept, treasure_used, reef_played,
    ancestral_declared, taken_back: the viewer's own line reads in the second person."""
    checked = set()
    for event in events:
        seat = event.get("seat")
        pieces = line(event)
        if not isinstance(seat, int) or pieces[0][1].get("who") != seat:
            continue
        own = render_line(pieces, language, me=seat)
        subject = render_line(pieces[:1], language, me=seat)
        assert COLOUR_NAMES[language][seat] not in subject, (event["type"], own)
        if language == "es":
            assert not THIRD_PERSON.search(own), (event["type"], own)
            assert not own.startswith("Tú "), own
        else:
            assert own.startswith(("You ", "Your ")), (event["type"], own)
        # Another viewer reads the same event in the third person, with the colour.
        assert COLOUR_NAMES[language][seat] in render_line(pieces, language, me=seat + 1)
        checked.add(event["type"])
    assert {"placed", "drew", "passed", "turn_started", "turn_ended", "tail_advanced"} <= checked


def test_placed_reads_for_the_placer_a_neighbour_and_a_spectator() -> None:
    """Type placed: the placer's clauses are theirs; a neighbour's Gold is the neighbour's."""
    pieces = [
        ["log.placed", {"who": 0, "card": "S16", "squares": 4}],
        ["log.placed.ship", {"ships": ["red"]}],
        ["log.placed.cost", {"cost": 1}],
        ["log.placed.neighbour_gold", {"neighbour": 1, "gold": 1}],
    ]
    es, en = (lambda me: render_line(pieces, "es", me)), (lambda me: render_line(pieces, "en", me))
    assert (
        es(0)
        == "Colocaste S16 (4 casillas), tomaste un barco rojo, pagaste 1 de Oro; Verde +1 de Oro"
    )
    assert en(0) == "You placed S16 (4 squares), took red ship, paid 1 Gold; Green +1 Gold"
    assert (
        es(1)
        == "Naranja colocó S16 (4 casillas), tomó un barco rojo, pagó 1 de Oro; tú ganaste 1 de Oro"
    )
    assert en(1) == "Orange placed S16 (4 squares), took red ship, paid 1 Gold; you gained 1 Gold"
    assert (
        es(None)
        == es(2)
        == ("Naranja colocó S16 (4 casillas), tomó un barco rojo, pagó 1 de Oro; Verde +1 de Oro")
    )


def test_tail_advanced_and_turn_started_for_the_viewer() -> None:
    """Types tail_advanced, turn_started: "Your red tail", "Your turn"."""
    tail = [["log.tail_advanced", {"who": 2, "track": "red", "space": 3}]]
    assert render_line(tail, "en", me=2) == "Your red tail advanced to space 3"
    assert render_line(tail, "es", me=2) == "Tu cola roja avanzó a la casilla 3"
    turn = [["log.turn_started", {"who": 2}]]
    assert render_line(turn, "es", me=2) == "Tu turno"
    assert render_line(turn, "es", me=0) == "Le toca a Morado"


def test_a_line_text_keeps_its_viewer_where_it_is_translated() -> None:
    """Type mission, worded where it is shown (app.i18n.translate), pickled to a worker too."""
    import pickle

    text = LineText([["log.mission", {"who": 1, "mission": "MS04", "vp": 5}]], me=1)
    assert text == "You completed MS04 for 5 VP"
    again = pickle.loads(pickle.dumps(text))
    with use_language("es"):
        assert translate(again) == "Cumpliste MS04 por 5 PV"
        assert translate(LineText(text.pieces)) == "Verde cumplió MS04 por 5 PV"


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_tutorials_log_speaks_to_the_learner(language) -> None:
    """The learner's seat is "You" / "Tú" in the lesson's names: their own lines are worded in
    the second person on the server, so the page's name for the colour never makes "Tú colocó"."""
    learner_colour = COLOUR_NAMES[language][LEARNER]
    own = {"en": "You placed ", "es": "Colocaste "}[language]
    for lesson in LESSONS:
        answers = [m["action"] for m in script(lesson)["moves"] if "step" in m]
        with use_language(language):
            log = [translate(text) for text in session.position(lesson, answers).log]
        assert not [t for t in log if t.startswith(learner_colour)], (lesson, log)
        if language == "es":
            assert not [t for t in log if THIRD_PERSON.search(t) and "Tú" in t], log
        if any(t.startswith(own) for t in log):
            return
    pytest.fail("no lesson logs a placement of the learner's")


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_browser_words_a_viewers_lines_as_the_server(events, language, tmp_path) -> None:
    sample = [
        (line(e), me)
        for e in events[:: max(1, len(events) // 1500)]
        for me in (e.get("seat"), 0, None)
    ]
    browser = browser_lines(sample, language, tmp_path)
    server = [render_line(pieces, language, me=me) for pieces, me in sample]
    assert browser == server
    assert any(a != b for a, b in zip(server[::3], server[2::3], strict=True))  # viewers differ

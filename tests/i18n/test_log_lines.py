"""Log lines: one wording per language, the same on the server and in the browser."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from app.engine import (
    GameOptions,
    apply,
    describe,
    event_for,
    legal_actions,
    line,
    new_game,
    to_act,
)
from app.engine.events import ENGLISH, PIECES
from app.i18n.log_lines import render_line
from tests.i18n.browser import browser_lines

ROOT = Path(__file__).resolve().parents[2]


def _corpus(games: int = 6) -> list[list[list]]:
    """The lines of random games, as every viewer sees them (secrets filtered, R-60)."""
    lines = []
    for seed in range(games):
        state = new_game(GameOptions(players=3 + seed % 3, expansion=seed % 2 == 1), seed)
        rng = random.Random(seed)
        while (seat := to_act(state)) is not None:
            state, events = apply(state, rng.choice(legal_actions(state, seat)), seat)
            for event in events:
                for viewer in (None, 0, 1):
                    lines.append(line(event_for(event, viewer)))
    return lines


@pytest.fixture(scope="module")
def corpus() -> list[list[list]]:
    return _corpus()


def test_the_english_client_catalogue_words_the_log_as_the_engine_does() -> None:
    english = json.loads((ROOT / "static/i18n/en.json").read_text(encoding="utf-8"))
    assert {key: english.get(key) for key in ENGLISH} == ENGLISH


def test_every_event_kind_appears_in_the_corpus(corpus) -> None:
    # So the comparison below covers each kind's wording, not only the common ones.
    seen = {pieces[0][0] for pieces in corpus}
    kinds_with_lines = {"log.placed", "log.drew_from_deck", "log.turn_ended", "log.passed"}
    assert kinds_with_lines <= seen
    assert len(seen) >= len(PIECES) // 2


def test_english_rendering_is_describe(corpus) -> None:
    state = new_game(GameOptions(players=3, expansion=True), 3)
    rng = random.Random(3)
    for _ in range(60):
        seat = to_act(state)
        state, events = apply(state, rng.choice(legal_actions(state, seat)), seat)
        for event in events:
            assert render_line(line(event), "en") == describe(event)


def test_spanish_lines_are_spanish(corpus) -> None:
    placed = next(p for p in corpus if p[0][0] == "log.placed")
    assert render_line(placed, "es") != render_line(placed, "en")
    assert "colocó" in render_line(placed, "es")


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_browser_words_every_line_as_the_server(corpus, language, tmp_path) -> None:
    sample = corpus[:: max(1, len(corpus) // 3000)]
    browser = browser_lines([(pieces, None) for pieces in sample], language, tmp_path)
    server = [render_line(pieces, language) for pieces in sample]
    assert browser == server

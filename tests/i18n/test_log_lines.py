"""Log lines: one wording per language, the same on the server and in the browser."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
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

ROOT = Path(__file__).resolve().parents[2]
RENDER_JS = """
globalThis.document = { documentElement: { lang: process.argv[2] } };
const { renderLine } = await import(process.argv[3]);
const { readFile } = await import("node:fs/promises");
const corpus = JSON.parse(await readFile(process.argv[4], "utf8"));
process.stdout.write(JSON.stringify(corpus.map(renderLine)));
"""


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
    node = shutil.which("node")
    if node is None:
        if os.environ.get("SEADRAGONS_REQUIRE_SERVICES") == "1":
            pytest.fail("node is required (SEADRAGONS_REQUIRE_SERVICES=1) but is not installed")
        pytest.skip("node is not installed: the browser's renderer cannot run")
    sample = corpus[:: max(1, len(corpus) // 3000)]
    data = tmp_path / "corpus.json"
    data.write_text(json.dumps(sample))
    script = tmp_path / "render.mjs"
    script.write_text(RENDER_JS)
    module = (ROOT / "static/js/lib/logline.mjs").as_uri()
    out = subprocess.run(
        [node, str(script), language, module, str(data)],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    browser = json.loads(out.stdout)
    server = [render_line(pieces, language) for pieces in sample]
    assert browser == server

"""Watch summaries without a server: the size of a game's update at its largest (pinned under
2 KB), R-60 (only the spectator's view goes in), and the browser's unpacker (node) giving back
exactly the view's board the server packed."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

import app.engine as rules
from app.services.watching import spectator_delay as sd
from app.services.watching import watch

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 2048  # bytes per game update on the watch channel (docs/protocol.md)


def positions(players: int, expansion: bool, seed: int) -> list[Any]:
    """Every state of a random game (placements preferred, so the board fills up)."""
    rng = random.Random(seed)
    state = rules.new_game(rules.GameOptions(players=players, expansion=expansion), seed)
    out = [state]
    while not state.over:
        seat = rules.to_act(state)
        acts = rules.legal_actions(state, seat)
        places = [a for a in acts if a["type"] == "place"]
        state, _ = rules.apply(state, rng.choice(places or acts), seat)
        out.append(state)
    return out


def widest(game: watch.LiveGame, position: dict[str, Any]) -> dict[str, Any]:
    """A summary with the longest names and every field set, as large as one can get."""
    seats = [
        {"name": "W" * 24, "user": "u" * 24, "bot": None, "rating": 1999}
        for _ in range(game.players)
    ]
    return watch.summary_of(game, 10**6, seats, 10**5, position)


@pytest.mark.parametrize(("players", "expansion"), [(5, True), (5, False), (2, False)])
def test_a_game_update_stays_under_2_kb_at_its_largest(players: int, expansion: bool) -> None:
    options = {"players": players, "expansion": expansion, "spectator_delay": {"seconds": 600}}
    game = watch.LiveGame(1, 0, options, players, True, "live", 1, None)
    largest = 0
    for seed in (1, 2, 3):
        for state in positions(players, expansion, seed):
            text = json.dumps(widest(game, watch.position_of(state)), separators=(",", ":"))
            largest = max(largest, len(text.encode()))
    assert largest < LIMIT, largest
    # The packing is what keeps it there: the view's own board alone is far larger.
    final = positions(players, expansion, 1)[-1]
    assert len(json.dumps(rules.view_for(final, None)["board"]).encode()) > largest


def test_a_position_holds_nothing_the_spectator_view_does_not() -> None:
    """R-60: hands, Reef cards, treasures and drawn cards never reach a summary."""
    for state in positions(4, True, 7)[::5]:
        text = json.dumps(watch.position_of(state))
        secret = set()
        for p in state.players:
            secret.update(p.hand)
            secret.update(p.reefs)
            secret.update(p.treasures)
        for d in state.pending:
            secret.update(d.get("cards", []))
        assert not any(f'"{c}"' in text for c in secret)
        view = rules.view_for(state, None)
        assert json.loads(text)["gold"] == [p["gold"] for p in view["players"]]


def test_the_browser_unpacks_exactly_the_board_the_server_packed(tmp_path: Path) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    states = positions(5, True, 4)[::7]
    boards = [rules.view_for(s, None)["board"] for s in states]
    (tmp_path / "packed.json").write_text(json.dumps([watch.pack_board(b) for b in boards]))
    script = (
        f"import {{ unpackBoard }} from '{ROOT / 'static/js/lib/watchboard.mjs'}';"
        "import { readFileSync } from 'node:fs';"
        f"const packed = JSON.parse(readFileSync('{tmp_path / 'packed.json'}', 'utf8'));"
        "console.log(JSON.stringify(packed.map(unpackBoard)));"
    )
    out = subprocess.run(
        [node, "--input-type=module", "-e", script], capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    for got, board in zip(json.loads(out.stdout), boards, strict=True):
        assert got["rows"] == board["rows"]
        assert got["ships"] == board["ships"]
        want = [
            {
                "owner": d["owner"],
                "ancestral": d["ancestral"],
                "head": d["head"],
                "cells": d["cells"],
            }
            for d in board["dragons"]
        ]
        assert got["dragons"] == want
    assert any(b["dragons"] for b in boards) and any(b["ships"] for b in boards)


@pytest.mark.parametrize(
    ("moves", "seconds", "version", "hidden", "now", "seen"),
    [
        (2, 0, 5, [], 100.0, 3),
        (2, 0, 1, [], 100.0, 0),  # never below the deal
        (0, 10, 5, [(4, 95.0), (5, 99.0)], 100.0, 3),  # moves 4 and 5 are under 10 s old
        (0, 10, 5, [(4, 80.0), (5, 99.0)], 100.0, 4),
        (0, 10, 5, [], 100.0, 5),
        (2, 10, 5, [(5, 99.0)], 100.0, 3),  # both: the stricter wins
    ],
)
def test_visible_version(
    moves: int,
    seconds: int,
    version: int,
    hidden: list[tuple[int, float]],
    now: float,
    seen: int,
) -> None:
    policy = sd.DelayPolicy(moves=moves, seconds=seconds)
    assert sd.visible_version(policy, "live", version, hidden, now) == seen
    # Finished (or undelayed) games are shown as they are.
    assert sd.visible_version(policy, "finished", version, hidden, now) == version
    assert sd.visible_version(None, "live", version, hidden, now) == version

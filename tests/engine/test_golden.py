"""Golden playthroughs: every action of a fixed-seed game and a summary of the state after it.

Regenerate after an intended rules change with SEADRAGONS_UPDATE_GOLDEN=1 and review the diff.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from app.engine import GameOptions, apply, legal_actions, new_game, state_to_json, to_act

GOLDEN = Path(__file__).parent / "golden"


def _summary(s) -> dict:
    return {
        "turn": [s.turn.seat, s.turn.phase, s.turn.number],
        "gold": [p.gold for p in s.players],
        "heads": [p.heads for p in s.players],
        "ships": [sum(p.ships.values()) for p in s.players],
        "hands": [p.hand for p in s.players],
        "reefs": [p.reefs for p in s.players],
        "missions": [p.missions for p in s.players],
        "tails": [p.tails for p in s.players],
        "treasures": [p.treasures for p in s.players],
        "market": s.market,
        "pending": s.pending,
        "legal": len(legal_actions(s, to_act(s))),
    }


def playthrough(options: GameOptions, seed: int) -> list[str]:
    """The golden lines of one game played by a seeded random policy."""
    rng = random.Random(seed)
    s = new_game(options, seed)
    lines = [json.dumps({"setup": _summary(s)}, sort_keys=True)]
    while not s.over:
        seat = to_act(s)
        action = rng.choice(legal_actions(s, seat))
        s, events = apply(s, action, seat)
        lines.append(
            json.dumps(
                {
                    "seat": seat,
                    "action": action,
                    "events": [e["type"] for e in events],
                    "after": _summary(s),
                },
                sort_keys=True,
            )
        )
    lines.append(json.dumps({"final": state_to_json(s)}, sort_keys=True))
    return lines


CASES = {
    "base_2p_seed2026": (GameOptions(players=2), 2026),
    "base_4p_seed7": (GameOptions(players=4), 7),
    "expansion_3p_seed11": (GameOptions(players=3, expansion=True), 11),
    "expansion_5p_seed5": (GameOptions(players=5, expansion=True), 5),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_playthrough(name):
    options, seed = CASES[name]
    lines = playthrough(options, seed)
    path = GOLDEN / f"{name}.jsonl"
    if os.environ.get("SEADRAGONS_UPDATE_GOLDEN") == "1" or not path.exists():
        if os.environ.get("CI"):
            pytest.fail(f"golden file {path.name} is missing")
        path.write_text("\n".join(lines) + "\n")
    expected = path.read_text().splitlines()
    for i, (got, want) in enumerate(zip(lines, expected, strict=False)):
        assert got == want, f"{name}: step {i} differs"
    assert len(lines) == len(expected)

"""Moves the expert chose on fixed seeds: pins its decisions across refactors of app/bots."""

from __future__ import annotations

import hashlib
import json
import random

from app.bots import ExpertBot
from app.engine import GameOptions, apply, legal_actions, new_game, to_act, view_for

CASES = ((2, False, 11), (3, True, 12))
MOVES = 30


def expert_moves_digest() -> str:
    """A digest of the first moves of seeded expert games (rounds capped: reproducible)."""
    out = []
    for players, expansion, seed in CASES:
        state = new_game(GameOptions(players=players, expansion=expansion), seed)
        rng = random.Random(seed)
        bots = [
            ExpertBot(random.Random(rng.random()), budget_s=1e9, rounds=2) for _ in range(players)
        ]
        for _ in range(MOVES):
            seat = to_act(state)
            action = bots[seat].choose(view_for(state, seat), legal_actions(state, seat))
            out.append([seat, action])
            state, _ = apply(state, action, seat)
    return hashlib.sha256(json.dumps(out, sort_keys=True).encode()).hexdigest()


if __name__ == "__main__":
    print(expert_moves_digest())

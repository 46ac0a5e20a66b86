"""Bot populations for the rating benchmarks: instances of known strength playing rated games.

Each instance is a player with its own rating, updated by app/services/ratings/model.py exactly
as the server updates people; a game seats distinct instances drawn at random. The expert's
search is capped by rounds (reproducible from the seed, and cheap enough for a shared machine).
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.bots import make_bot
from app.engine import GameOptions, final_scores
from app.services.ratings import model as rm
from app.simulate import play_out

STRENGTH = {"random": 0, "greedy": 1, "expert": 2}  # the true order


@dataclass
class Member:
    name: str
    level: str
    skill: rm.Skill = rm.NEW
    games: int = 0


def population(counts: dict[str, int]) -> list[Member]:
    return [Member(f"{level}{i}", level) for level, n in counts.items() for i in range(n)]


# Called after every game: (game number, the seated members, the prediction before, places).
Watcher = Callable[[int, list[Member], list[dict[str, float]], list[int]], None]


def play_rated(
    members: list[Member],
    games: int,
    players: int,
    seed: int,
    *,
    expert_rounds: int = 2,
    watch: Watcher | None = None,
) -> dict[str, Any]:
    """Play `games` rated games of `players` seats; every member's skill moves as a person's."""
    rng = random.Random(seed)
    for number in range(1, games + 1):
        # The least-played members first, so everyone plays about as often.
        rng.shuffle(members)
        seated = sorted(members, key=lambda m: m.games)[:players]
        rng.shuffle(seated)
        bots = [
            make_bot(m.level, random.Random(rng.random()), budget_s=5.0, rounds=expert_rounds)
            for m in seated
        ]
        state, _ = play_out(GameOptions(players=players), rng.getrandbits(32), bots)
        places = rm.placings(final_scores(state), [False] * players)
        before = rm.predict([m.skill for m in seated])
        for m, new in zip(seated, rm.rate([m.skill for m in seated], places), strict=True):
            m.skill = new
            m.games += 1
        if watch is not None:
            watch(number, seated, before, places)
    return {"games": games, "players": players}

"""Bots: players that choose among `engine.legal_actions`, seeing only `view_for(state, seat)`.

bot = make_bot(level, rng)            # level in LEVELS (or a benchmark level, BENCH_LEVELS)
action = bot.choose(view, legal)      # one element of `legal`, accepted by engine.apply

LEVELS are what players may seat; BENCH_LEVELS are kept for benchmarks and tests only: the
baseline expert ("expert_v1", today's expert as it was) and the learned expert under its own
name ("expert_learned"), so each can be measured against the other in the same run.
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from .expert import DEFAULT_BUDGET_S, ExpertBot
from .expert_learned import LearnedExpertBot
from .greedy import GreedyBot

LEVELS = ("random", "greedy", "expert")
BENCH_LEVELS = ("expert_v1", "expert_learned")

Json = dict[str, Any]


class Bot(Protocol):
    """A player: given its view and the legal actions, returns one of them."""

    level: str

    def choose(self, view: Json, legal: list[Json]) -> Json:
        """Pick one element of `legal`."""
        ...


class RandomBot:
    """A uniformly random legal action."""

    level = "random"
    needs_view = False  # it never reads the view, so game loops may skip building one

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: Json, legal: list[Json]) -> Json:
        """Pick one element of `legal` uniformly at random."""
        return self.rng.choice(legal)


def make_bot(
    level: str, rng: random.Random, budget_s: float | None = None, rounds: int | None = None
) -> Bot:
    """A bot of the given level; `budget_s` (and optionally `rounds`) bound the expert's search."""
    if level == "random":
        return RandomBot(rng)
    if level == "greedy":
        return GreedyBot(rng)
    budget = DEFAULT_BUDGET_S if budget_s is None else budget_s
    if level == "expert":
        return ExpertBot(rng, budget, rounds)
    if level == "expert_v1":
        bot = ExpertBot(rng, budget, rounds)
        bot.level = "expert_v1"
        return bot
    if level == "expert_learned":
        learned = LearnedExpertBot(rng, budget, rounds)
        learned.level = "expert_learned"
        return learned
    raise ValueError(f"unknown bot level {level!r}: choose one of {', '.join(LEVELS)}")


__all__ = [
    "BENCH_LEVELS",
    "LEVELS",
    "Bot",
    "ExpertBot",
    "GreedyBot",
    "LearnedExpertBot",
    "RandomBot",
    "make_bot",
]

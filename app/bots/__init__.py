"""Bots: players that choose among `engine.legal_actions`, seeing only `view_for(state, seat)`.

bot = make_bot(level, rng)            # level in LEVELS
action = bot.choose(view, legal)      # one element of `legal`, accepted by engine.apply
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from .expert import DEFAULT_BUDGET_S, ExpertBot
from .greedy import GreedyBot

LEVELS = ("random", "greedy", "expert")

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
    if level == "expert":
        return ExpertBot(rng, DEFAULT_BUDGET_S if budget_s is None else budget_s, rounds)
    raise ValueError(f"unknown bot level {level!r}: choose one of {', '.join(LEVELS)}")


__all__ = ["LEVELS", "Bot", "ExpertBot", "GreedyBot", "RandomBot", "make_bot"]

"""The bots' fixed ratings in rated games: (mu, sigma) per level, measured by
bench/rating_anchors.py on a bot population (4 random, 4 greedy, 2 expert instances, 3-player
games, 30 games each, expert capped at 2 rounds; its output: docs/benchmarks.md, "Ratings").
A bot's rating never changes: it is a fixed point people's ratings are measured against.
Greedy beats random in every game, so that gap is what 30 games show, not a limit.
"""

from __future__ import annotations

ANCHORS: dict[str, tuple[float, float]] = {
    "random": (6.64, 4.97),
    "greedy": (34.94, 4.88),
    "expert": (42.59, 4.99),
}

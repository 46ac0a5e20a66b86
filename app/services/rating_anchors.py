"""The bots' fixed ratings in rated games: (mu, sigma) per level, measured by
bench/rating_anchors.py on bot populations (the command and its output: docs/benchmarks.md).
A bot's rating never changes: it is a fixed point people's ratings are measured against.
"""

from __future__ import annotations

ANCHORS: dict[str, tuple[float, float]] = {
    "random": (15.0, 1.0),
    "greedy": (30.0, 1.0),
    "expert": (33.0, 1.0),
}

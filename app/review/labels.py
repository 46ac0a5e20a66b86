"""Labels of a decision by the drop in winning chance, and a player's accuracy (as lichess does).

The drop is in percentage points: the best move's estimated winning chance minus the played
move's, never below 0. The thresholds are settings (`SEADRAGONS_REVIEW_*_POINTS`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

INACCURACY = "inaccuracy"
MISTAKE = "mistake"
BLUNDER = "blunder"
LABELS = (INACCURACY, MISTAKE, BLUNDER)


@dataclass(frozen=True)
class Thresholds:
    """Drops (percentage points of winning chance) from which a move gets each label."""

    inaccuracy: float = 5.0
    mistake: float = 10.0
    blunder: float = 15.0

    def __post_init__(self) -> None:
        if not 0 < self.inaccuracy <= self.mistake <= self.blunder:
            raise ValueError("thresholds must satisfy 0 < inaccuracy <= mistake <= blunder")


def label(drop: float, thresholds: Thresholds) -> str | None:
    """The label of a move that lost `drop` points of winning chance (None: a good move)."""
    if drop >= thresholds.blunder:
        return BLUNDER
    if drop >= thresholds.mistake:
        return MISTAKE
    if drop >= thresholds.inaccuracy:
        return INACCURACY
    return None


def move_accuracy(drop: float) -> float:
    """Accuracy of one move in percent: 100 for no drop, falling off exponentially (lichess)."""
    raw = 103.1668 * math.exp(-0.04354 * max(drop, 0.0)) - 3.1669
    return min(100.0, max(0.0, raw))


def accuracy(drops: list[float]) -> float | None:
    """A player's accuracy for the game: the mean of its moves' accuracies (None: no decision)."""
    if not drops:
        return None
    return sum(move_accuracy(d) for d in drops) / len(drops)

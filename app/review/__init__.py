"""Game review: the expert's evaluation of every decision of a finished game.

    record = GameRecord(game_id, options, seed, moves)      # moves: [(seat, action), ...]
    analysis = analyse_game(record, ReviewSettings(rounds=6))   # JSON, as GET .../analysis serves

Each decision is judged from the deciding seat's view only (`view_for`), with the expert's
determinised rollouts (docs/review.md).
"""

from __future__ import annotations

from .game import FORMAT, GameRecord, NotFinished, ReviewSettings, analyse_game, decision_seed
from .labels import Thresholds

__all__ = [
    "FORMAT",
    "GameRecord",
    "NotFinished",
    "ReviewSettings",
    "Thresholds",
    "analyse_game",
    "decision_seed",
]

"""What a committed move sets off inside its own transaction, registered at start-up.

The play service knows nothing of ratings or reviews: the app's context registers their jobs
here (app/context.py), and the one road runs them in the finishing move's transaction, so a
finished game has its results and its review queued exactly once, or not at all.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy.orm import Session

FinishEffect = Callable[[Session, int], None]  # (the move's session, the game's id)


class MoveEffects:
    """The effects of a game's last move, in the order they were registered."""

    def __init__(self) -> None:
        self._on_finish: list[tuple[str, FinishEffect]] = []

    def on_finish(self, name: str, effect: FinishEffect) -> None:
        """Run `effect` in the transaction of every move that ends a game."""
        if any(n == name for n, _ in self._on_finish):
            raise ValueError(f"an effect named {name!r} is registered already")
        self._on_finish.append((name, effect))

    @property
    def names(self) -> tuple[str, ...]:
        """The registered effects' names (docs and tests)."""
        return tuple(n for n, _ in self._on_finish)

    def finished(self, db: Session, game_id: int) -> None:
        """The game ended with this transaction's move: set off every registered effect."""
        for _name, effect in self._on_finish:
            effect(db, game_id)

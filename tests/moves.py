"""Moves in service tests: through the one road, in the test's own session."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from app.context import road_for
from app.db.session import make_sessionmaker
from app.shared.moves import Committed, Known, MoveCommand
from app.shared.notify import Notifier


def road_of(db: Session, notifier: Notifier | None = None) -> Any:
    """The app's road (its finish effects included) on the test's database."""
    return road_for(make_sessionmaker(db.get_bind()), notifier)  # type: ignore[arg-type]


def play(
    db: Session,
    game_id: int,
    user_id: int,
    version: int,
    action: Any,
    *,
    notifier: Notifier | None = None,
    known: Known | None = None,
    back: bool = False,
) -> Committed:
    """A person's move (their seat), committed in `db`."""
    command = MoveCommand(game_id, version, action, user_id=user_id, known=known, back=back)
    return road_of(db, notifier).commit_in(db, command)


def play_seat(
    db: Session,
    game_id: int,
    seat: int,
    version: int,
    action: Any,
    *,
    notifier: Notifier | None = None,
    known: Known | None = None,
) -> Committed:
    """A move of a seat the server plays (no user check), committed in `db`."""
    command = MoveCommand(game_id, version, action, seat=seat, known=known)
    return road_of(db, notifier).commit_in(db, command)

"""A table made and dealt in one go, for the quick-match pools (app/services/matching).

Unlike a lobby table, nobody joins it seat by seat: every person (and any bots) is seated and
the game dealt in the caller's transaction, so it is never seen half-made. Nothing is committed
here; the caller commits, then puts the state in the cache and tells the listeners (`announce`).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

from sqlalchemy.orm import Session

from app.db.models.accounts import User
from app.db.models.games import Game, Seat
from app.services.tables import clocks, lobby
from app.shared.clock import now_in
from app.shared.errors import ServiceError
from app.shared.notify import Notifier, notify
from app.shared.state_cache import states_of


def seat_and_deal(
    db: Session,
    people: Sequence[User],
    *,
    players: int,
    expansion: bool,
    clock: dict[str, Any] | None,
    rated: bool,
    bot_level: str | None = None,
    max_clock_seconds: int = 30 * 86400,
) -> tuple[Game, Any]:
    """A public table of `players` seats: `people` in the first seats (the first one hosts),
    bots of `bot_level` in the others, dealt and live; returns the game and its first state.

    Refuses (`invalid_options`) a table with more people than seats, with empty seats and no
    bot level, or rated with a guest or a bot at it.
    """
    if not people or len(people) > players:
        raise ServiceError("invalid_options", "a quick table seats 1 to `players` people")
    if len(people) < players and bot_level is None:
        raise ServiceError("invalid_options", "empty seats need a bot level")
    if rated and (len(people) < players or any(u.is_guest for u in people)):
        raise ServiceError("invalid_options", "a rated table seats accounts only")
    options = lobby.game_options(players, expansion, {})
    now = now_in(db)
    game = Game(
        host_id=people[0].id,
        status="open",
        visibility="public",
        invite_code=secrets.token_urlsafe(9),
        players=players,
        options=options,
        version=0,
        clock=clocks.new_clock(clock, max_clock_seconds),
        rated=rated,
    )
    game.seats = [Seat(seat=i) for i in range(players)]
    for seat in game.seats:
        seat.joined_at = now
        if seat.seat < len(people):
            seat.user = people[seat.seat]
            seat.user_id = people[seat.seat].id
        else:
            seat.bot_level = bot_level
    db.add(game)
    db.flush()  # the game's id, for the first turn's notice
    state = lobby.deal(db, game)
    return game, state


def announce(db: Session, game: Game, state: Any, notifier: Notifier | None) -> None:
    """After the commit: the first state into the cache, and the listeners told (the rooms,
    and the bot runner, which plays a bot's first turn)."""
    states_of(db).put(game.id, 0, state)
    notify(notifier, game.id, game.version)

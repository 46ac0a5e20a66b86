"""Extra time on request (WCAG 2.2.1): the person whose turn it is asks once per turn for the
table's `extension`, which moves the running turn's deadline on without a move (clocks.py says
what a clock is)."""

from __future__ import annotations

import copy
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from app.db.models.games import Game
from app.i18n import t_
from app.services.tables.clocks import due_of, public
from app.shared.errors import ServiceError


def extend(db: Session, game_id: int, user_id: int, now: datetime) -> dict[str, Any]:
    """Give the turn's player the table's extra time (once per turn); commits and returns the
    clock as everyone sees it (`public`).

    Only the person whose turn it is may ask (`not_seated`, `not_your_turn`, `seat_has_bot`
    while a bot plays the seat), at a table whose clock offers it (`no_extension`), once per
    turn (`already_extended`) and before the turn's time ran out (`time_is_up`: the deadline
    sweep may already have handed the turn to a bot). The game row is locked as a move or a
    timeout claim locks it, so an extension and a claim of the same turn never both happen.
    """
    game = db.scalar(
        select(Game)
        .where(Game.id == game_id)
        .options(selectinload(Game.seats))
        .with_for_update(of=Game)
        .execution_options(populate_existing=True)
    )

    def refuse(code: str, message: str) -> ServiceError:  # message: a t_ text
        db.rollback()  # nothing changed; the row's lock ends here
        return ServiceError(code, message)

    if game is None:
        raise refuse("not_found", t_("there is no game {game_id}", game_id=game_id))
    if game.status != "live":
        if game.status == "finished":
            raise refuse("game_over", t_("game {game_id} is over", game_id=game_id))
        raise refuse("not_started", t_("game {id} has not started", id=game_id))
    c = game.clock
    if c is None or not c.get("extension"):
        raise refuse("no_extension", t_("this table's clock gives no extra time"))
    mine = next((s for s in game.seats if s.user_id == user_id), None)
    if mine is None:
        raise refuse("not_seated", t_("only a player of this game may ask for more time"))
    if c.get("seat") != mine.seat or game.to_act != mine.seat or c.get("deadline") is None:
        raise refuse("not_your_turn", t_("only the player whose turn it is may ask for more time"))
    if mine.bot_level is not None:
        raise refuse("seat_has_bot", t_("a bot plays your seat now"))
    if c.get("extended") is not None and c["extended"] == c.get("turn"):
        raise refuse("already_extended", t_("this turn already had its extra time"))
    deadline = datetime.fromisoformat(c["deadline"])
    if c.get("autoplay") is not None or deadline <= now:
        raise refuse("time_is_up", t_("this turn's time has run out"))
    new = copy.deepcopy(c)
    later = deadline + timedelta(seconds=c["extension"])
    new.update(deadline=later.isoformat(), extended=c["turn"])
    game.clock = new
    game.due_at = due_of(new, later)
    db.commit()
    return public(new)

"""The spectator delay for the live core: what its delayed rooms read (the SQL side of
app/realtime/delayed_rooms.py; the decision is app/services/watching/spectator_delay.py's)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from sqlalchemy import select

import app.engine as rules
from app.db.models.games import Game, Move, Seat
from app.i18n import t_
from app.services.live.store import MAX_LOG_MOVES
from app.services.watching.spectator_delay import policy_of, spectator_version_of, state_at
from app.shared.errors import ServiceError
from app.shared.snapshots import GameSnap, Mark, MoveInfo


def has_delay(sessions: Any, game_id: int) -> bool:
    """Whether the game's spectators see it delayed (set when the table is created, for ever)."""
    with sessions() as db:
        return policy_of(db.scalar(select(Game.options).where(Game.id == game_id))) is not None


def is_seated(sessions: Any, game_id: int, user_id: int) -> bool:
    """Whether `user_id` holds a seat in the game (a player is never delayed)."""
    with sessions() as db:
        seat = db.scalar(select(Seat.seat).where(Seat.game_id == game_id, Seat.user_id == user_id))
        return seat is not None


def load_delayed(sessions: Any, inner: Any, game_id: int, since: int | None) -> GameSnap:
    """The game as its spectators may see it now (`inner`: the live core's store): the state,
    turn and log moves of the visible version; no turn clock while it is held back."""
    snap = inner.load_game(game_id, None)
    if snap.state is None or snap.status != "live":
        return inner.load_game(game_id, since) if since is not None else snap
    with sessions() as db:
        game = db.get(Game, game_id)
        if game is None:
            raise ServiceError("not_found", t_("there is no game {game_id}", game_id=game_id))
        seen = spectator_version_of(db, game_id, game.options, snap.status, snap.version)
        if seen >= snap.version:
            return inner.load_game(game_id, since) if since is not None else snap
        state = state_at(db, game, seen, snap.state)
        moves: list[MoveInfo] = []
        if since is not None and seen > since:
            first = max(since, seen - MAX_LOG_MOVES)
            rows = db.execute(
                select(Move.seq, Move.seat, Move.events, Move.timeout, Move.created_at, Move.action)
                .where(Move.game_id == game_id, Move.seq > first, Move.seq <= seen)
                .order_by(Move.seq)
            )
            moves = [
                MoveInfo(
                    m.seq,
                    m.seat,
                    snap.seats[m.seat].name,
                    m.events,
                    m.timeout,
                    m.created_at.isoformat(),
                    m.action,
                )
                for m in rows
            ]
    return GameSnap(
        game_id, "live", seen, rules.to_act(state), snap.seats, state, moves, {"mode": "none"}
    )


def delayed_marks(sessions: Any, inner: Any, game_ids: list[int]) -> dict[int, Mark]:
    """`current_marks` as the spectators of these (delayed) games may see them."""
    marks = inner.current_marks(game_ids)
    if not marks:
        return marks
    with sessions() as db:
        options = dict(
            db.execute(select(Game.id, Game.options).where(Game.id.in_(list(marks)))).all()
        )
        out = {}
        for game_id, mark in marks.items():
            seen = spectator_version_of(
                db, game_id, options.get(game_id), mark.status, mark.version
            )
            out[game_id] = replace(mark, version=seen)
    return out

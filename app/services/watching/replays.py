"""Replays of finished games, built by the engine from the stored moves.

A replay is the sequence of the engine's own views of every position, with every secret shown
(R-60 allows it once the game has ended), sent as a first document and, per move, the RFC 6902
ops from the previous position's document: a client steps forward by applying ops and never
works a rule out itself. A finished game never changes, so a built replay is kept (bounded by
SEADRAGONS_REPLAY_CACHE_GAMES).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

import app.engine as rules
from app.db.models.games import Game, Move
from app.i18n import t_
from app.services.tables.lobby import visible_game
from app.services.tables.names import names_key, seat_name
from app.shared.diff import diff
from app.shared.errors import ServiceError
from app.shared.state_cache import replays_of


def replay(
    db: Session, game_id: int, user_id: int | None, invite_code: str | None
) -> dict[str, Any]:
    """The replay of a finished game the caller may see (private games: seat or invite)."""
    game = visible_game(db, game_id, user_id, invite_code)
    if game.status != "finished":
        raise ServiceError(
            "not_finished",
            t_(
                "game {game_id} is {status}: only finished games are replayed",
                game_id=game_id,
                status=game.status,
            ),
        )
    cache = replays_of(db)
    built = cache.get(game.id, game.version)
    if built is None:
        built = build(game, list(db.scalars(_moves(game.id))))
        cache.put(game.id, game.version, built)
    return built


def _moves(game_id: int) -> Any:
    return select(Move).where(Move.game_id == game_id).order_by(Move.seq)


def build(game: Game, moves: list[Move]) -> dict[str, Any]:
    """The replay document: the start, one frame per stored move, the final scores."""
    state = rules.new_game(rules.GameOptions.from_dict(game.options), game.seed)
    doc = rules.replay_view(state)
    start = doc
    frames = []
    for move in moves:
        state, events = rules.apply(state, move.action, move.seat)
        new = rules.replay_view(state)
        frames.append(
            {
                "seq": move.seq,
                "seat": move.seat,
                "action": move.action,
                "lines": [rules.describe(e) for e in events],
                "pieces": [rules.line(e) for e in events],
                "ops": diff(doc, new),
            }
        )
        doc = new
    return {
        "game_id": game.id,
        "seats": [seat_name(names_key(game), seat) for seat in game.seats],
        "start": start,
        "frames": frames,
        "final_scores": rules.final_scores(state),
    }

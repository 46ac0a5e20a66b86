"""The spectator delay of rated live tables: which version a spectator may see, and its state.

A table created with `spectator_delay` ({"moves": N} or {"seconds": S}) shows its spectators
the game as it was N moves, or S seconds, ago, so a watcher sitting beside a player (or on a
voice call) cannot tip them off. The delay covers everything a spectator is sent about the
position: GET /state and GET /log (app/services/play/games.py), the game socket (spectators of such
a
table are served by app/realtime/delayed_rooms.py) and the /watch summaries
(app/services/watching/watch.py). Players see their own game as always. Once the game is over
nothing is
held back (there is nobody left to tip off).

`visible_version` is the one decision, a pure function; the rest reads what it needs and
rebuilds the state of a past version with the engine (from the nearest cached state, else
from the start), kept in the process's state cache, where (game, version) names one state for
ever.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

import app.engine as rules
from app.db.models.games import Game, Move
from app.i18n import t_
from app.shared.clock import now_in
from app.shared.errors import ServiceError
from app.shared.state_cache import states_of

OPTION = "spectator_delay"  # the key in a game's `options`
# How far back the cache is searched for a state to replay from before starting over.
CACHE_PROBES = 64


@dataclass(frozen=True)
class DelayPolicy:
    """How far behind spectators are: `moves` moves, or `seconds` seconds (one of the two)."""

    moves: int = 0
    seconds: int = 0

    def to_json(self) -> dict[str, int]:
        """The stored (and shown) form."""
        return {"moves": self.moves} if self.moves else {"seconds": self.seconds}


def policy_of(options: dict[str, Any] | None) -> DelayPolicy | None:
    """The delay a game's options set, if any."""
    raw = (options or {}).get(OPTION)
    if not isinstance(raw, dict):
        return None
    moves, seconds = int(raw.get("moves") or 0), int(raw.get("seconds") or 0)
    if moves <= 0 and seconds <= 0:
        return None
    return DelayPolicy(moves=max(moves, 0), seconds=max(seconds, 0))


def check_option(
    raw: dict[str, Any] | None,
    *,
    rated: bool,
    clock: dict[str, Any] | None,
    max_moves: int,
    max_seconds: int,
) -> dict[str, int] | None:
    """The option to store for a new table, or `invalid_options` saying what is wrong."""
    if raw is None:
        return None
    moves, seconds = raw.get("moves"), raw.get("seconds")
    if (moves is None) == (seconds is None):
        raise ServiceError(
            "invalid_options", "spectator_delay takes exactly one of `moves` or `seconds`"
        )
    if not rated:
        raise ServiceError("invalid_options", "a spectator delay is for rated tables only")
    if clock is not None and clock.get("mode") == "daily":
        raise ServiceError(
            "invalid_options", "a spectator delay is for live tables, not daily ones"
        )
    if moves is not None and not 1 <= moves <= max_moves:
        raise ServiceError(
            "invalid_options",
            t_(
                "spectator_delay.moves is 1 to {max_moves}, not {moves}",
                max_moves=max_moves,
                moves=moves,
            ),
        )
    if seconds is not None and not 1 <= seconds <= max_seconds:
        raise ServiceError(
            "invalid_options",
            t_(
                "spectator_delay.seconds is 1 to {max_seconds}, not {seconds}",
                max_seconds=max_seconds,
                seconds=seconds,
            ),
        )
    return DelayPolicy(moves=moves or 0, seconds=seconds or 0).to_json()


def visible_version(
    policy: DelayPolicy | None,
    status: str,
    version: int,
    hidden_by_time: Sequence[tuple[int, float]],
    now: float,
) -> int:
    """The newest version a spectator may see (the one decision of the delay).

    `hidden_by_time`: (seq, commit time in epoch seconds) of the moves that may still be too
    recent for a seconds delay, oldest first (any older move counts as long enough ago). Only
    a live game is delayed; version 0 (the deal) is always visible.
    """
    if policy is None or status != "live":
        return version
    visible = version
    if policy.moves:
        visible = min(visible, version - policy.moves)
    if policy.seconds:
        cutoff = now - policy.seconds
        for seq, at in hidden_by_time:
            if at > cutoff:
                visible = min(visible, seq - 1)
                break
    return max(0, visible)


def _recent_commits(db: Session, game_id: int, seconds: int) -> list[tuple[int, float]]:
    """(seq, epoch time) of the game's moves of the last `seconds` (and a second's margin)."""
    since = now_in(db) - timedelta(seconds=seconds + 1)
    rows = db.execute(
        select(Move.seq, Move.created_at)
        .where(Move.game_id == game_id, Move.created_at > since)
        .order_by(Move.seq)
    )
    return [(seq, at.timestamp()) for seq, at in rows]


def spectator_version(db: Session, game: Game) -> int:
    """The version of `game` its spectators may see now."""
    return spectator_version_of(db, game.id, game.options, game.status, game.version)


def spectator_version_of(
    db: Session, game_id: int, options: dict[str, Any] | None, status: str, version: int
) -> int:
    """`spectator_version` from a game's columns (callers that read only those)."""
    policy = policy_of(options)
    if policy is None or status != "live":
        return version
    recent = _recent_commits(db, game_id, policy.seconds) if policy.seconds else []
    return visible_version(policy, status, version, recent, now_in(db).timestamp())


def state_at(db: Session, game: Game, version: int, current: Any | None = None) -> Any:
    """The engine state of `game` at an earlier `version`: replayed by the engine from the
    nearest state the process's cache holds (else from the deal), and cached."""
    if version == game.version and current is not None:
        return current
    cache = states_of(db)
    state = cache.get(game.id, version)
    if state is not None:
        return state
    base, state = 0, None
    for back in range(1, CACHE_PROBES + 1):
        if version - back < 0:
            break
        state = cache.get(game.id, version - back)
        if state is not None:
            base = version - back
            break
    if state is None:
        if game.seed is None:
            raise ServiceError("not_started", t_("game {id} has not started", id=game.id))
        state, base = rules.new_game(rules.GameOptions.from_dict(game.options), game.seed), 0
    moves = db.execute(
        select(Move.seq, Move.seat, Move.action)
        .where(Move.game_id == game.id, Move.seq > base, Move.seq <= version)
        .order_by(Move.seq)
    )
    for _seq, seat, action in moves:
        state, _events = rules.apply(state, action, seat)
    cache.put(game.id, version, state)
    return state


def held_back(db: Session, game: Game) -> tuple[int, int] | None:
    """(version, seat to act) of the game as its spectators see it now, when that is behind
    the game (None otherwise): the lobby's game object then says no more than the view."""
    if game.status != "live" or policy_of(game.options) is None:
        return None
    seen = spectator_version(db, game)
    if seen >= game.version:
        return None
    # The seat to act at `seen` is the one that made the next move.
    seat = db.scalar(select(Move.seat).where(Move.game_id == game.id, Move.seq == seen + 1))
    return seen, seat if seat is not None else game.to_act

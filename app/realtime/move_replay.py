"""Another instance's move, replayed on the state a room holds: the engine is deterministic, so
a room exactly one version behind turns a `changed` bus message into the committed move without
reading the database."""

from __future__ import annotations

import logging

import app.engine as rules
from app.realtime.codec import Changed
from app.shared.moves import Committed
from app.shared.snapshots import GameSnap

log = logging.getLogger(__name__)


def replayed(game_id: int, message: Changed, snap: GameSnap | None) -> Committed | None:
    """The move `message` carries, applied to `snap`; None if it cannot be (the room is not
    exactly one version behind, or the message carries no move)."""
    move = message.move
    if move is None or snap is None or snap.state is None:
        return None
    if message.version != snap.version + 1 or len(move.bots) != len(snap.seats):
        return None
    try:
        new_state, events = rules.apply(snap.state, move.action, move.seat)
    except Exception as exc:  # not expected (the engine is deterministic): read instead
        log.warning("room %s: cannot replay move %s: %s", game_id, message.version, exc)
        return None
    return Committed(
        game_id,
        message.version,
        move.seat,
        new_state,
        events,
        "finished" if rules.is_over(new_state) else "live",
        rules.to_act(new_state),
        move.bots,
        move.clock,
        move.timeout,
        move.action,
        move.at,
    )

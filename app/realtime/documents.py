"""Per-viewer documents and their RFC 6902 diffs; pure functions over engine states.

A viewer's document is `{"view": view_for(state, seat), "legal": packed_legal(state, seat),
"clock": ...}`: the `view` GET /api/games/{id}/state returns, that viewer's legal actions in the
compact form of app/engine/legal_wire.py (expanded, exactly the state's `legal_actions`), and
the game's public turn clock (the state's `clock`). Viewers with
the same key (seat, acting) see the same document, so it is computed once per key, not once per
socket. Only a seat that acts now has legal actions; everyone else's `legal` is null.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import app.engine as rules
from app.engine import packed_legal
from app.realtime.protocol import dumps
from app.services.play.games import timeout_note
from app.shared.snapshots import GameSnap, MoveInfo


class ViewerKey(NamedTuple):
    """What decides a viewer's document: their seat (None: spectator), and whether they act.

    A seat's owner watches without legal actions while a bot plays for them (as in game_state).
    """

    seat: int | None
    acting: bool


SPECTATOR = ViewerKey(None, False)


def key_for(snap: GameSnap, user_id: int | None) -> ViewerKey:
    """The key of `user_id` in this game (spectator when not seated)."""
    seat = snap.seat_of(user_id)
    if seat is None:
        return SPECTATOR
    return ViewerKey(seat.seat, seat.bot_level is None)


def document(
    state: Any,
    key: ViewerKey,
    clock: dict[str, Any] | None = None,
    shared: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The viewer's document; secrets are stripped by the engine's view_for (R-60).

    `clock`: the game's public turn clock, the same for every viewer. `shared`: the
    engine's `shared_view(state)`, computed once for all the viewer kinds of one change (their
    documents then share those public parts; documents are never modified once built).
    """
    legal = packed_legal(state, key.seat) if key.acting and key.seat is not None else None
    return {"view": rules.view_for(state, key.seat, shared), "legal": legal, "clock": clock}


# (move seq, what the viewer may see of its secrets) -> the log frame, for one change's viewers.
LogMemo = dict[tuple[int, Any], str]


def log_frame(move: MoveInfo, key: ViewerKey, over: bool, memo: LogMemo | None = None) -> str:
    """A move's log entry for one viewer, as GET /log gives it: events filtered by event_for
    (R-60). `memo`: shared by one change's viewer kinds, which mostly see the same entry (an
    event's secret goes only to its own seat), so each distinct entry is built once."""
    if memo is None:
        return _log_frame(move, key.seat, over)
    sees = over or tuple(key.seat == ev.get("seat") for ev in move.events if "secret" in ev)
    frame = memo.get((move.seq, sees))
    if frame is None:
        frame = memo[move.seq, sees] = _log_frame(move, key.seat, over)
    return frame


def _log_frame(move: MoveInfo, seat: int | None, over: bool) -> str:
    events = [rules.event_for(ev, seat, over) for ev in move.events]
    frame: dict[str, Any] = {
        "type": "log",
        "seq": move.seq,
        "seat": move.seat,
        "player": move.player,
        "at": move.at,
        "events": events,
        "text": [rules.describe(ev) for ev in events],
        # The same lines as language-neutral pieces, worded by the reader's catalogue.
        "pieces": [rules.line(ev) for ev in events],
    }
    # Every field of GET /log's entry for this move, so a page with a socket never fetches it.
    if move.timeout:
        frame.update(timeout=True, note=timeout_note(move.player))
    if over and move.action is not None:
        frame["action"] = move.action  # actions can name secret cards: only after the end
    return dumps(frame)


def presence_frame(
    snap: GameSnap | None, seat_counts: dict[int, int], spectators: int, game_id: int
) -> str:
    """Who is connected: per seat (name, connected, bot) and the number of spectators."""
    seats = []
    if snap is not None:
        for s in snap.seats:
            seats.append(
                {
                    "seat": s.seat,
                    "name": s.name,
                    "connected": seat_counts.get(s.seat, 0) > 0,
                    "bot": s.bot_level is not None,
                }
            )
    return dumps({"type": "presence", "game_id": game_id, "seats": seats, "spectators": spectators})

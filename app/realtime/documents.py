"""Per-viewer documents and their RFC 6902 diffs; pure functions over engine states.

A viewer's document is `{"view": view_for(state, seat), "legal_actions": [...]}`, exactly what
GET /api/games/{id}/state returns in those two fields. Viewers with the same key (seat, acting)
see the same document, so it is computed once per key, not once per socket.
"""

from __future__ import annotations

import unicodedata
from typing import Any, NamedTuple

import jsonpatch

import app.engine as rules
from app.realtime.protocol import CHAT_MAX_CHARS, dumps
from app.realtime.store import GameSnap, MoveInfo


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


def document(state: Any, key: ViewerKey, clock: dict[str, Any] | None = None) -> dict[str, Any]:
    """The viewer's document; secrets are stripped by the engine's view_for (R-60).

    `clock`: the game's public turn clock (issue 14), the same for every viewer.
    """
    legal = rules.legal_actions(state, key.seat) if key.acting and key.seat is not None else []
    return {"view": rules.view_for(state, key.seat), "legal_actions": legal, "clock": clock}


def _prefixed(op: dict[str, Any], prefix: str) -> dict[str, Any]:
    out = dict(op)
    out["path"] = prefix + op["path"]
    if "from" in op:
        out["from"] = prefix + op["from"]
    return out


def diff(old: dict[str, Any], new: dict[str, Any]) -> list[dict[str, Any]]:
    """RFC 6902 ops turning document `old` into `new`.

    The view is diffed field by field. The legal actions are replaced whole when they change:
    the list changes almost entirely from one decision to the next, and diffing it costs ~10 ms
    per viewer for a patch larger than the list itself.
    """
    ops = [_prefixed(op, "/view") for op in jsonpatch.make_patch(old["view"], new["view"]).patch]
    if old["legal_actions"] != new["legal_actions"]:
        ops.append({"op": "replace", "path": "/legal_actions", "value": new["legal_actions"]})
    if old.get("clock") != new.get("clock"):  # "add" also works for clients that drop the clock
        ops.append({"op": "add", "path": "/clock", "value": new.get("clock")})
    return ops


def log_frame(move: MoveInfo, key: ViewerKey, over: bool) -> str:
    """A move's readable log entry for one viewer: events filtered by event_for (R-60)."""
    events = [rules.event_for(ev, key.seat, over) for ev in move.events]
    frame = {
        "type": "log",
        "seq": move.seq,
        "seat": move.seat,
        "player": move.player,
        "events": events,
        "text": [rules.describe(ev) for ev in events],
    }
    if move.timeout:  # issue 14: as in GET /log
        frame.update(timeout=True, note=f"{move.player} ran out of time: a bot played this move")
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


# Bidirectional overrides and isolates: they can make a line display as something else.
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def clean_chat(text: str) -> str | None:
    """Chat text as stored: control characters dropped, spaces trimmed; None if empty or long.

    Stored and sent as plain text: clients must escape it (textContent, never innerHTML).
    """
    kept = "".join(
        " " if unicodedata.category(ch) in ("Cc", "Cs") or ch in _BIDI else ch for ch in text
    ).strip()
    if not kept or len(kept) > CHAT_MAX_CHARS:
        return None
    return kept

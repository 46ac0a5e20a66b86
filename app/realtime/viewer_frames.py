"""What one socket is sent of a change: the frames that take it from what it holds to a
viewer kind's new document, and the frames every spectator holding the previous version
shares. Each function also records on the socket what it then holds (key, version, status)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from app.realtime.connection import Connection
from app.realtime.documents import ViewerKey
from app.realtime.protocol import frames_frame, state_frame, status_frame, your_turn_frame
from app.shared.snapshots import GameSnap


@dataclass(frozen=True)
class SharedChange:
    """One change as every spectator holding version `base` (with lifecycle `status`) gets it."""

    base: int
    version: int
    status: str | None
    frames: list[str]
    text: str  # the frames as one (protocol.frames_frame): what each spectator is sent


def spectator_change(
    game_id: int, old: GameSnap | None, new: GameSnap, patch: str, logs: list[str]
) -> SharedChange:
    """The frames every spectator holding the previous version gets for this change: the same
    bytes for all of them, built once per game and version (the fan-out then only writes them
    to each socket)."""
    status = old.status if old is not None else None
    frames = [patch, *logs]
    if status != new.status:
        frames.append(status_frame(game_id, new.status, new.version))
    base = old.version if old is not None else -1
    return SharedChange(base, new.version, status, frames, frames_frame(frames))


def change_frames(
    conn: Connection,
    key: ViewerKey,
    doc: dict[str, Any],
    patch: str | None,
    logs: list[str],
    new: GameSnap,
    previous: int | None,
    clock_moved: bool = False,
) -> list[str]:
    """What the change to `new` brings `conn`, in order (the socket's state advanced to it).
    `clock_moved`: the clock changed since the room's previous snapshot."""
    frames: list[str] = []
    if key != conn.key or conn.version is None:
        frames.append(state_of(new, conn, key, doc))
    elif conn.version == new.version:
        if previous == new.version and clock_moved:
            # The clock changed without a move (a vacation, extra time): the state again.
            frames.append(state_of(new, conn, key, doc))
        # else a lobby-only change (seats) that left this viewer's document as it was
    elif patch is not None and conn.version == previous:
        frames.append(patch)
        conn.version = new.version
    else:
        frames.append(state_of(new, conn, key, doc))
    frames.extend(logs)
    if conn.status != new.status:
        frames.append(status_of(new, conn))
    turn = your_turn_of(new, conn)
    if turn is not None:
        frames.append(turn)
    return frames


def state_of(snap: GameSnap, conn: Connection, key: ViewerKey, doc: dict[str, Any]) -> str:
    """The `state` frame of `doc` for `conn` (which then holds it)."""
    conn.key, conn.version = key, snap.version
    return state_frame(snap.game_id, snap.version, snap.status, key.seat, snap.to_act, doc)


def status_of(snap: GameSnap, conn: Connection) -> str:
    """The `status` frame for `conn` (which then holds that status)."""
    conn.status = snap.status
    return status_frame(snap.game_id, snap.status, snap.version)


def your_turn_of(snap: GameSnap | None, conn: Connection) -> str | None:
    """`your_turn`, if `conn`'s seat must decide now and has not been told so."""
    if snap is None or snap.status != "live" or not conn.key.acting:
        return None
    if snap.to_act == conn.key.seat and conn.turn_sent != snap.version:
        conn.turn_sent = snap.version
        return your_turn_frame(snap.game_id, snap.version, snap.to_act)
    return None


def chain(history: Iterable[tuple[int, int, str]], since: int, current: int) -> list[str] | None:
    """The patches leading from `since` to `current` among `history`, if all are still held."""
    frames: list[str] = []
    at = since
    for base, version, frame in history:
        if base == at:
            frames.append(frame)
            at = version
    return frames if at == current and since <= current else None

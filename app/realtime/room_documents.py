"""A room's documents per viewer kind: each kind's current document and its last patches (kept
for resyncs), a socket's whole state, and one change's frames to every socket of the room (the
fan-out). The room calls these under its lock, so every socket gets each change in order."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import Any

import app.engine as rules
from app.realtime import documents as docs
from app.realtime import viewer_frames
from app.realtime.connection import Connection
from app.realtime.documents import ViewerKey
from app.realtime.protocol import frames_frame, patch_frame
from app.shared.diff import Memo, diff
from app.shared.snapshots import GameSnap

HISTORY = 32  # patches kept per viewer kind for resync


class RoomDocuments:
    """One game's documents per viewer kind, as last sent, with their recent patches."""

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        self.docs: dict[ViewerKey, tuple[int, dict[str, Any]]] = {}
        self.history: dict[ViewerKey, deque[tuple[int, int, str]]] = {}

    def chain(self, key: ViewerKey, since: int, current: int) -> list[str] | None:
        """The patches of viewer kind `key` from `since` to `current`, if all are still held."""
        return viewer_frames.chain(self.history.get(key, ()), since, current)

    def send_full(self, snap: GameSnap, conn: Connection) -> None:
        """Send `conn` the whole of its view of `snap` (a state frame, or a status before the
        game starts)."""
        key = docs.key_for(snap, conn.viewer.user_id)
        if snap.state is None:
            conn.key = key
            conn.send(viewer_frames.status_of(snap, conn))
            return
        cached = self.docs.get(key)
        if cached is None or cached[0] != snap.version:
            doc = docs.document(snap.state, key, snap.clock)
            self.docs[key] = (snap.version, doc)
        else:
            doc = cached[1]
        frames = [viewer_frames.state_of(snap, conn, key, doc)]
        conn.status = snap.status  # the state frame says it: no separate status frame
        turn = viewer_frames.your_turn_of(snap, conn)
        if turn is not None:
            frames.append(turn)
        conn.send(frames_frame(frames))

    def fan_out(
        self,
        conns: Iterable[Connection],
        old: GameSnap | None,
        new: GameSnap,
        first: tuple[Connection, str] | None = None,
    ) -> None:
        """Compute each viewer kind's document once, then send every socket its frames.

        `first`: the socket that made the move and its ack: its own viewer kind is done first
        and the ack sent right behind its patch, before the others' documents are computed.
        Spectators all get the same frames (`spectator_change`).
        """
        over = new.status == "finished"
        fresh = [m for m in new.moves if old is None or m.seq > old.version]
        previous = old.version if old is not None else None
        moved_clock = old is not None and old.clock != new.clock
        by_key: dict[ViewerKey, list[Connection]] = {}
        for conn in conns:
            by_key.setdefault(docs.key_for(new, conn.viewer.user_id), []).append(conn)
        # Also the kinds nobody holds right now but someone held in this room's lifetime: a
        # socket that drops and comes back soon can then be sent patches instead of a state.
        keys = set(by_key) | set(self.docs)
        order = sorted(keys, key=lambda k: first is None or k != first[0].key)
        # The public parts of the view, once for every viewer kind of this change.
        shared = rules.shared_view(new.state) if order and new.state is not None else None
        memo: Memo = {}  # so the shared parts are diffed once, not once per viewer kind
        log_memo: docs.LogMemo = {}  # so a log entry most viewers see alike is built once
        mover, ack = first if first is not None else (None, None)
        for key in order:
            doc = docs.document(new.state, key, new.clock, shared)
            prev = self.docs.get(key)
            patch = None
            if prev is not None and prev[0] < new.version:
                patch = patch_frame(prev[0], new.version, diff(prev[1], doc, memo=memo))
                hist = self.history.setdefault(key, deque(maxlen=HISTORY))
                hist.append((prev[0], new.version, patch))
            self.docs[key] = (new.version, doc)
            conns_of_key = by_key.get(key, ())
            logs = [docs.log_frame(m, key, over, log_memo) for m in fresh] if conns_of_key else []
            change = None
            if key == docs.SPECTATOR and patch is not None:
                change = viewer_frames.spectator_change(self.game_id, old, new, patch, logs)
            for conn in conns_of_key:
                if (
                    change is not None
                    and conn.key == key
                    and conn.version == change.base
                    and conn.status == change.status
                ):
                    conn.send(change.text)  # the same bytes for every spectator
                    conn.version, conn.status = change.version, new.status
                    continue
                # (A spectator not holding the previous version gets frames of its own.)
                frames = viewer_frames.change_frames(
                    conn, key, doc, patch, logs, new, previous, moved_clock
                )
                if conn is mover:
                    frames.append(ack)  # right behind its own patch
                    mover = None
                if frames:
                    conn.send(frames_frame(frames))
        if mover is not None:  # the mover's socket got no frame of this change: the ack alone
            mover.send(ack)

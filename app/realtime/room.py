"""A game's sockets on this server instance, and the fan-out of its changes to them.

The room holds the game as last loaded (one load per change, whatever the number of sockets),
each viewer kind's current document, and a short history of patches per viewer kind for
resyncs. All changes to what a socket holds happen under `lock`, so a socket never misses or
reorders a patch: it joins, resyncs and receives fan-out in one sequence.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import Counter, deque
from typing import TYPE_CHECKING, Any

from anyio import to_thread

from app.realtime import documents as docs
from app.realtime.connection import Connection
from app.realtime.documents import ViewerKey
from app.realtime.protocol import (
    CLOSE_INTERNAL,
    dumps,
    patch_frame,
    state_frame,
    status_frame,
    your_turn_frame,
)
from app.realtime.store import GameSnap, load_game, recent_chat

if TYPE_CHECKING:
    from app.realtime.hub import Hub

log = logging.getLogger(__name__)

HISTORY = 32  # patches kept per viewer kind for resync
SAFETY_REFRESH_S = 30.0  # reload even without a message: covers hints lost by the bus
PRESENCE_TTL_S = 45.0  # another instance's presence counts expire unless refreshed


class Room:
    """The sockets watching one game on this instance."""

    def __init__(self, hub: Hub, game_id: int) -> None:
        self.hub = hub
        self.game_id = game_id
        self.channel = hub.channel(game_id)
        self.conns: set[Connection] = set()
        self.lock = asyncio.Lock()
        self.snap: GameSnap | None = None
        self.docs: dict[ViewerKey, tuple[int, dict[str, Any]]] = {}
        self.history: dict[ViewerKey, deque[tuple[int, int, str]]] = {}
        self.closed = False
        self.ready = asyncio.Event()
        # instance id -> (seat counts, spectators, monotonic time); ours is kept up to date here.
        self.presence: dict[str, tuple[dict[int, int], int, float]] = {}
        self._task = asyncio.create_task(self._run(), name=f"room-{game_id}")

    # --- lifecycle -------------------------------------------------------------------------

    async def _run(self) -> None:
        try:
            async with self.hub.bus.subscribe(self.channel) as sub:
                # Subscribed before the first load: no change can fall between the two.
                await self._refresh_safely()
                self.ready.set()
                # Ask the other instances for their counts of this game's sockets.
                await self.hub.publish(self.channel, self._own_presence_message(hello=True))
                while True:
                    try:
                        message = await asyncio.wait_for(sub.__anext__(), SAFETY_REFRESH_S)
                    except TimeoutError:
                        await self._refresh_safely()
                        continue
                    await self._on_bus(message)
        except asyncio.CancelledError:
            raise
        except Exception:
            # Without its bus subscription the room would go stale: close it, and let the
            # clients reconnect (1011) into a fresh one.
            log.exception("room %s stopped", self.game_id)
            self.closed = True
            for conn in list(self.conns):
                conn.drop(CLOSE_INTERNAL)
        finally:
            self.ready.set()

    async def close(self) -> None:
        """Stop listening (the last socket left); tell other instances we hold no one."""
        self.closed = True
        self._task.cancel()
        with contextlib.suppress(BaseException):
            await self._task
        await self.hub.publish(self.channel, self._own_presence_message(empty=True))

    # --- sockets ---------------------------------------------------------------------------

    async def join(self, conn: Connection) -> bool:
        """Add a socket and send it the current state; False if the room closed meanwhile."""
        await self.ready.wait()
        async with self.lock:
            if self.closed:
                return False
            if self.snap is None:
                await self._refresh_locked()
            if self.snap is None:
                return False
            self.conns.add(conn)
            await self._send_full(conn)
        try:
            history = await to_thread.run_sync(recent_chat, self.hub.sessions, self.game_id)
        except Exception as exc:  # chat is a nicety: the game goes on without its history
            log.warning("room %s: chat history failed: %s", self.game_id, exc)
            history = []
        conn.send(dumps({"type": "chat_history", "game_id": self.game_id, "messages": history}))
        conn.chat_seen = max((m["id"] for m in history), default=0)
        self._presence_changed()
        return True

    def leave(self, conn: Connection) -> None:
        """Forget a socket; an empty room closes after a grace period (reloads are cheap)."""
        if conn in self.conns:
            self.conns.discard(conn)
            self._presence_changed()
            if not self.conns:
                self.hub.schedule_close(self)

    async def resync(self, conn: Connection, version: int) -> None:
        """Send `conn` what it missed since `version`: patches from history, else a state."""
        async with self.lock:
            snap = self.snap
            if snap is None or snap.state is None:
                if snap is not None:
                    conn.send(status_frame(self.game_id, snap.status, snap.version))
                return
            key = docs.key_for(snap, conn.viewer.user_id)
            if key == conn.key and version == snap.version == conn.version:
                return  # already current: nothing to send
            chain = self._chain(key, version, snap.version)
            if key != conn.key or chain is None:
                await self._send_full(conn)
                return
            for frame in chain:
                conn.send(frame)
            conn.version = snap.version

    async def sync(self, version: int) -> None:
        """Make sure every socket here has seen at least `version` (refresh if we lag)."""
        if self.snap is not None and self.snap.version >= version:
            return
        await self.refresh()

    # --- loading and fan-out ---------------------------------------------------------------

    async def refresh(self) -> None:
        """Reload the game once and push each socket the changes in its own view."""
        async with self.lock:
            await self._refresh_locked()

    async def _refresh_safely(self) -> None:
        try:
            await self.refresh()
        except Exception as exc:  # database away: keep the sockets, try again on the next hint
            log.warning("room %s: refresh failed: %s", self.game_id, exc)

    async def _refresh_locked(self) -> None:
        old = self.snap
        since = old.version if old is not None and old.state is not None else None
        new = await to_thread.run_sync(load_game, self.hub.sessions, self.game_id, since)
        if new.same_as(old):
            return
        seats_changed = old is None or old.seats != new.seats
        if new.state is None:
            self.snap = new
            for conn in self.conns:
                conn.key = docs.key_for(new, conn.viewer.user_id)
                self._send_status(conn)
        else:
            await self._fan_out(old, new)
        if seats_changed:
            self._presence_changed()

    async def _fan_out(self, old: GameSnap | None, new: GameSnap) -> None:
        # Also the kinds nobody holds right now but someone held in this room's lifetime: a
        # socket that drops and comes back soon can then be sent patches instead of a state.
        keys = {docs.key_for(new, c.viewer.user_id) for c in self.conns} | set(self.docs)
        previous = {k: self.docs.get(k) for k in keys}
        over = new.status == "finished"

        def compute() -> dict[ViewerKey, tuple[dict[str, Any], str | None, list[str]]]:
            out = {}
            for key in keys:
                doc = docs.document(new.state, key, new.clock)
                prev = previous[key]
                patch = None
                if prev is not None and prev[0] < new.version:
                    patch = patch_frame(prev[0], new.version, docs.diff(prev[1], doc))
                logs = [docs.log_frame(m, key, over) for m in new.moves]
                out[key] = (doc, patch, logs)
            return out

        results = await to_thread.run_sync(compute)
        # From here on no awaits: every socket gets this change's frames in one go, in order.
        self.snap = new
        for key, (doc, patch, _logs) in results.items():
            prev = previous[key]
            self.docs[key] = (new.version, doc)
            if patch is not None and prev is not None:
                hist = self.history.setdefault(key, deque(maxlen=HISTORY))
                hist.append((prev[0], new.version, patch))
        for conn in list(self.conns):
            key = docs.key_for(new, conn.viewer.user_id)
            doc, patch, logs = results[key]
            prev = previous[key]
            if key != conn.key or conn.version is None:
                self._send_state(conn, key, doc)
            elif conn.version == new.version:
                pass  # a lobby-only change (seats) that left this viewer's document as it was
            elif patch is not None and prev is not None and conn.version == prev[0]:
                conn.send(patch)
                conn.version = new.version
            else:
                self._send_state(conn, key, doc)
            for move, frame in zip(new.moves, logs, strict=True):
                if old is not None and move.seq > old.version:
                    conn.send(frame)
            if conn.status != new.status:
                self._send_status(conn)
            self._maybe_your_turn(conn)

    async def _send_full(self, conn: Connection) -> None:
        snap = self.snap
        assert snap is not None
        key = docs.key_for(snap, conn.viewer.user_id)
        if snap.state is None:
            conn.key = key
            self._send_status(conn)
            return
        cached = self.docs.get(key)
        if cached is None or cached[0] != snap.version:
            doc = await to_thread.run_sync(docs.document, snap.state, key, snap.clock)
            self.docs[key] = (snap.version, doc)
        else:
            doc = cached[1]
        self._send_state(conn, key, doc)
        conn.status = snap.status  # the state frame says it: no separate status frame
        self._maybe_your_turn(conn)

    def _send_state(self, conn: Connection, key: ViewerKey, doc: dict[str, Any]) -> None:
        snap = self.snap
        assert snap is not None
        conn.send(state_frame(self.game_id, snap.version, snap.status, key.seat, snap.to_act, doc))
        conn.key, conn.version = key, snap.version

    def _send_status(self, conn: Connection) -> None:
        snap = self.snap
        assert snap is not None
        conn.send(status_frame(self.game_id, snap.status, snap.version))
        conn.status = snap.status

    def _maybe_your_turn(self, conn: Connection) -> None:
        snap = self.snap
        if snap is None or snap.status != "live" or not conn.key.acting:
            return
        if snap.to_act == conn.key.seat and conn.turn_sent != snap.version:
            conn.turn_sent = snap.version
            conn.send(your_turn_frame(self.game_id, snap.version, snap.to_act))

    def _chain(self, key: ViewerKey, since: int, current: int) -> list[str] | None:
        """The patches leading from `since` to `current` for `key`, if all are still held."""
        frames: list[str] = []
        at = since
        for base, version, frame in self.history.get(key, ()):
            if base == at:
                frames.append(frame)
                at = version
        return frames if at == current and since <= current else None

    # --- bus messages: changes, chat, presence ---------------------------------------------

    async def _on_bus(self, message: str) -> None:
        try:
            data = json.loads(message)
            kind = data.get("kind")
        except (ValueError, AttributeError):
            log.warning("room %s: unreadable bus message", self.game_id)
            return
        if kind == "changed":
            if self.snap is None or data.get("version", -1) >= self.snap.version:
                await self._refresh_safely()
        elif kind == "chat":
            self._fan_out_chat(data["message"])
        elif kind == "presence" and data.get("instance") != self.hub.instance:
            seats = {int(k): int(v) for k, v in data.get("seats", {}).items()}
            loop_time = asyncio.get_running_loop().time()
            self.presence[data["instance"]] = (seats, int(data.get("spectators", 0)), loop_time)
            if data.get("hello"):
                # A new instance asks who is here: answer so its counts include ours.
                await self.hub.publish(self.channel, self._own_presence_message())
            self._presence_changed(publish=False)
        elif kind == "reconnected":
            await self._refresh_safely()
            await self.hub.publish(self.channel, self._own_presence_message(hello=True))

    def _fan_out_chat(self, message: dict[str, Any]) -> None:
        frame = dumps({"type": "chat", "game_id": self.game_id, **message})
        for conn in list(self.conns):
            if message.get("id", 0) > conn.chat_seen:
                conn.send(frame)

    def _local_counts(self) -> tuple[dict[int, int], int]:
        seats = Counter(c.key.seat for c in self.conns if c.key.seat is not None)
        spectators = sum(1 for c in self.conns if c.key.seat is None)
        return dict(seats), spectators

    def _own_presence_message(self, empty: bool = False, hello: bool = False) -> str:
        seats, spectators = ({}, 0) if empty else self._local_counts()
        return dumps(
            {
                "kind": "presence",
                "instance": self.hub.instance,
                "seats": {str(k): v for k, v in seats.items()},
                "spectators": spectators,
                "hello": hello,
            }
        )

    def _presence_changed(self, publish: bool = True) -> None:
        """Recount, tell local sockets if the merged picture changed, and tell other instances."""
        now = asyncio.get_running_loop().time()
        seats, spectators = self._local_counts()
        self.presence[self.hub.instance] = (seats, spectators, now)
        total_seats: Counter[int] = Counter()
        total_spectators = 0
        for instance, (counts, specs, at) in list(self.presence.items()):
            if instance != self.hub.instance and now - at > PRESENCE_TTL_S:
                del self.presence[instance]
                continue
            total_seats.update(counts)
            total_spectators += specs
        frame = docs.presence_frame(self.snap, dict(total_seats), total_spectators, self.game_id)
        for conn in list(self.conns):
            if conn.presence_sent != frame:  # each socket hears each picture once
                conn.presence_sent = frame
                conn.send(frame)
        if publish:
            self.hub.publish_soon(self.channel, self._own_presence_message())

    def heartbeat(self) -> None:
        """Re-announce our counts (other instances expire silent ones) and expire theirs."""
        self._presence_changed()

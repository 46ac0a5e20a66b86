"""A game's sockets on this server instance, and the fan-out of its changes to them.

The room holds the game as last seen (`snap`), each viewer kind's current document, and a short
history of patches per viewer kind for resyncs. All changes to what a socket holds happen under
`lock`, so a socket never misses or reorders a patch: it joins, resyncs and receives fan-out in
one sequence.

How a change reaches the room, fastest first:
- a move committed in this process is handed over in memory (`advance`): no database read;
- a change made elsewhere (another instance, the lobby) arrives as a bus notice: one light reload;
- a notice that never came (bus down, lost message, a failed reload) is caught by the hub's
  periodic check of every room's version, status and seats (`needs_refresh`), and a failed
  reload retries with backoff until the database answers. docs/protocol.md states the bound.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import Counter, deque
from typing import TYPE_CHECKING, Any

from anyio import to_thread

import app.engine as rules
from app.metrics import ROOM_UPDATES
from app.realtime import documents as docs
from app.realtime import store
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
from app.realtime.store import GameSnap, Mark, load_game, marks_of, recent_chat
from app.services.games import Committed

if TYPE_CHECKING:
    from app.realtime.hub import Hub

log = logging.getLogger(__name__)

HISTORY = 32  # patches kept per viewer kind for resync
PRESENCE_TTL_S = 45.0  # another instance's presence counts expire unless refreshed
# Presence is coalesced: changes within a short window go out as one frame per socket. The window
# grows with the room, so opening n sockets costs O(n) presence frames, not O(n^2).
PRESENCE_MIN_DELAY_S = 0.2
PRESENCE_DELAY_PER_SOCKET_S = 0.003
PRESENCE_MAX_DELAY_S = 3.0
RETRY_FIRST_S = 0.2  # a failed reload is retried after this, doubling up to RETRY_MAX_S
RETRY_MAX_S = 2.0
RECHECK_MIN_S = 0.5  # at most one "is my snapshot current?" read per room this often


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
        self.stale = False  # the last reload failed: retried until one succeeds
        self.ready = asyncio.Event()
        # instance id -> (seat counts, spectators, monotonic time); ours is kept up to date here.
        self.presence: dict[str, tuple[dict[int, int], int, float]] = {}
        self._presence_handle: asyncio.TimerHandle | None = None
        self._presence_publish = False
        self._presence_frame: str | None = None
        self._retrying = False
        self._rechecked_at = 0.0
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
                async for message in sub:
                    await self._on_bus(message)
        except asyncio.CancelledError:
            raise
        except Exception:
            # Without its bus subscription the room could only rely on the periodic check: close
            # it, and let the clients reconnect (1011) into a fresh one.
            log.exception("room %s stopped", self.game_id)
            self.closed = True
            for conn in list(self.conns):
                conn.drop(CLOSE_INTERNAL)
        finally:
            self.ready.set()

    async def close(self) -> None:
        """Stop listening (the last socket left); tell other instances we hold no one."""
        self.closed = True
        if self._presence_handle is not None:
            self._presence_handle.cancel()
            self._presence_handle = None
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
            self._send_full(conn)
            seats = {s.user_id: s.seat for s in self.snap.seats if s.user_id is not None}
        try:
            history = await to_thread.run_sync(recent_chat, self.hub.sessions, self.game_id, seats)
        except Exception as exc:  # chat is a nicety: the game goes on without its history
            log.warning("room %s: chat history failed: %s", self.game_id, exc)
            history = []
        conn.send(dumps({"type": "chat_history", "game_id": self.game_id, "messages": history}))
        conn.chat_seen = max((m["id"] for m in history), default=0)
        # The newcomer hears the latest picture at once; everyone hears the new count shortly.
        if self._presence_frame is not None:
            conn.presence_sent = self._presence_frame
            conn.send(self._presence_frame)
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
        """Send `conn` what it missed since `version`: patches from history, else a state.

        The database is asked first: the client may have heard of a change that never reached
        this room (it resyncs on a gap or a `stale_version`), and must converge at once.
        """
        await self.ensure_current(force=True)
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
                self._send_full(conn)
                return
            for frame in chain:
                conn.send(frame)
            conn.version = snap.version

    async def ensure_current(self, force: bool = False) -> None:
        """Compare with the database (one light read) and reload if the room lags behind.

        Without `force`, at most one such read per RECHECK_MIN_S (callers on hot paths).
        """
        now = time.monotonic()
        if not force and now - self._rechecked_at < RECHECK_MIN_S:
            return
        self._rechecked_at = now
        try:
            marks = await to_thread.run_sync(store.current_marks, self.hub.sessions, [self.game_id])
        except Exception as exc:  # database away: answer from memory; the check retries
            log.warning("room %s: version check failed: %s", self.game_id, exc)
            self.stale = True
            return
        if self.needs_refresh(marks.get(self.game_id)):
            await self._refresh_safely()

    def needs_refresh(self, mark: Mark | None) -> bool:
        """Whether the database's `mark` shows a change this room has not loaded."""
        if self.closed:
            return False
        if self.stale or self.snap is None:
            return True
        return mark is not None and mark != marks_of(self.snap)

    # --- changes ---------------------------------------------------------------------------

    async def advance(
        self, move: Committed, source: str = "local", ack: tuple[Connection, str] | None = None
    ) -> None:
        """A move committed in this process (or replayed from another's notice): fan it out from
        memory, or reload if the room lags behind it. `ack`: the mover's socket and its ack,
        sent right after the mover's own patch."""
        async with self.lock:
            snap = self.snap
            if self.closed or snap is None or move.version <= snap.version:
                pass
            elif snap.state is not None and move.version == snap.version + 1:
                await self._fan_out(snap, snap.after(move), source, ack)
                return
            else:
                await self._refresh_locked()
        if ack is not None:
            ack[0].send(ack[1])

    async def refresh(self) -> None:
        """Reload the game once and push each socket the changes in its own view."""
        async with self.lock:
            await self._refresh_locked()

    async def _refresh_safely(self) -> None:
        try:
            await self.refresh()
        except Exception as exc:  # database away: keep the sockets, retry until it answers
            log.warning("room %s: refresh failed: %s", self.game_id, exc)
            self.stale = True
            if not self._retrying:
                self._retrying = True
                self.hub.spawn(self._retry())
        else:
            self.stale = False

    async def _retry(self) -> None:
        delay = RETRY_FIRST_S
        try:
            while self.stale and not self.closed:
                await asyncio.sleep(delay)
                delay = min(delay * 2, RETRY_MAX_S)
                with contextlib.suppress(Exception):
                    await self.refresh()
                    self.stale = False
        finally:
            self._retrying = False

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
            await self._fan_out(old, new, "reload")
        if seats_changed:
            self._presence_changed()

    async def _fan_out(
        self,
        old: GameSnap | None,
        new: GameSnap,
        source: str,
        first: tuple[Connection, str] | None = None,
    ) -> None:
        """Compute each viewer kind's document once, then queue every socket its frames.

        Runs on the event loop under the room's lock, so every socket gets this change's frames
        in order. The cost is a few engine views and key-by-key diffs (well under a millisecond
        per viewer kind), cheaper than a hop to a worker thread and back. `first`: the socket
        that made the move and its ack: its own viewer kind is done first and the ack queued
        right behind its patch, then the loop gets one turn to write them before the others'
        documents are computed.
        """
        ROOM_UPDATES.labels(source=source).inc()
        # Also the kinds nobody holds right now but someone held in this room's lifetime: a
        # socket that drops and comes back soon can then be sent patches instead of a state.
        keys = {docs.key_for(new, c.viewer.user_id) for c in self.conns} | set(self.docs)
        over = new.status == "finished"
        fresh = [m for m in new.moves if old is None or m.seq > old.version]
        previous = old.version if old is not None else None
        self.snap = new
        by_key: dict[ViewerKey, list[Connection]] = {}
        for conn in list(self.conns):
            by_key.setdefault(docs.key_for(new, conn.viewer.user_id), []).append(conn)
        order = sorted(keys, key=lambda k: first is None or k != first[0].key)
        # The public parts of the view, once for every viewer kind of this change.
        shared = rules.shared_view(new.state) if order and new.state is not None else None
        memo: docs.Memo = {}  # so the shared parts are diffed once, not once per viewer kind
        for i, key in enumerate(order):
            doc = docs.document(new.state, key, new.clock, shared)
            prev = self.docs.get(key)
            patch = None
            if prev is not None and prev[0] < new.version:
                patch = patch_frame(prev[0], new.version, docs.diff(prev[1], doc, memo=memo))
                hist = self.history.setdefault(key, deque(maxlen=HISTORY))
                hist.append((prev[0], new.version, patch))
            self.docs[key] = (new.version, doc)
            logs = [docs.log_frame(m, key, over) for m in fresh]
            for conn in by_key.get(key, ()):
                self._send_change(conn, key, doc, patch, logs, new, previous)
            if i == 0 and first is not None:
                first[0].send(first[1])
                await asyncio.sleep(0)  # let the mover's patch and ack go out now

    def _send_change(
        self,
        conn: Connection,
        key: ViewerKey,
        doc: dict[str, Any],
        patch: str | None,
        logs: list[str],
        new: GameSnap,
        previous: int | None,
    ) -> None:
        if key != conn.key or conn.version is None:
            self._send_state(conn, key, doc)
        elif conn.version == new.version:
            pass  # a lobby-only change (seats) that left this viewer's document as it was
        elif patch is not None and conn.version == previous:
            conn.send(patch)
            conn.version = new.version
        else:
            self._send_state(conn, key, doc)
        for frame in logs:
            conn.send(frame)
        if conn.status != new.status:
            self._send_status(conn)
        self._maybe_your_turn(conn)

    def _send_full(self, conn: Connection) -> None:
        snap = self.snap
        assert snap is not None
        key = docs.key_for(snap, conn.viewer.user_id)
        if snap.state is None:
            conn.key = key
            self._send_status(conn)
            return
        cached = self.docs.get(key)
        if cached is None or cached[0] != snap.version:
            doc = docs.document(snap.state, key, snap.clock)
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
            if data.get("local") and data.get("instance") == self.hub.instance:
                return  # a move of ours: already handed over in memory (`advance`)
            if await self._replay(data):
                return
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

    async def _replay(self, data: dict[str, Any]) -> bool:
        """Another instance's move, replayed on the state this room holds; False if it cannot
        be (the room is not exactly one version behind, or the notice carries no move)."""
        move = data.get("move")
        snap = self.snap
        version = data.get("version")
        if not isinstance(move, dict) or snap is None or snap.state is None:
            return False
        if not isinstance(version, int) or version != snap.version + 1:
            return False
        try:
            seat = int(move["seat"])
            new_state, events = rules.apply(snap.state, move["action"], seat)
            bots = tuple(move["bots"])
            if len(bots) != len(snap.seats):
                return False
            committed = Committed(
                self.game_id,
                version,
                seat,
                new_state,
                events,
                "finished" if rules.is_over(new_state) else "live",
                rules.to_act(new_state),
                bots,
                move.get("clock") or {"mode": "none"},
                bool(move.get("timeout")),
                move["action"],
            )
        except Exception as exc:  # not expected (the engine is deterministic): read instead
            log.warning("room %s: cannot replay move %s: %s", self.game_id, version, exc)
            return False
        self.hub.cache_state(self.game_id, version, new_state)
        await self.advance(committed, "replay")
        return True

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
        """Schedule one coalesced presence update (local sockets, and other instances)."""
        self._presence_publish |= publish
        if self._presence_handle is None and not self.closed:
            delay = min(
                PRESENCE_MAX_DELAY_S,
                PRESENCE_MIN_DELAY_S + PRESENCE_DELAY_PER_SOCKET_S * len(self.conns),
            )
            loop = asyncio.get_running_loop()
            self._presence_handle = loop.call_later(delay, self._flush_presence)

    def _flush_presence(self) -> None:
        """Recount, tell local sockets if the merged picture changed, tell other instances."""
        self._presence_handle = None
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
        self._presence_frame = frame
        for conn in list(self.conns):
            if conn.presence_sent != frame:  # each socket hears each picture once
                conn.presence_sent = frame
                conn.send(frame)
        if self._presence_publish:
            self._presence_publish = False
            self.hub.publish_soon(self.channel, self._own_presence_message())

    def heartbeat(self) -> None:
        """Re-announce our counts (other instances expire silent ones) and expire theirs."""
        self._presence_changed()

    def seated_users(self) -> list[int]:
        """Users with a socket here who own a seat (their presence is refreshed in one write)."""
        snap = self.snap
        if snap is None:
            return []
        return sorted(
            {c.viewer.user_id for c in self.conns if c.key.seat is not None and c.viewer.user_id}
        )

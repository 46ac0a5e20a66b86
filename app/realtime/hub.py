"""The per-process hub: rooms by game, the bus, the after-commit hook, and message handling.

Flow of a move: a service commits -> Notifier calls `_on_game_changed` in the worker thread ->
`call_soon_threadsafe` publishes `{"kind": "changed", "version"}` on the game's channel -> every
instance's room for that game reloads once and pushes each socket its own patch.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections import Counter, OrderedDict
from typing import Any

from anyio import to_thread
from sqlalchemy.orm import Session, sessionmaker

from app.realtime import store
from app.realtime.bus import Bus
from app.realtime.connection import Connection
from app.realtime.documents import clean_chat
from app.realtime.protocol import (
    CHAT_MAX_CHARS,
    CLOSE_GOING_AWAY,
    ActionMsg,
    ack_frame,
    dumps,
    error_frame,
)
from app.realtime.room import Room
from app.services.errors import ServiceError
from app.services.notify import Notifier

log = logging.getLogger(__name__)

ROOM_GRACE_S = 5.0  # an empty room lingers this long (a reloading tab comes straight back)
HEARTBEAT_S = 15.0
RECENT_ACTIONS = 64  # action ids remembered per user and game


class Hub:
    """Everything realtime in one server process."""

    def __init__(
        self, bus: Bus, sessions: sessionmaker[Session], notifier: Notifier, prefix: str
    ) -> None:
        self.bus = bus
        self.sessions = sessions
        self.notifier = notifier
        self.prefix = prefix
        self.instance = uuid.uuid4().hex[:12]
        self.rooms: dict[int, Room] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        # (game, user) -> action id -> (what was sent, its reply): the same id is applied once.
        self._recent: OrderedDict[tuple[int, int], OrderedDict[str, Any]] = OrderedDict()
        self._started = False
        # Open sockets per user (or per address for anonymous spectators), in this process.
        self.sockets_by_key: Counter[str] = Counter()

    # --- lifecycle -------------------------------------------------------------------------

    async def start(self) -> None:
        """Connect the bus and listen for commits (at app startup)."""
        if self._started:
            return
        self._started = True
        self.loop = asyncio.get_running_loop()
        await self.bus.connect()
        self.notifier.on_game_changed.append(self._on_game_changed)
        self._spawn(self._heartbeat())

    async def stop(self) -> None:
        """Close every socket (1001: reconnect elsewhere) and the bus (at app shutdown)."""
        if not self._started:
            return
        self._started = False
        with contextlib.suppress(ValueError):
            self.notifier.on_game_changed.remove(self._on_game_changed)
        for room in list(self.rooms.values()):
            for conn in list(room.conns):
                conn.drop(CLOSE_GOING_AWAY)
            await room.close()
        self.rooms.clear()
        for task in list(self._tasks):
            task.cancel()
        await self.bus.disconnect()
        self.loop = None

    def channel(self, game_id: int) -> str:
        """The bus channel of a game."""
        return f"{self.prefix}game:{game_id}"

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _heartbeat(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT_S)
            for room in list(self.rooms.values()):
                room.heartbeat()

    # --- the bus ---------------------------------------------------------------------------

    def _on_game_changed(self, game_id: int, version: int) -> None:
        """Notifier hook; runs in the committing worker thread, so hop onto the loop."""
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        message = dumps({"kind": "changed", "game_id": game_id, "version": version})
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile (shutdown)
            loop.call_soon_threadsafe(self.publish_soon, self.channel(game_id), message)

    def publish_soon(self, channel: str, message: str) -> None:
        """Publish in the background (from loop callbacks that cannot await)."""
        self._spawn(self.publish(channel, message))

    async def publish(self, channel: str, message: str) -> None:
        """Publish, logging instead of raising: a lost hint is caught by the rooms' next load."""
        try:
            await self.bus.publish(channel, message)
        except Exception as exc:
            log.warning("bus publish on %s failed: %s", channel, exc)

    # --- rooms -----------------------------------------------------------------------------

    async def join(self, game_id: int, conn: Connection) -> Room | None:
        """Put `conn` in the game's room (created on first use); None if the game is gone."""
        for _attempt in range(3):
            room = self.rooms.get(game_id)
            if room is None or room.closed:
                room = self.rooms[game_id] = Room(self, game_id)
            if await room.join(conn):
                return room
            if not room.closed:
                return None  # the game could not be loaded
        return None

    def schedule_close(self, room: Room) -> None:
        """Close an empty room after the grace period unless someone came back."""

        async def later() -> None:
            await asyncio.sleep(ROOM_GRACE_S)
            async with room.lock:
                if room.conns or room.closed:
                    return
                room.closed = True
                if self.rooms.get(room.game_id) is room:
                    del self.rooms[room.game_id]
            await room.close()

        self._spawn(later())

    # --- messages from sockets -------------------------------------------------------------

    async def action(self, room: Room, conn: Connection, msg: ActionMsg) -> None:
        """Submit through the service; reply ack/error. A repeated id gets the first reply."""
        user_id = conn.viewer.user_id
        if user_id is None:
            conn.send(error_frame("not_signed_in", "sign in to play", msg.id))
            return
        recent = self._recent.setdefault((room.game_id, user_id), OrderedDict())
        self._recent.move_to_end((room.game_id, user_id))
        while len(self._recent) > 4096:
            self._recent.popitem(last=False)
        fingerprint = (msg.version, dumps(msg.action))
        seen = recent.get(str(msg.id))
        if seen is not None and seen[0] == fingerprint:
            # The same id, version and action again (a retry after a lost ack): same answer.
            conn.send(await asyncio.shield(seen[1]))
            return
        reply: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        recent[str(msg.id)] = (fingerprint, reply)
        while len(recent) > RECENT_ACTIONS:
            recent.popitem(last=False)
        text = error_frame("internal", "the server failed; try again", msg.id)
        try:
            version, events = await to_thread.run_sync(
                store.submit,
                self.sessions,
                self.notifier,
                room.game_id,
                conn.viewer,
                msg.version,
                msg.action,
            )
        except ServiceError as exc:
            text = error_frame(exc.code, exc.message, msg.id)
        except Exception:
            log.exception("action in game %s failed", room.game_id)
            recent.pop(str(msg.id), None)  # nothing known to be applied: let a retry run
        else:
            text = ack_frame(msg.id, version, events)
            try:
                # The patch first, then the ack: when the client sees the ack its document is
                # already new. (Should this fail, the bus message brings the patch soon after.)
                await room.sync(version)
            except Exception as exc:
                log.warning("room %s: sync after an action failed: %s", room.game_id, exc)
        finally:
            # Always settle: a duplicate of this id may be waiting for the answer.
            if not reply.done():
                reply.set_result(text)
        conn.send(text)

    async def chat(self, room: Room, conn: Connection, text: str) -> None:
        """Store a chat line and broadcast it to every instance's sockets in the game."""
        if conn.viewer.user_id is None:
            conn.send(error_frame("not_signed_in", "sign in (as a guest is enough) to chat"))
            return
        cleaned = clean_chat(text)
        if cleaned is None:
            conn.send(error_frame("bad_chat", f"a chat line has 1 to {CHAT_MAX_CHARS} characters"))
            return
        if not conn.chats.take():
            conn.send(error_frame("rate_limited", "too many chat lines; wait a few seconds"))
            return
        try:
            row = await to_thread.run_sync(
                store.add_chat, self.sessions, room.game_id, conn.viewer, cleaned
            )
        except ServiceError as exc:
            conn.send(error_frame(exc.code, exc.message))
            return
        await self.publish(room.channel, dumps({"kind": "chat", "message": row}))

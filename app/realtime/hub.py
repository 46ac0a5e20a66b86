"""The per-process hub: rooms by game, the bus, the after-commit hook, and message handling.

Flow of a move made over a socket: `action` submits it in a worker thread (the room's copy of
the state lets the service skip reading the game) -> the room fans the committed state out from
memory -> the ack follows the mover's patch. The Notifier also publishes `{"kind": "changed"}`
on the game's channel, so other instances' rooms reload it once. A periodic check of every
room's version, status and seats (one query for all rooms) repairs any notice that got lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
import uuid
from collections import Counter
from typing import TYPE_CHECKING, Any

from anyio import to_thread
from sqlalchemy.orm import Session, sessionmaker

from app.db.errors import is_unavailable
from app.metrics import LIVE_ROOMS, OPEN_SOCKETS
from app.realtime import memory, store
from app.realtime.bus import Bus
from app.realtime.connection import Connection, SocketLimits
from app.realtime.documents import clean_chat
from app.realtime.protocol import (
    CHAT_MAX_CHARS,
    CLOSE_POLICY,
    CLOSE_RESTARTING,
    ActionMsg,
    ack_frame,
    dumps,
    error_frame,
)
from app.realtime.recent import RecentActions, digest
from app.realtime.room import Room
from app.services.cache import cache_for
from app.services.errors import ServiceError
from app.services.games import Known
from app.services.notify import Notifier

if TYPE_CHECKING:
    from app.services.games import Committed

log = logging.getLogger(__name__)

ROOM_GRACE_S = 5.0  # an empty room lingers this long (a reloading tab comes straight back)
SESSION_RECHECK_S = 5.0  # a socket's session is re-read at most this often (sign-out is pushed)
RETRY_AFTER_S = 2.0  # what a socket is told to wait when the database is away
TRIM_AFTER_CLOSES = 200  # sockets closed between two returns of free memory to the system


class Hub:
    """Everything realtime in one server process."""

    def __init__(
        self,
        bus: Bus,
        sessions: sessionmaker[Session],
        notifier: Notifier,
        prefix: str,
        *,
        check_s: float = 2.0,
        heartbeat_s: float = 15.0,
        recent_bytes: int = 4 << 20,
        limits: SocketLimits | None = None,
    ) -> None:
        self.bus = bus
        self.sessions = sessions
        self.notifier = notifier
        self.prefix = prefix
        self.check_s = check_s
        # Presence re-announced to other instances, and seated players marked seen, this often.
        self.heartbeat_s = heartbeat_s
        self.limits = limits or SocketLimits()
        self.instance = uuid.uuid4().hex[:12]
        self.rooms: dict[int, Room] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self.recent = RecentActions(recent_bytes)
        self._started = False
        # Open sockets per user (or per address for anonymous spectators), in this process.
        self.sockets_by_key: Counter[str] = Counter()
        # Open sockets by their session's hash: a revoked session's sockets close at once.
        self.by_session: dict[str, set[Connection]] = {}
        self.checks = 0  # periodic checks done (tests wait on it)
        # Chat lines per user across sockets and instances (app.web.throttle.ChatLimiter).
        self.chat_limiter: Any = None
        self.closed_since_trim = 0  # sockets closed since memory was last given back

    # --- lifecycle -------------------------------------------------------------------------

    async def start(self) -> None:
        """Connect the bus and listen for commits (at app startup)."""
        if self._started:
            return
        self._started = True
        self.loop = asyncio.get_running_loop()
        await self.bus.connect()
        self.notifier.on_game_changed.append(self._on_game_changed)
        self.notifier.on_sessions_revoked.append(self._on_sessions_revoked)
        self.spawn(self._heartbeat())
        self.spawn(self._check_rooms())
        self.spawn(self._listen_sessions())

    async def stop(self) -> None:
        """Close every socket (1012: reconnect, maybe elsewhere) and the bus (at shutdown)."""
        if not self._started:
            return
        self._started = False
        for hook, listener in (
            (self.notifier.on_game_changed, self._on_game_changed),
            (self.notifier.on_sessions_revoked, self._on_sessions_revoked),
        ):
            with contextlib.suppress(ValueError):
                hook.remove(listener)  # type: ignore[arg-type]
        for room in list(self.rooms.values()):
            for conn in list(room.conns):
                conn.drop(CLOSE_RESTARTING)
            await room.close()
        self.rooms.clear()
        for task in list(self._tasks):
            task.cancel()
        await self.bus.disconnect()
        self.loop = None

    @property
    def socket_ttl_s(self) -> float:
        """How long one heartbeat vouches for an open socket: two missed beats and a margin."""
        return 2 * self.heartbeat_s + 10.0

    def channel(self, game_id: int) -> str:
        """The bus channel of a game."""
        return f"{self.prefix}game:{game_id}"

    @property
    def sessions_channel(self) -> str:
        """The bus channel of session revocations (every instance listens)."""
        return f"{self.prefix}sessions"

    def cache_state(self, game_id: int, version: int, state: Any) -> None:
        """Keep a state this process computed (a replayed move) for its HTTP requests too."""
        cache_for(self.sessions.kw["bind"]).put(game_id, version, state)

    def spawn(self, coro: Any) -> None:
        """Run `coro` in the background, keeping a reference until it ends."""
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _heartbeat(self) -> None:
        last = time.monotonic()
        while True:
            # Short sleeps: a changed `heartbeat_s` takes effect within a second.
            await asyncio.sleep(min(1.0, self.heartbeat_s))
            if time.monotonic() - last < self.heartbeat_s:
                continue
            last = time.monotonic()
            seen: dict[int, list[int]] = {}
            for room in list(self.rooms.values()):
                room.heartbeat()
                users = room.seated_users()
                if users:
                    seen[room.game_id] = users
            if seen:
                # One write for every seated player with a socket here (the bots' grace period).
                with contextlib.suppress(Exception):
                    await to_thread.run_sync(
                        store.mark_seen_many, self.sessions, seen, self.socket_ttl_s
                    )

    async def _check_rooms(self) -> None:
        """Every `check_s`: compare each room with the database; reload the ones that lag.

        Bus traffic does not reset this timer, so a lost notice, a failed reload or a move made
        through an instance without a shared bus is caught within `check_s` plus one reload.
        """
        while True:
            await asyncio.sleep(self.check_s)
            rooms = [r for r in list(self.rooms.values()) if r.ready.is_set() and not r.closed]
            if rooms:
                try:
                    marks = await to_thread.run_sync(
                        store.current_marks, self.sessions, [r.game_id for r in rooms]
                    )
                except Exception as exc:
                    log.warning("room check failed (%d rooms): %s", len(rooms), exc)
                    marks = None
                if marks is not None:
                    for room in rooms:
                        if room.needs_refresh(marks.get(room.game_id)):
                            self.spawn(room._refresh_safely())
            self.checks += 1

    # --- the bus ---------------------------------------------------------------------------

    def _on_game_changed(self, game_id: int, version: int, move: Committed | None) -> None:
        """Notifier hook; runs in the committing worker thread, so hop onto the loop."""
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        data: dict[str, Any] = {
            "kind": "changed",
            "game_id": game_id,
            "version": version,
            "instance": self.instance,
            "local": move is not None,  # our own rooms get the move in memory
        }
        if move is not None and move.action is not None:
            # The move itself: another instance holding the state before it replays it (the
            # engine is deterministic) instead of reading the game back from the database.
            data["move"] = {
                "seat": move.seat,
                "action": move.action,
                "bots": list(move.bots),
                "clock": move.clock,
                "timeout": move.timeout,
            }
        message = dumps(data)
        if getattr(store.SOCKET_SUBMIT, "active", False):
            move = None  # a socket's move: its handler fans it out, with the ack (`action`)
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile (shutdown)
            loop.call_soon_threadsafe(self._changed_on_loop, game_id, message, move)

    def _changed_on_loop(self, game_id: int, message: str, move: Committed | None) -> None:
        self.publish_soon(self.channel(game_id), message)
        room = self.rooms.get(game_id)
        if move is not None and room is not None:
            self.spawn(room.advance(move))

    def publish_soon(self, channel: str, message: str) -> None:
        """Publish in the background (from loop callbacks that cannot await)."""
        self.spawn(self.publish(channel, message))

    async def publish(self, channel: str, message: str) -> None:
        """Publish, logging instead of raising: a lost notice is caught by the periodic check."""
        try:
            await self.bus.publish(channel, message)
        except Exception as exc:
            log.warning("bus publish on %s failed: %s", channel, exc)

    # --- sessions --------------------------------------------------------------------------

    def register(self, conn: Connection) -> None:
        """Index an open socket by its session (for revocations)."""
        OPEN_SOCKETS.inc()
        token_hash = conn.viewer.token_hash
        if token_hash:
            self.by_session.setdefault(token_hash, set()).add(conn)

    def unregister(self, conn: Connection) -> None:
        """Forget a closed socket (and give memory back after a burst of closes)."""
        OPEN_SOCKETS.dec()
        self.closed_since_trim += 1
        if self.closed_since_trim >= TRIM_AFTER_CLOSES:
            self.closed_since_trim = 0
            memory.release()
        token_hash = conn.viewer.token_hash
        conns = self.by_session.get(token_hash or "")
        if conns is not None:
            conns.discard(conn)
            if not conns:
                del self.by_session[token_hash or ""]

    def _on_sessions_revoked(self, _user_id: int, token_hashes: frozenset[str]) -> None:
        """Notifier hook (sign-out, a new sign-in, a guest becoming an account): in the
        committing thread; every instance closes those sessions' sockets."""
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        message = dumps({"kind": "revoked", "sessions": sorted(token_hashes)})
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(self.publish_soon, self.sessions_channel, message)

    async def _listen_sessions(self) -> None:
        async with self.bus.subscribe(self.sessions_channel) as sub:
            async for message in sub:
                with contextlib.suppress(ValueError, KeyError, TypeError):
                    data = json.loads(message)
                    if data.get("kind") == "revoked":
                        self.close_sessions(data["sessions"])

    def close_sessions(self, token_hashes: list[str]) -> None:
        """Close the sockets of these sessions here: say why, then close (1008)."""
        for token_hash in token_hashes:
            for conn in list(self.by_session.pop(str(token_hash), ())):
                conn.send(error_frame("not_signed_in", "you signed out: this socket closes"))
                conn.close_after_queue(CLOSE_POLICY)

    async def session_ok(self, conn: Connection) -> bool:
        """The socket's session is still valid (re-read at most every SESSION_RECHECK_S)."""
        now = time.monotonic()
        if now - conn.session_checked_at < SESSION_RECHECK_S:
            return True
        try:
            await to_thread.run_sync(store.check_session, self.sessions, conn.viewer)
        except ServiceError:
            return False
        conn.session_checked_at = now
        return True

    # --- rooms -----------------------------------------------------------------------------

    async def join(self, game_id: int, conn: Connection) -> Room | None:
        """Put `conn` in the game's room (created on first use); None if the game is gone."""
        for _attempt in range(3):
            room = self.rooms.get(game_id)
            if room is None or room.closed:
                room = self.rooms[game_id] = Room(self, game_id)
                LIVE_ROOMS.set(len(self.rooms))
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
                LIVE_ROOMS.set(len(self.rooms))
            await room.close()
            if not self.rooms and self.closed_since_trim:  # the last room went: a quiet moment
                self.closed_since_trim = 0
                memory.release()

        self.spawn(later())

    # --- messages from sockets -------------------------------------------------------------

    async def action(self, room: Room, conn: Connection, msg: ActionMsg) -> None:
        """Submit through the service; reply ack/error. A repeated id gets the first reply."""
        user_id = conn.viewer.user_id
        if user_id is None:
            conn.send(error_frame("not_signed_in", "sign in to play", msg.id))
            return
        # The seat first: nothing is remembered for a sender who may not act here.
        refusal = await self._seat_refusal(room, user_id)
        if refusal is not None:
            conn.send(error_frame(*refusal, msg.id))
            return
        if not await self.session_ok(conn):
            conn.send(error_frame("not_signed_in", "your session has ended; sign in again", msg.id))
            return
        pair, msg_id = (room.game_id, user_id), str(msg.id)
        key = digest(msg.version, msg.action)
        seen = self.recent.lookup(pair, msg_id)
        if seen is not None and seen[0] == key:
            # The same id, version and action again (a retry after a lost ack): same answer.
            conn.send(await asyncio.shield(seen[1]))
            return
        reply = self.recent.remember(pair, msg_id, key)
        text = error_frame("internal", "the server failed; try again", msg.id)
        move = None
        try:
            snap = room.snap
            assert snap is not None  # _seat_refusal checked it
            seat = snap.seat_of(user_id)
            assert seat is not None
            known = None
            if snap.state is not None and snap.version == msg.version and snap.status == "live":
                known = Known(snap.state, seat.seat, snap.bots(), snap.clocked)
            move = await to_thread.run_sync(
                store.submit,
                self.sessions,
                self.notifier,
                room.game_id,
                user_id,
                msg.version,
                msg.action,
                known,
                seat.left,
            )
        except ServiceError as exc:
            text = error_frame(exc.code, exc.message, msg.id)
        except Exception as exc:
            self.recent.forget(pair, msg_id)  # nothing known to be applied: let a retry run
            if is_unavailable(exc):
                log.warning("action in game %s: database unavailable: %s", room.game_id, exc)
                text = error_frame(
                    "unavailable", "the database is unavailable; try again", msg.id, RETRY_AFTER_S
                )
            else:
                log.exception("action in game %s failed", room.game_id)
        else:
            text = ack_frame(msg.id, move.version, move.events_for(move.seat))
        finally:
            # Always settle: a duplicate of this id may be waiting for the answer.
            if not reply.done():
                reply.set_result(text)
            self.recent.settle(pair, msg_id, text)
        if move is None:
            conn.send(text)
            return
        try:
            # The mover's patch, then its ack, then everyone else's patches: when the client
            # sees the ack its document is already new. (Should this fail, the ack still goes,
            # and the periodic check brings the patch.)
            await room.advance(move, ack=(conn, text))
        except Exception as exc:
            log.warning("room %s: fan-out after an action failed: %s", room.game_id, exc)
            conn.send(text)

    async def _seat_refusal(self, room: Room, user_id: int) -> tuple[str, str] | None:
        """Why `user_id` may not act in this room now (code, message), or None if they may."""
        for attempt in range(2):
            snap = room.snap
            seat = snap.seat_of(user_id) if snap is not None else None
            if seat is not None and seat.bot_level is None:
                return None
            if attempt == 0:
                # The room may lag behind a seat change (a reclaim just now): look once.
                await room.ensure_current()
        if seat is None:
            return "not_seated", f"you have no seat in game {room.game_id}"
        return "seat_has_bot", "a bot is playing your seat; take it back first"

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
        if self.chat_limiter is not None:
            # Per user across all their sockets and every instance (a shared counter).
            wait = await to_thread.run_sync(self.chat_limiter.allow, conn.viewer.user_id)
            if wait is not None:
                message = f"too many chat lines; wait {int(wait) + 1} s"
                conn.send(error_frame("rate_limited", message, retry_after=round(wait, 1)))
                return
        if not await self.session_ok(conn):
            conn.send(error_frame("not_signed_in", "your session has ended; sign in again"))
            return
        seat = conn.key.seat
        try:
            row = await to_thread.run_sync(
                store.add_chat, self.sessions, room.game_id, conn.viewer, cleaned, seat
            )
        except ServiceError as exc:
            conn.send(error_frame(exc.code, exc.message))
            return
        await self.publish(room.channel, dumps({"kind": "chat", "message": row}))

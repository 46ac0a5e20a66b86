"""The game authority: decides and commits one socket move, then hands it on.

    action frame (parsed once at the edge, the action once more into the engine's own value)
      -> seat check on the room's copy (refused: nothing remembered)
      -> session re-check, idempotency by action id (a retry gets the first answer)
      -> storage.submit_now: engine apply and the move's one statement on the event loop, when
         that is all it writes; else storage.submit in a worker thread: engine apply and one
         transaction (the presence mark inside it)
      -> the committed move: the room fans it out with the mover's ack right behind its own
         patch, then one `changed` message with the move goes on the bus (local delivery first)

Every answer to an action carries its id, whatever failed (the database away during the seat or
session check included): a client waiting for an id never waits for nothing.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import app.engine as rules
from app.db.errors import is_unavailable
from app.realtime.codec import BusMessage, Changed, MoveNotice
from app.realtime.connection import Connection
from app.realtime.protocol import ActionMsg, ack_frame, error_frame
from app.realtime.recent import RecentActions, digest
from app.realtime.room import Room
from app.realtime.sessions import SessionIndex
from app.realtime.storage import LiveStore, MoveRequest
from app.services.play.games import Committed, Known
from app.shared.errors import ServiceError

log = logging.getLogger(__name__)


def changed_of(move: Committed) -> Changed:
    """The bus message of a committed move (with the move, for replay elsewhere)."""
    notice = None
    if move.action is not None:
        notice = MoveNotice(move.seat, move.action, move.bots, move.clock, move.timeout, move.at)
    return Changed(move.game_id, move.version, notice)


class GameAuthority:
    """Turns action frames into committed moves, one answer per action id."""

    def __init__(
        self,
        store: LiveStore,
        run: Callable[..., Awaitable[Any]],
        sessions: SessionIndex,
        recent: RecentActions,
        publish: Callable[[str, BusMessage], Awaitable[bool]],
        *,
        retry_after_s: float,
    ) -> None:
        self.store = store
        self.run = run
        self.sessions = sessions
        self.recent = recent
        self.publish = publish
        self.retry_after_s = retry_after_s

    async def act(self, room: Room, conn: Connection, msg: ActionMsg) -> None:
        """Answer one action frame: an ack after the commit, or an error, with its id."""
        try:
            await self._act(room, conn, msg)
        except Exception as exc:
            conn.send(self.failure(exc, room.game_id, msg.id))

    def failure(self, exc: Exception, game_id: int, msg_id: str | int | None) -> str:
        """The answer to an action that failed unexpectedly (built only to be sent)."""
        if is_unavailable(exc):
            log.warning("action in game %s: database unavailable: %s", game_id, exc)
            return error_frame(
                "unavailable", "the database is unavailable; try again", msg_id, self.retry_after_s
            )
        log.error("action in game %s failed", game_id, exc_info=exc)
        return error_frame("internal", "the server failed; try again", msg_id)

    async def _act(self, room: Room, conn: Connection, msg: ActionMsg) -> None:
        user_id = conn.viewer.user_id
        if user_id is None:
            conn.send(error_frame("not_signed_in", "sign in to play", msg.id))
            return
        # The seat first: nothing is remembered for a sender who may not act here.
        refusal = await self._seat_refusal(room, user_id)
        if refusal is not None:
            conn.send(error_frame(*refusal, msg.id))
            return
        if not await self.sessions.still_valid(conn):
            conn.send(error_frame("not_signed_in", "your session has ended; sign in again", msg.id))
            return
        try:
            action = rules.parse_action(msg.action)  # once: the engine takes this value as it is
        except rules.EngineError as exc:
            why = rules.explain_unparsed(msg.action, exc).to_json()
            conn.send(error_frame(exc.code, exc.message, msg.id, reason=why))
            return
        pair, msg_id = (room.game_id, user_id), str(msg.id)
        key = digest(msg.version, action)
        seen = self.recent.lookup(pair, msg_id)
        if seen is not None and seen[0] == key:
            # The same id, version and action again (a retry after a lost ack): same answer.
            conn.send(await asyncio.shield(seen[1]))
            return
        reply = self.recent.remember(pair, msg_id, key)
        move: Committed | None = None
        text: str | None = None
        try:
            request = self._request(room, user_id, msg, action)
            # On the loop when the move writes nothing but its own statement; else (a clock, a
            # finish, a refusal to explain, SQLite) in a worker thread.
            move = await self.store.submit_now(request)
            if move is None:
                move = await self.run(self.store.submit, request)
            text = ack_frame(msg.id, move.version, move.events_for(move.seat))
        except ServiceError as exc:
            text = error_frame(exc.code, exc.message, msg.id, reason=exc.reason)
        except Exception as exc:
            self.recent.forget(pair, msg_id)  # nothing known to be applied: let a retry run
            text = self.failure(exc, room.game_id, msg.id)
        finally:
            # Always settle: a duplicate of this id may be waiting for the answer.
            if text is not None:
                reply.set_result(text)
            else:  # cancelled (shutdown): nothing known, a retry must run
                self.recent.forget(pair, msg_id)
                reply.cancel()
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
        await self.publish(room.channel, changed_of(move))

    def _request(
        self, room: Room, user_id: int, msg: ActionMsg, action: rules.Action
    ) -> MoveRequest:
        snap = room.snap
        assert snap is not None  # _seat_refusal checked it
        seat = snap.seat_of(user_id)
        assert seat is not None
        known = None
        if snap.state is not None and snap.version == msg.version and snap.status == "live":
            known = Known(snap.state, seat.seat, snap.bots(), snap.clocked)
        return MoveRequest(room.game_id, user_id, msg.version, action, known, seat.left)

    async def _seat_refusal(self, room: Room, user_id: int) -> tuple[str, str] | None:
        """Why `user_id` may not act in this room now (code, message), or None if they may."""
        seat = None
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

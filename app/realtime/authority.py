"""The game authority: decides and commits one socket move, then hands it on.

    action frame (parsed once at the edge, the action once more into the engine's own value)
      -> seat check on the room's copy (refused: nothing remembered)
      -> session re-check, idempotency by action id (a retry gets the first answer)
      -> one MoveCommand through the one road (app/services/play/road.py), the same as every
         other move's: on the event loop when the move writes only its own statement and the
         database allows (Postgres), else in a worker thread (the presence mark inside it)
      -> the committed move reaches the rooms through the hub's one after-commit listener,
         which sends the mover's ack (matched by its action id, acks.py) right behind its own
         patch, then one `changed` message with the move on the bus

Every answer to an action carries its id, whatever failed (the database away during the seat or
session check included): a client waiting for an id never waits for nothing.
"""

from __future__ import annotations

import asyncio
import logging

import app.engine as rules
from app.db.errors import is_unavailable
from app.realtime.acks import Owed, PendingAcks
from app.realtime.codec import Changed, MoveNotice
from app.realtime.connection import Connection
from app.realtime.protocol import ActionMsg, error_frame
from app.realtime.recent import RecentActions, digest
from app.realtime.room import Room
from app.realtime.sessions import SessionIndex
from app.realtime.storage import MoveCommitter
from app.shared.errors import ServiceError
from app.shared.moves import Committed, Known, MoveCommand

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
        road: MoveCommitter,
        sessions: SessionIndex,
        recent: RecentActions,
        acks: PendingAcks,
        *,
        retry_after_s: float,
    ) -> None:
        self.road = road
        self.sessions = sessions
        self.recent = recent
        self.acks = acks
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
        owed: Owed | None = None
        text: str | None = None
        try:
            command = self._command(room, user_id, msg, action)
            owed = self.acks.expect(command, conn)  # before the commit: its fan-out sends it
            move = await self.road.commit(command)
            text = owed.text_for(move)
        except ServiceError as exc:
            text = error_frame(exc.code, exc.message, msg.id, reason=exc.reason)
        except Exception as exc:
            self.recent.forget(pair, msg_id)  # nothing known to be applied: let a retry run
            text = self.failure(exc, room.game_id, msg.id)
        finally:
            if move is None and owed is not None:
                self.acks.discard(owed)
            # Always settle: a duplicate of this id may be waiting for the answer.
            if text is not None:
                reply.set_result(text)
            else:  # cancelled (shutdown): nothing known, a retry must run
                self.recent.forget(pair, msg_id)
                reply.cancel()
        self.recent.settle(pair, msg_id, text)
        if move is None:
            conn.send(text)

    def _command(
        self, room: Room, user_id: int, msg: ActionMsg, action: rules.Action
    ) -> MoveCommand:
        snap = room.snap
        assert snap is not None  # _seat_refusal checked it
        seat = snap.seat_of(user_id)
        assert seat is not None
        known = None
        if snap.state is not None and snap.version == msg.version and snap.status == "live":
            known = Known(snap.state, seat.seat, snap.bots(), snap.clocked)
        return MoveCommand(
            room.game_id,
            msg.version,
            action,
            user_id=user_id,
            known=known,
            back=seat.left,
            action_id=msg.id,
        )

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

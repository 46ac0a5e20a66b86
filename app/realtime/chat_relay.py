"""Chat over sockets: limits, then the chat service stores the line, then delivery.

Delivery is local first (this instance's sockets in the game, straight from memory), then the
bus (the other instances). A line whose bus message is lost (the bus away, or another instance's
subscription down just then) is not lost: it is stored, and every room catches up on stored lines
when its bus subscription comes back, or when the instance whose publishing failed can publish
again and says so on the channel (RedisBus, Room.catch_up_chat).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from app.realtime.codec import BusMessage, ChatLine
from app.realtime.connection import Connection
from app.realtime.protocol import error_frame
from app.realtime.room import Room
from app.realtime.sessions import SessionIndex
from app.realtime.storage import LiveStore
from app.services.tables import chat
from app.shared.errors import ServiceError

log = logging.getLogger(__name__)


class ChatRelay:
    """Takes chat lines from sockets and delivers them to every socket of the game."""

    def __init__(
        self,
        store: LiveStore,
        run: Callable[..., Awaitable[Any]],
        sessions: SessionIndex,
        publish: Callable[[str, BusMessage], Awaitable[bool]],
        limiter: Any = None,
    ) -> None:
        self.store = store
        self.run = run
        self.sessions = sessions
        self.publish = publish
        # Chat lines per user across sockets and instances (app.web.throttle.ChatLimiter).
        self.limiter = limiter

    async def say(self, room: Room, conn: Connection, text: str) -> None:
        """Store a line and deliver it; refusals are answered with an error frame."""
        user_id = conn.viewer.user_id
        if user_id is None:
            conn.send(error_frame("not_signed_in", "sign in (as a guest is enough) to chat"))
            return
        if chat.clean(text) is None:
            limit = chat.CHAT_MAX_CHARS
            conn.send(error_frame("bad_chat", f"a chat line has 1 to {limit} characters"))
            return
        if not conn.chats.take():
            conn.send(error_frame("rate_limited", "too many chat lines; wait a few seconds"))
            return
        if self.limiter is not None:
            wait = await self.run(self.limiter.allow, user_id)
            if wait is not None:
                message = f"too many chat lines; wait {int(wait) + 1} s"
                conn.send(error_frame("rate_limited", message, retry_after=round(wait, 1)))
                return
        if not await self.sessions.still_valid(conn):
            conn.send(error_frame("not_signed_in", "your session has ended; sign in again"))
            return
        try:
            line = await self.run(self.store.say, room.game_id, conn.viewer, text, conn.key.seat)
        except ServiceError as exc:
            conn.send(error_frame(exc.code, exc.message))
            return
        room.deliver_chat(line)
        if not await self.publish(room.channel, ChatLine(line)):
            log.warning("chat line %s reached this instance only for now", line.get("id"))

"""`WS /ws/games/{id}`: access and socket caps on the upgrade, then the message loop.

The Origin of the upgrade is checked before this runs, at the app's door (`SocketDoor`, by the
same rule as app.web.security's middleware for every state-changing request): a socket from
another site's page never gets here.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time

from starlette.routing import WebSocketRoute
from starlette.types import Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from app.db.errors import is_unavailable
from app.i18n.context import reset_language, set_language
from app.i18n.middleware import language_of
from app.logging_setup import enter_request, leave_request
from app.metrics import count_error
from app.realtime.connection import Connection
from app.realtime.hub import Hub
from app.realtime.protocol import (
    CLOSE_INTERNAL,
    CLOSE_POLICY,
    CLOSE_TRY_AGAIN,
    ActionMsg,
    ChatMsg,
    PingMsg,
    ProtocolError,
    ResyncMsg,
    error_frame,
    parse_client,
    pong_frame,
)
from app.realtime.registry import RoomRegistry
from app.realtime.room import Room
from app.realtime.storage import Viewer
from app.settings import Settings
from app.shared.errors import ServiceError
from app.shared.http import OriginPolicy, client_address, has_control_characters, session_token

log = logging.getLogger(__name__)

MAX_GAME_ID = 2**31 - 1  # beyond an int column: no such game


def socket_caps(viewer: Viewer, address: str, settings: Settings) -> list[tuple[str, int]]:
    """The counters an open socket takes a place in, each with its limit (all must have room):
    per user and per address for signed-in users, per address for anonymous spectators."""
    if viewer.user_id is None:
        return [(f"addr:{address}", settings.max_sockets_per_address)]
    return [
        (f"user:{viewer.user_id}", settings.max_sockets_per_user),
        (f"signed:{address}", settings.max_signed_in_sockets_per_address),
    ]


async def game_socket(websocket: WebSocket) -> None:
    """`WS /ws/games/{game_id}`: follow (and play) a game live; see docs/protocol.md.

    A plain Starlette route, not a FastAPI one: a socket lives for hours, and FastAPI's
    per-request machinery (dependency solving, exit stacks) would stay in memory all that time.
    """
    hub: Hub = websocket.app.state.realtime
    game_id = websocket.path_params["game_id"]
    settings: Settings = websocket.app.state.settings
    if not 1 <= game_id <= MAX_GAME_ID:
        # Before accepting: the browser sees a refused handshake (HTTP 403), and learns nothing.
        await websocket.close(code=CLOSE_POLICY)
        return
    invite = websocket.query_params.get("invite_code")
    invite = invite[:64] if invite else None
    await hub.start()  # normally done at startup; harmless if already running
    try:
        viewer = await hub.run(hub.store.authorise, game_id, session_token(websocket), invite)
    except ServiceError as exc:
        # Accept so the client can read why (a refused handshake carries no reason to JS).
        await _refuse(websocket, error_frame(exc.code, exc.message), CLOSE_POLICY)
        return
    except Exception as exc:
        if is_unavailable(exc):
            log.warning("socket for game %s: database unavailable: %s", game_id, exc)
            frame = error_frame(
                "unavailable",
                "the database is unavailable; reconnect soon",
                retry_after=hub.retry_after_s,
            )
            await _refuse(websocket, frame, CLOSE_TRY_AGAIN)
        else:
            log.exception("socket for game %s: authorisation failed", game_id)
            await _refuse(websocket, error_frame("internal", "the server failed"), CLOSE_INTERNAL)
        return
    await websocket.accept()
    # Per-socket limits do not stop one client from opening hundreds of sockets: cap them.
    caps = socket_caps(viewer, client_address(websocket), settings)
    full = next(((k, n) for k, n in caps if hub.sockets_by_key[k] >= n), None)
    if full is not None:
        await websocket.send_text(
            error_frame("too_many_sockets", f"at most {full[1]} open sockets; close some tabs")
        )
        await websocket.close(code=CLOSE_POLICY)
        return
    for key, _limit in caps:
        hub.sockets_by_key[key] += 1
    try:
        await _follow(hub, game_id, viewer, websocket)
    finally:
        for key, _limit in caps:
            hub.sockets_by_key[key] -= 1
            if hub.sockets_by_key[key] <= 0:
                del hub.sockets_by_key[key]


async def _refuse(websocket: WebSocket, frame: str, code: int) -> None:
    with contextlib.suppress(Exception):
        await websocket.accept()
        await websocket.send_text(frame)
        await websocket.close(code=code)


async def _follow(hub: Hub, game_id: int, viewer: Viewer, websocket: WebSocket) -> None:
    """Join the game's room and serve the socket until it closes."""
    conn = Connection(websocket, viewer, hub.limits)
    try:
        room = await (await _registry_for(hub, game_id, viewer)).join(game_id, conn)
    except Exception:
        log.exception("joining game %s failed", game_id)
        room = None
    if room is None:
        await conn.shutdown()
        await websocket.send_text(error_frame("not_found", f"game {game_id} is unavailable"))
        await websocket.close(code=CLOSE_POLICY)
        return
    conn.on_drop = room.leave
    hub.opened(conn)
    # Seen on connect and on disconnect (the room's heartbeat marks it in between): the grace
    # period before a bot may stand in counts from the disconnect. The first mark is written
    # while the socket is already read: a seat may act as soon as its state arrives, and its
    # move must not queue behind a presence write (a game's first move waited for its seats'
    # marks, about 10 ms, when they joined together).
    seen = asyncio.ensure_future(_mark_seen(hub, room, viewer))
    try:
        await _serve(hub, room, conn, websocket)
    finally:
        hub.closed(conn)
        room.leave(conn)
        await conn.shutdown()
        await seen  # the closing mark is written after the opening one, never before it
        await _mark_seen(hub, room, viewer, closing=True)


async def _registry_for(hub: Hub, game_id: int, viewer: Viewer) -> RoomRegistry:
    """The game's rooms, or for a spectator of a table with a spectator delay the delayed
    rooms (delayed_rooms.py), which show the game only as far as the delay allows."""
    delayed = hub.delayed
    return hub.registry if delayed is None else await delayed.registry_for(game_id, viewer)


async def _mark_seen(hub: Hub, room: Room, viewer: Viewer, closing: bool = False) -> None:
    """Mark a seated viewer seen (and their socket open), or, as their last socket here closes,
    seen with no socket open."""
    snap = room.snap
    user_id = viewer.user_id
    if user_id is None or snap is None or snap.seat_of(user_id) is None:
        return
    try:
        if not closing:
            await hub.seen_marks.mark(room.game_id, user_id)  # with other sockets opening now
        elif not any(c.viewer.user_id == user_id for c in room.conns):
            await hub.run(hub.store.socket_closed, room.game_id, user_id)
        else:  # another socket of theirs is still open here
            await hub.run(hub.store.mark_seen_many, {room.game_id: [user_id]})
    except Exception as exc:  # presence is best effort: a socket must not die over it
        log.warning("could not mark user %s seen in game %s: %s", user_id, room.game_id, exc)


async def _serve(hub: Hub, room: Room, conn: Connection, websocket: WebSocket) -> None:
    """Read frames until the peer leaves or we drop it; one message at a time, in order."""
    while True:
        try:
            message = await websocket.receive()
        except (WebSocketDisconnect, RuntimeError):
            return
        if message["type"] == "websocket.disconnect":
            return
        if conn.closed or conn.closing:
            # Closing: keep draining until the peer answers the close, so the connection ends
            # with a clean close frame rather than a reset that could lose our last frames.
            continue
        data = message.get("text")
        if data is None:
            data = message.get("bytes") or b""
        if not conn.messages.take():
            _refuse_flood(conn)
            continue
        parsed = parse_client(data)
        if isinstance(parsed, ProtocolError):
            conn.send(error_frame(parsed.code, parsed.message, parsed.id))
            if parsed.close is not None:
                conn.close_after_queue(parsed.close)
            continue
        await dispatch(hub, room, conn, parsed)


def _refuse_flood(conn: Connection) -> None:
    """Drop a frame over the rate; report it at most once a second; close sustained floods."""
    if not conn.strikes.take():
        conn.send(error_frame("rate_limited", "too many messages: closing"))
        conn.close_after_queue(CLOSE_POLICY)
        return
    now = time.monotonic()
    if now - conn.limit_reported_at >= 1.0:
        conn.limit_reported_at = now
        conn.send(error_frame("rate_limited", "too many messages; some were dropped"))


async def dispatch(
    hub: Hub, room: Room, conn: Connection, msg: ActionMsg | ResyncMsg | ChatMsg | PingMsg
) -> None:
    """One parsed client message to the part that handles it (actions answer for themselves,
    with their id, whatever fails)."""
    if isinstance(msg, ActionMsg):
        await hub.authority.act(room, conn, msg)
        return
    try:
        if isinstance(msg, ResyncMsg):
            await room.resync(conn, msg.version)
        elif isinstance(msg, ChatMsg):
            await hub.chat.say(room, conn, msg.text)
        else:
            conn.send(pong_frame(int(time.time() * 1000)))
    except Exception as exc:
        # A bug or the database away: answer, keep the socket (the client may retry).
        if is_unavailable(exc):
            log.warning("socket message in game %s: database unavailable: %s", room.game_id, exc)
            conn.send(
                error_frame(
                    "unavailable",
                    "the database is unavailable; try again",
                    retry_after=hub.retry_after_s,
                )
            )
            return
        log.exception("socket message in game %s failed", room.game_id)
        conn.send(error_frame("internal", "the server failed to handle that message"))


def route() -> WebSocketRoute:
    """The socket route, to add to the app's router."""
    return WebSocketRoute(ROUTE, game_socket)


ROUTE = "/ws/games/{game_id:int}"
_ROUTE_PATH = re.compile(r"^/ws/games/([0-9]{1,10})$")


class SocketDoor:
    """The way in for a game socket, at the app's outermost layer (main.SeaDragonsApp): the
    upgrade passes its own checks here, in this one frame (the log context, control characters
    in the path or query, the Origin, the reader's language), then goes straight to
    `game_socket`, past the HTTP middleware, the exception handlers and the router.

    A socket lives for hours, and every layer it passes keeps a suspended frame (and its
    closures) for all that time: at 10,000 spectators each kilobyte per socket is 10 MB
    (docs/benchmarks.md). Any other request goes through the app as usual.
    """

    def __init__(self, origins: OriginPolicy) -> None:
        self.origins = origins

    def matches(self, scope: Scope) -> bool:
        """Whether this is a game socket's upgrade."""
        return scope["type"] == "websocket" and _ROUTE_PATH.match(scope.get("path", "")) is not None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        scope["path_params"] = {"game_id": _game_id_of(scope)}  # as the route would
        # (Every local here lives as long as the socket: plain tokens, no `with` generators.)
        request = enter_request(scope)
        language = set_language(language_of(scope))  # the socket's error frames are in it
        try:
            # Refused before accepting: the browser sees a refused handshake (HTTP 403).
            if has_control_characters(scope):
                count_error("invalid_request", "ws")
                await send({"type": "websocket.close", "code": CLOSE_POLICY})
                return
            if not self.origins.allows(scope):
                count_error("bad_origin", "ws")
                await send({"type": "websocket.close", "code": CLOSE_POLICY})
                return
            await game_socket(WebSocket(scope, receive, send))
        finally:
            reset_language(language)
            leave_request(request)


def _game_id_of(scope: Scope) -> int:
    match = _ROUTE_PATH.match(scope["path"])
    assert match is not None  # SocketDoor.matches said so
    return int(match[1])

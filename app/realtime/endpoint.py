"""`WS /ws/games/{id}`: origin and access checks on the upgrade, then the message loop."""

from __future__ import annotations

import contextlib
import logging
import time
from urllib.parse import urlsplit

from anyio import to_thread
from itsdangerous import BadSignature
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from app.db.errors import is_unavailable
from app.realtime import store
from app.realtime.connection import Connection
from app.realtime.hub import RETRY_AFTER_S, Hub
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
from app.realtime.room import Room
from app.services.errors import ServiceError
from app.settings import Settings
from app.web.deps import COOKIE

log = logging.getLogger(__name__)


def origin_allowed(websocket: WebSocket, settings: Settings) -> bool:
    """Same-origin or a configured origin; no Origin header means a non-browser client.

    Browsers always send Origin on WebSocket upgrades and attach cookies cross-site, so this
    check is what stops another site from playing with a visitor's session (CSWSH).
    """
    origin = websocket.headers.get("origin")
    if origin is None:
        return True
    origin = origin.strip().rstrip("/").lower()
    if origin in (o.rstrip("/").lower() for o in settings.allowed_origins):
        return True
    parts = urlsplit(origin)
    host = websocket.headers.get("host", "").lower()
    return parts.scheme in ("http", "https") and bool(host) and parts.netloc == host


def session_token(websocket: WebSocket) -> str | None:
    """The session token from the signed cookie (as app.web.deps does for HTTP)."""
    cookie = websocket.cookies.get(COOKIE)
    if not cookie:
        return None
    try:
        return websocket.app.state.signer.unsign(cookie).decode()
    except BadSignature:
        return None


MAX_GAME_ID = 2**31 - 1  # beyond an int column: no such game


async def game_socket(websocket: WebSocket) -> None:
    """`WS /ws/games/{game_id}`: follow (and play) a game live; see docs/protocol.md.

    A plain Starlette route, not a FastAPI one: a socket lives for hours, and FastAPI's
    per-request machinery (dependency solving, exit stacks) would stay in memory all that time.
    """
    hub: Hub = websocket.app.state.realtime
    game_id = websocket.path_params["game_id"]
    settings: Settings = websocket.app.state.settings
    if not 1 <= game_id <= MAX_GAME_ID or not origin_allowed(websocket, settings):
        # Before accepting: the browser sees a refused handshake (HTTP 403), and learns nothing.
        await websocket.close(code=CLOSE_POLICY)
        return
    invite = websocket.query_params.get("invite_code")
    invite = invite[:64] if invite else None
    await hub.start()  # normally done at startup; harmless if already running
    try:
        viewer = await to_thread.run_sync(
            store.authorise, hub.sessions, game_id, session_token(websocket), invite
        )
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
                retry_after=RETRY_AFTER_S,
            )
            await _refuse(websocket, frame, CLOSE_TRY_AGAIN)
        else:
            log.exception("socket for game %s: authorisation failed", game_id)
            await _refuse(websocket, error_frame("internal", "the server failed"), CLOSE_INTERNAL)
        return
    await websocket.accept()
    # Per-socket limits do not stop one client from opening hundreds of sockets: cap them.
    key = f"user:{viewer.user_id}" if viewer.user_id else f"addr:{_address(websocket)}"
    limit = settings.max_sockets_per_user if viewer.user_id else settings.max_sockets_per_address
    if hub.sockets_by_key[key] >= limit:
        await websocket.send_text(
            error_frame("too_many_sockets", f"at most {limit} open sockets; close some tabs")
        )
        await websocket.close(code=CLOSE_POLICY)
        return
    hub.sockets_by_key[key] += 1
    try:
        await _follow(hub, game_id, viewer, websocket)
    finally:
        hub.sockets_by_key[key] -= 1
        if hub.sockets_by_key[key] <= 0:
            del hub.sockets_by_key[key]


async def _refuse(websocket: WebSocket, frame: str, code: int) -> None:
    with contextlib.suppress(Exception):
        await websocket.accept()
        await websocket.send_text(frame)
        await websocket.close(code=code)


def _address(websocket: WebSocket) -> str:
    return websocket.client.host if websocket.client else "unknown"


async def _follow(hub: Hub, game_id: int, viewer: store.Viewer, websocket: WebSocket) -> None:
    """Join the game's room and serve the socket until it closes."""
    conn = Connection(websocket, viewer, hub.limits)
    try:
        room = await hub.join(game_id, conn)
    except Exception:
        log.exception("joining game %s failed", game_id)
        room = None
    if room is None:
        await conn.shutdown()
        await websocket.send_text(error_frame("not_found", f"game {game_id} is unavailable"))
        await websocket.close(code=CLOSE_POLICY)
        return
    conn.on_drop = room.leave
    hub.register(conn)
    # Seen on connect and on disconnect (the room's heartbeat marks it in between): the grace
    # period before a bot may stand in counts from the disconnect.
    await _mark_seen(hub, room, viewer)
    try:
        await _serve(hub, room, conn, websocket)
    finally:
        hub.unregister(conn)
        room.leave(conn)
        await conn.shutdown()
        await _mark_seen(hub, room, viewer, closing=True)


async def _mark_seen(hub: Hub, room: Room, viewer: store.Viewer, closing: bool = False) -> None:
    """Mark a seated viewer seen (and their socket open), or, as their last socket here closes,
    seen with no socket open."""
    snap = room.snap
    user_id = viewer.user_id
    if user_id is None or snap is None or snap.seat_of(user_id) is None:
        return
    try:
        if not closing:
            seen = {room.game_id: [user_id]}
            await to_thread.run_sync(store.mark_seen_many, hub.sessions, seen, hub.socket_ttl_s)
        elif not any(c.viewer.user_id == user_id for c in room.conns):
            await to_thread.run_sync(store.socket_closed, hub.sessions, room.game_id, user_id)
        else:  # another socket of theirs is still open here
            await to_thread.run_sync(store.mark_seen_many, hub.sessions, {room.game_id: [user_id]})
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
        await _dispatch(hub, room, conn, parsed)


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


async def _dispatch(
    hub: Hub, room: Room, conn: Connection, msg: ActionMsg | ResyncMsg | ChatMsg | PingMsg
) -> None:
    try:
        if isinstance(msg, ActionMsg):
            await hub.action(room, conn, msg)
        elif isinstance(msg, ResyncMsg):
            await room.resync(conn, msg.version)
        elif isinstance(msg, ChatMsg):
            await hub.chat(room, conn, msg.text)
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
                    retry_after=RETRY_AFTER_S,
                )
            )
            return
        log.exception("socket message in game %s failed", room.game_id)
        conn.send(error_frame("internal", "the server failed to handle that message"))


def route() -> WebSocketRoute:
    """The socket route, to add to the app's router."""
    return WebSocketRoute("/ws/games/{game_id:int}", game_socket)

"""`WS /ws/games/{id}`: origin and access checks on the upgrade, then the message loop."""

from __future__ import annotations

import logging
import time
from urllib.parse import urlsplit

from anyio import to_thread
from fastapi import APIRouter, WebSocket
from itsdangerous import BadSignature
from starlette.websockets import WebSocketDisconnect

from app.realtime import store
from app.realtime.connection import Connection
from app.realtime.hub import Hub
from app.realtime.protocol import (
    CLOSE_POLICY,
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
from app.services.presence import seen_while_connected
from app.settings import Settings
from app.web.deps import COOKIE

log = logging.getLogger(__name__)
router = APIRouter()


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


MAX_SOCKETS_PER_USER = 20  # many tabs and games at once, but not a flood
MAX_SOCKETS_PER_ADDRESS = 100  # anonymous spectators; several people may share one address


@router.websocket("/ws/games/{game_id}")
async def game_socket(websocket: WebSocket, game_id: int) -> None:
    """Follow (and play) a game live; see docs/protocol.md."""
    hub: Hub = websocket.app.state.realtime
    if not origin_allowed(websocket, websocket.app.state.settings):
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
        await websocket.accept()
        await websocket.send_text(error_frame(exc.code, exc.message))
        await websocket.close(code=CLOSE_POLICY)
        return
    await websocket.accept()
    # Per-socket limits do not stop one client from opening hundreds of sockets: cap them.
    key = f"user:{viewer.user_id}" if viewer.user_id else f"addr:{_address(websocket)}"
    limit = MAX_SOCKETS_PER_USER if viewer.user_id else MAX_SOCKETS_PER_ADDRESS
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


def _address(websocket: WebSocket) -> str:
    return websocket.client.host if websocket.client else "unknown"


async def _follow(hub: Hub, game_id: int, viewer: store.Viewer, websocket: WebSocket) -> None:
    """Join the game's room and serve the socket until it closes."""
    conn = Connection(websocket, viewer)
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
    try:
        # Seen on connect, every 20 s and on disconnect: the grace period before a bot may stand in.
        async with seen_while_connected(hub.sessions, game_id, viewer.user_id):
            await _serve(hub, room, conn, websocket)
    finally:
        room.leave(conn)
        await conn.shutdown()


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
            conn.send(pong_frame())
    except Exception:
        # A bug or the database away: answer, keep the socket (the client may retry).
        log.exception("socket message in game %s failed", room.game_id)
        conn.send(error_frame("internal", "the server failed to handle that message"))

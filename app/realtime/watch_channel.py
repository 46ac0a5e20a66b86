"""`WS /ws/watch`: one socket per page for every live public game at a glance.

A page opens one socket, whatever the number of games it shows (not one per game). The
channel reads the live public games once per SEADRAGONS_WATCH_TICK_SECONDS (at least 1 s:
the throttle, so a game changes at most once a second on it) while anyone listens, builds each
game's summary once (app/services/watching/watch.py: the spectator's view, at the version the
spectator
delay allows) and sends every socket of a kind the same text. Three kinds, by `?view=`:

- `list` (/watch): the full list on connect, then one frame per tick holding only the games
  that changed, the ones gone, and the order (most interesting first);
- `featured` (the home page, /tv): the featured game (the most interesting, kept until it
  ends, then the next best);
- `follow` (a profile's "watch their next game", `&user=USERNAME`): which live public game the
  account plays now, and every change of it.

docs/protocol.md ("The watch channel") has every frame.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import time
from dataclasses import dataclass, field
from typing import Any, Literal

from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from app.realtime.connection import Connection
from app.realtime.endpoint import socket_caps
from app.realtime.protocol import (
    CLOSE_POLICY,
    CLOSE_RESTARTING,
    check_size,
    dumps,
    error_frame,
    pong_frame,
)
from app.realtime.storage import Viewer
from app.services.accounts.users import USERNAME_INPUT
from app.services.watching import watch
from app.settings import Settings
from app.shared.http import client_address

log = logging.getLogger(__name__)

View = Literal["list", "featured", "follow"]
VIEWS = ("list", "featured", "follow")
USERNAME = re.compile(USERNAME_INPUT)  # as an account's username is typed (any case)


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


class WatchQueryError(ValueError):
    """A bad `?view=` / `?user=`: the socket is told why and closed (1008)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def parse_query(params: Any) -> tuple[View, str | None]:
    """The socket's kind and followed username, parsed once at the edge."""
    view = params.get("view", "list")
    if view not in VIEWS:
        raise WatchQueryError("bad_request", f"view is one of {', '.join(VIEWS)}, not {view!r:.40}")
    user = params.get("user")
    if view == "follow":
        if not user or not USERNAME.fullmatch(user):
            raise WatchQueryError("bad_request", "view=follow needs user=USERNAME (an account)")
        return "follow", user.lower()  # usernames are stored in lower case
    if user is not None:
        raise WatchQueryError("bad_request", "user= goes with view=follow only")
    return view, None  # type: ignore[return-value]


@dataclass(eq=False)
class WatchSocket:
    """One open watch socket: its connection, kind, and what it was last sent."""

    conn: Connection
    view: View
    user: str | None = None
    synced: bool = False  # holds the current picture (list), or its first frame was sent
    last: str | None = None  # the featured/follow frame last sent (sent again only on change)


@dataclass
class Picture:
    """One read of the live games: summaries in interest order, by id, and the follows."""

    games: list[dict[str, Any]]
    texts: dict[int, str] = field(default_factory=dict)  # id -> the summary's JSON
    follows: dict[str, int] = field(default_factory=dict)
    featured: int | None = None  # the featured game's id


class WatchChannel:
    """Every watch socket of this process, and the one reader that feeds them all."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.settings: Settings = app.state.settings
        self.sockets: set[WatchSocket] = set()
        # Every listed game's current board, and the one before (a move lands between reads).
        self.boards = watch.BoardCache(2 * self.settings.watch_max_games)
        self.picture: Picture | None = None
        self.featured: int | None = None
        self._task: asyncio.Task[None] | None = None

    # --- the reader -----------------------------------------------------------------------

    def spectator_counts(self) -> dict[int, int]:
        """Spectators per game as this process's rooms last reported them (their presence
        frames merge every instance's counts for a game watched here)."""
        hub = self.app.state.realtime
        rooms = list(hub.rooms.values())
        delayed = hub.delayed
        if delayed is not None:
            rooms += list(delayed.rooms.values())
        out: dict[int, int] = {}
        for room in rooms:
            frame = room.presence.frame
            if frame:
                count = int(json.loads(frame).get("spectators", 0))
                out[room.game_id] = max(out.get(room.game_id, 0), count)
        return out

    def _read(self, spectators: dict[int, int], users: list[str]) -> Picture:
        with self.app.state.sessionmaker() as db:
            games = watch.summaries(db, spectators, self.settings.watch_max_games, self.boards)
            follows = watch.followed(db, users)
        return Picture(games, {g["id"]: dumps(g) for g in games}, follows)

    async def refresh(self) -> None:
        """Read once and send every socket what changed for it."""
        hub = self.app.state.realtime
        users = sorted({s.user for s in self.sockets if s.user is not None})
        new = await hub.run(self._read, self.spectator_counts(), users)
        old, self.picture = self.picture, new
        ids = [g["id"] for g in new.games]
        # Kept while it is live (and listed): then the next best.
        if self.featured not in new.texts:
            self.featured = ids[0] if ids else None
        new.featured = self.featured
        delta = self._list_frame(new, old)
        full: str | None = None  # built only for sockets that hold no picture yet
        for sock in list(self.sockets):
            if sock.view == "list":
                if not sock.synced:
                    full = full or self._list_frame(new, None)
                    sock.conn.send(full)  # type: ignore[arg-type]
                    sock.synced = True
                elif delta is not None:
                    sock.conn.send(delta)
            else:
                self._send_if_changed(sock)

    def _list_frame(self, new: Picture, old: Picture | None) -> str | None:
        """The list frame turning `old` into `new` (everything when `old` is None); None when
        nothing changed."""
        order = [g["id"] for g in new.games]
        if old is None:
            return (
                '{"type":"watch","full":true,"games":['
                + ",".join(new.texts[i] for i in order)
                + f'],"gone":[],"order":{_json(order)},"featured":{_json(new.featured)}}}'
            )
        changed = [i for i in order if old.texts.get(i) != new.texts[i]]
        gone = [i for i in old.texts if i not in new.texts]
        old_order = [g["id"] for g in old.games]
        if not changed and not gone and order == old_order and old.featured == new.featured:
            return None
        return (
            '{"type":"watch","full":false,"games":['
            + ",".join(new.texts[i] for i in changed)
            + f'],"gone":{_json(gone)},"order":{_json(order)},"featured":{_json(new.featured)}}}'
        )

    def _frame_for(self, sock: WatchSocket) -> str | None:
        pic = self.picture
        if pic is None:
            return None
        if sock.view == "featured":
            text = pic.texts.get(self.featured) if self.featured is not None else None
            return '{"type":"featured","game":' + (text or "null") + "}"
        game_id = pic.follows.get(sock.user or "")
        return dumps({"type": "follow", "user": sock.user, "game_id": game_id})

    def _send_if_changed(self, sock: WatchSocket) -> None:
        frame = self._frame_for(sock)
        if frame is not None and frame != sock.last:
            sock.last = frame
            sock.synced = True
            sock.conn.send(frame)

    async def _run(self) -> None:
        tick = self.settings.watch_tick_seconds
        loop = asyncio.get_running_loop()
        try:
            while self.sockets:
                began = loop.time()
                try:
                    await self.refresh()
                except Exception as exc:  # the database away: the sockets stay, try next tick
                    log.warning("watch refresh failed: %s", exc)
                # The throttle: one read (so one update per game) per tick at most.
                await asyncio.sleep(max(0.0, tick - (loop.time() - began)))
        finally:
            self._task = None
            self.picture = None  # nobody listens: read afresh when someone comes back

    # --- sockets --------------------------------------------------------------------------

    def add(self, sock: WatchSocket) -> None:
        """A new socket: it gets the current picture at once if there is one, else the next."""
        self.sockets.add(sock)
        if self.picture is not None:
            if sock.view == "list":
                frame = self._list_frame(self.picture, None)
                if frame is not None:
                    sock.conn.send(frame)
                sock.synced = True
            elif sock.view == "featured" or sock.user in self.picture.follows:
                self._send_if_changed(sock)
            # A new follow is read on the next tick (its account was not in this read).
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run(), name="watch")

    def remove(self, sock: WatchSocket) -> None:
        """A socket closed."""
        self.sockets.discard(sock)

    async def stop(self) -> None:
        """Close every watch socket (1012: reconnect, maybe elsewhere) and the reader."""
        for sock in list(self.sockets):
            sock.conn.drop(CLOSE_RESTARTING)
        self.sockets.clear()
        task = self._task
        if task is not None:
            task.cancel()
            with contextlib.suppress(BaseException):
                await task


async def watch_socket(websocket: WebSocket) -> None:
    """`WS /ws/watch?view=list|featured|follow[&user=USERNAME]`; see docs/protocol.md."""
    app = websocket.app
    channel: WatchChannel = app.state.watch
    settings: Settings = app.state.settings
    hub = app.state.realtime
    await websocket.accept()
    try:
        view, user = parse_query(websocket.query_params)
    except WatchQueryError as exc:
        await _refuse(websocket, error_frame(exc.code, exc.message))
        return
    if len(channel.sockets) >= settings.watch_max_sockets:
        await _refuse(
            websocket, error_frame("too_many_sockets", "the server is at its watch socket limit")
        )
        return
    # Watch sockets take a place in the per-address caps of anonymous spectators' sockets.
    caps = socket_caps(Viewer(None, None), client_address(websocket), settings)
    full = next(((k, n) for k, n in caps if hub.sockets_by_key[k] >= n), None)
    if full is not None:
        await _refuse(
            websocket,
            error_frame("too_many_sockets", f"at most {full[1]} open sockets; close some tabs"),
        )
        return
    for key, _limit in caps:
        hub.sockets_by_key[key] += 1
    conn = Connection(websocket, Viewer(None, None), hub.limits)
    sock = WatchSocket(conn, view, user)
    conn.on_drop = lambda _c: channel.remove(sock)
    channel.add(sock)
    try:
        await _serve(conn, websocket)
    finally:
        channel.remove(sock)
        await conn.shutdown()
        for key, _limit in caps:
            hub.sockets_by_key[key] -= 1
            if hub.sockets_by_key[key] <= 0:
                del hub.sockets_by_key[key]


async def _refuse(websocket: WebSocket, frame: str) -> None:
    with contextlib.suppress(Exception):
        await websocket.send_text(frame)
        await websocket.close(code=CLOSE_POLICY)


async def _serve(conn: Connection, websocket: WebSocket) -> None:
    """The channel only listens for `ping` (answered with `pong`); anything else is refused."""
    while True:
        try:
            message = await websocket.receive()
        except (WebSocketDisconnect, RuntimeError):
            return
        if message["type"] == "websocket.disconnect" or conn.closed:
            return
        if not conn.messages.take():
            conn.send(error_frame("rate_limited", "too many messages; some were dropped"))
            continue
        data = message.get("text") or message.get("bytes") or ""
        too_big = check_size(data)
        if too_big is not None:
            conn.send(error_frame(too_big.code, too_big.message))
            continue
        try:
            kind = json.loads(data).get("type") if isinstance(data, str) else None
        except (ValueError, AttributeError, RecursionError):
            kind = None
        if kind == "ping":
            conn.send(pong_frame(int(time.time() * 1000)))
        else:
            conn.send(error_frame("unknown_type", "the watch channel takes only ping"))


def install(app: Any) -> WatchChannel:
    """Create the channel (app.state.watch) and mount its route."""
    channel = WatchChannel(app)
    app.state.watch = channel
    app.router.routes.append(WebSocketRoute("/ws/watch", watch_socket))
    return channel

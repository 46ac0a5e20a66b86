"""Real servers in subprocesses, a WebSocket client that rebuilds its document, REST helpers."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import jsonpatch
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from app.engine import expand_legal
from app.realtime.protocol import unbundled
from tests import tiers

ORIGIN = "http://game.example"


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`seadragons serve` in a subprocess; can be SIGKILLed and started again on its port."""

    def __init__(
        self,
        data_dir: Path,
        database_url: str,
        redis_url: str | None,
        env: dict[str, str] | None = None,
    ) -> None:
        self.port = free_port()
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("SEADRAGONS_")}
        self.env.update(
            SEADRAGONS_DATA_DIR=str(data_dir),
            SEADRAGONS_DATABASE_URL=database_url,
            SEADRAGONS_SECRET_KEY="realtime-test-secret",
            SEADRAGONS_ALLOWED_ORIGINS=ORIGIN,
        )
        if redis_url:
            self.env["SEADRAGONS_REDIS_URL"] = redis_url
        self.env.update(env or {})
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = data_dir / f"server-{self.port}.log"

    @property
    def http(self) -> str:
        """Base URL for REST."""
        return f"http://127.0.0.1:{self.port}"

    def ws(self, game_id: int, invite_code: str | None = None) -> str:
        """The socket URL of a game."""
        q = f"?invite_code={invite_code}" if invite_code else ""
        return f"ws://127.0.0.1:{self.port}/ws/games/{game_id}{q}"

    def start(self) -> Server:
        """Start and wait until /healthz answers."""
        tiers.starts("server", "a server process")
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "app.cli", "serve", "--port", str(self.port)],
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        # A start-up takes a few seconds of CPU: on a busy shared machine, far longer to come.
        deadline = time.monotonic() + 120
        while True:
            try:
                if httpx.get(f"{self.http}/healthz", timeout=1).status_code == 200:
                    return self
            except httpx.TransportError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"server did not start: {self.log.read_text()[-3000:]}")
            time.sleep(0.05)

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs, as in a crash."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        """SIGTERM and wait."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


class TcpProxy:
    """A TCP forwarder the test can cut: to one server, the database behind it is "away".

    Cutting refuses new connections and resets the open ones, as a database that restarts or a
    network that drops does; nothing happens to the database itself (never the machine's own).
    """

    def __init__(self, target_host: str, target_port: int) -> None:
        self.target = (target_host, target_port)
        self.port = free_port()
        self.up = True
        self._conns: set[socket.socket] = set()
        self._lock = threading.Lock()
        self._listener = socket.create_server(("127.0.0.1", self.port))
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            if not self.up:
                client.close()
                continue
            try:
                upstream = socket.create_connection(self.target, timeout=10)
                upstream.settimeout(None)  # idle pooled connections must live on
            except OSError:
                client.close()
                continue
            with self._lock:
                if not self.up:  # cut while we connected
                    client.close()
                    upstream.close()
                    continue
                self._conns |= {client, upstream}
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    def _pipe(self, src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for sock in (src, dst):
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)

    def cut(self) -> None:
        """Refuse new connections and drop every open one."""
        self.up = False
        with self._lock:
            conns, self._conns = self._conns, set()
        for sock in conns:
            # shutdown() first: it wakes the pipe threads blocked in recv(); close() alone would
            # leave the connection half alive until they return.
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            with contextlib.suppress(OSError):
                sock.close()

    def restore(self) -> None:
        """Let connections through again."""
        self.up = True

    def close(self) -> None:
        """Stop listening and drop everything."""
        self.cut()
        self._listener.close()


class PrivateRedis:
    """A `redis-server` of the test's own on a free port (never the machine's), restartable."""

    def __init__(self, workdir: Path) -> None:
        self.port = free_port()
        self.workdir = workdir
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """Its URL for SEADRAGONS_REDIS_URL."""
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> PrivateRedis:
        """Start and wait until it accepts connections."""
        tiers.starts("server", "a private redis-server")
        exe = shutil.which("redis-server")
        assert exe is not None, "redis-server is not installed"
        self.proc = subprocess.Popen(
            [
                exe,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.workdir),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            with (
                contextlib.suppress(OSError),
                socket.create_connection(("127.0.0.1", self.port), 1),
            ):
                return self
            time.sleep(0.05)
        raise AssertionError("private redis-server did not start")

    def stop(self) -> None:
        """Kill it (its pub/sub clients see the connection drop)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)


async def guest(server: Server, name: str) -> httpx.AsyncClient:
    """A REST client signed in as a new guest."""
    client = httpx.AsyncClient(base_url=server.http, timeout=15)
    r = await client.post("/api/session/guest", json={"name": name})
    assert r.status_code == 200, r.text
    return client


async def new_game(
    server: Server, players: int = 2, **options: Any
) -> tuple[int, list[httpx.AsyncClient], str]:
    """Open, fill and start a game; (game id, clients by seat, invite code)."""
    host = await guest(server, "Ann")
    r = await host.post("/api/games", json={"players": players, "first_player": 0, **options})
    assert r.status_code == 201, r.text
    game = r.json()
    clients = [host]
    for i in range(1, players):
        c = await guest(server, f"P{i + 1}")
        body = {"invite_code": game["invite_code"]}
        assert (await c.post(f"/api/games/{game['id']}/join", json=body)).status_code == 200
        clients.append(c)
    assert (await host.post(f"/api/games/{game['id']}/start")).status_code == 200
    return game["id"], clients, game["invite_code"]


def cookie_of(client: httpx.AsyncClient | None) -> str | None:
    """The `Cookie` header value a browser would send for this client's session."""
    if client is None:
        return None
    return "; ".join(f"{k}={v}" for k, v in client.cookies.items())


def canonical(actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Legal actions in one order (sorted by their JSON), to compare lists from two paths."""
    return sorted(actions, key=lambda a: json.dumps(a, sort_keys=True))


def expanded(wire: dict[str, Any]) -> dict[str, Any]:
    """A socket document as GET /state has it: the compact legal actions expanded (sorted)."""
    return {
        "view": wire["view"],
        "legal_actions": canonical(expand_legal(wire["legal"])),
        "clock": wire.get("clock"),
    }


def rest_doc(state: dict[str, Any]) -> dict[str, Any]:
    """The document part of a GET /state answer, legal actions sorted like `expanded`."""
    return {
        "view": state["view"],
        "legal_actions": canonical(state["legal_actions"]),
        "clock": state.get("clock"),
    }


class WsClient:
    """A socket that applies every `state` and `patch` to its own copy of the document."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.raw: list[str] = []  # every frame received, verbatim
        self.frames: list[dict[str, Any]] = []
        # The document as sent (legal actions in their compact form), and as a REST client
        # sees it: `{"view", "legal_actions"}` with the legal actions expanded and sorted.
        self.wire: dict[str, Any] | None = None
        self.doc: dict[str, Any] | None = None
        self.version = -1
        self.seat: int | None = None
        self.conn: ClientConnection | None = None
        self.closed: tuple[int | None, str] | None = None
        self._reader: asyncio.Task[None] | None = None
        self._changed = asyncio.Event()
        self.url = ""
        self.headers: dict[str, str] = {}

    async def open(
        self, url: str, cookie: str | None = None, origin: str | None = ORIGIN
    ) -> WsClient:
        """Connect (with the session cookie and Origin, like a browser)."""
        self.url = url
        self.headers = {"Cookie": cookie} if cookie else {}
        if origin is not None:
            self.headers["Origin"] = origin
        self.closed = None
        self.conn = await connect(url, additional_headers=self.headers, proxy=None)
        self._reader = asyncio.create_task(self._read())
        return self

    async def _read(self) -> None:
        assert self.conn is not None
        try:
            async for text in self.conn:
                assert isinstance(text, str)
                self.raw.append(text)
                for frame in unbundled(json.loads(text)):
                    self._take(frame)
                self._changed.set()
        except ConnectionClosed:
            pass
        finally:
            rcvd = self.conn.protocol.close_rcvd
            self.closed = (rcvd.code, rcvd.reason) if rcvd else (None, "")
            self._changed.set()

    def _take(self, frame: dict[str, Any]) -> None:
        self.frames.append(frame)
        if frame["type"] == "state":
            meta = ("type", "game_id", "version", "status", "seat", "to_act")
            self.wire = {k: v for k, v in frame.items() if k not in meta}
            self.doc = expanded(self.wire)
            self.version, self.seat = frame["version"], frame["seat"]
        elif frame["type"] == "patch" and frame["version"] > self.version:
            # (Older patches are answers to a resync from further back: not ours to apply.)
            assert self.wire is not None and frame["base"] == self.version, frame
            self.wire = jsonpatch.apply_patch(self.wire, frame["ops"])
            self.doc = expanded(self.wire)
            self.version = frame["version"]

    async def send(self, frame: dict[str, Any] | str) -> None:
        """Send a frame (a dict is JSON-encoded)."""
        assert self.conn is not None
        await self.conn.send(frame if isinstance(frame, str) else json.dumps(frame))

    async def until(self, pred: Callable[[], bool], timeout: float = 10) -> None:
        """Wait until `pred()` holds (checked after each frame)."""
        deadline = asyncio.get_running_loop().time() + timeout
        while not pred():
            if self.closed is not None and not pred():
                raise AssertionError(f"{self.name}: socket closed {self.closed}")
            self._changed.clear()
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                last = [t[:300] for t in self.raw[-3:]]
                raise AssertionError(f"{self.name}: timed out; last frames {last}")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), left)

    async def frame(
        self, pred: Callable[[dict[str, Any]], bool], start: int = 0, timeout: float = 10
    ) -> dict[str, Any]:
        """The first frame from index `start` matching `pred` (waiting for it)."""
        found: list[dict[str, Any]] = []

        def check() -> bool:
            found[:] = [f for f in self.frames[start:] if pred(f)][:1]
            return bool(found)

        await self.until(check, timeout)
        return found[0]

    async def at_version(self, version: int, timeout: float = 10) -> None:
        """Wait until the document reached `version`."""
        await self.until(lambda: self.version >= version, timeout)

    async def roundtrip(self) -> None:
        """Ping and wait for the pong: every reply to earlier frames has arrived by then."""
        start = len(self.frames)
        await self.send({"type": "ping"})
        await self.frame(lambda f: f["type"] == "pong", start)

    async def close(self) -> None:
        """Close the socket and stop reading."""
        if self.conn is not None:
            await self.conn.close()
        if self._reader is not None:
            with contextlib.suppress(BaseException):
                await self._reader

    async def act(
        self, action: dict[str, Any], msg_id: str | int, timeout: float = 10
    ) -> dict[str, Any]:
        """Send an action against our version; the ack or error answering it."""
        start = len(self.frames)
        await self.send({"type": "action", "id": msg_id, "version": self.version, "action": action})
        return await self.frame(
            lambda f: f["type"] in ("ack", "error") and f.get("id") == msg_id, start, timeout
        )

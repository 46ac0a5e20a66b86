"""The proxy's game routing, on the real Caddy with deploy/Caddyfile: every request of one game
(socket, pages, API) reaches one instance, different games spread over the instances, and when
an instance goes, only its games move."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import SimpleNamespace

import httpx
import pytest
from websockets.exceptions import InvalidStatus

from tests.conftest import service_missing
from tests.ops.private_services import wait_until
from tests.ops.proxy import PrivateCaddy, caddy_binary, local_caddyfile
from tests.realtime.helpers import Server, WsClient, cookie_of, new_game, rest_doc

GAMES = range(1, 61)


def _paths(game: int) -> list[str]:
    """Where a game is reached: its socket, its pages, its API (what the app serves:
    app/realtime/endpoint.py ROUTE, app/web/pages.py, app/web/api_*.py)."""
    return [
        f"/ws/games/{game}",
        f"/ws/games/{game}?invite_code=abc",
        f"/games/{game}",
        f"/games/{game}/replay",
        f"/api/games/{game}/state",
        f"/api/games/{game}/actions",
    ]


class _Upstream:
    """An instance stand-in: answers every path with its name (and /readyz with 200)."""

    def __init__(self, name: str) -> None:
        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                body = name.encode()
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass

        self.name = name
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.address = f"127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def stack() -> Iterator[tuple[PrivateCaddy, list[_Upstream]]]:
    if caddy_binary() is None:
        service_missing("caddy", "the caddy binary is not installed (apt-get install caddy)")
    upstreams = [_Upstream(f"web{i}") for i in range(1, 4)]
    caddy = PrivateCaddy([u.address for u in upstreams]).start()
    try:
        yield caddy, upstreams
    finally:
        caddy.stop()
        for u in upstreams:
            u.stop()


def _where(client: httpx.Client, path: str) -> str:
    r = client.get(path)
    assert r.status_code == 200, (path, r.status_code, r.text[:200])
    return r.text


@pytest.mark.server
def test_one_game_one_instance_and_games_spread(
    stack: tuple[PrivateCaddy, list[_Upstream]],
) -> None:
    caddy, upstreams = stack
    with httpx.Client(base_url=caddy.http, timeout=10) as client:
        home = {game: _where(client, f"/games/{game}") for game in GAMES}
        for game in GAMES:
            for path in _paths(game):
                assert _where(client, path) == home[game], (game, path)
        # Spread: three instances, 60 games; each gets a fair share (rendezvous hashing).
        counts = {u.name: sum(1 for h in home.values() if h == u.name) for u in upstreams}
        assert all(n >= 8 for n in counts.values()), counts
        # Requests without a game go to any instance (not all to one).
        others = {_where(client, "/rules") for _ in range(30)}
        assert len(others) >= 2, others

        # An instance goes: only its games move; everyone else's stay where they were.
        gone = upstreams[0]
        gone.stop()
        moved = {}

        def rerouted() -> bool:
            moved.update({g: _where(client, f"/games/{g}") for g in GAMES})
            return gone.name not in moved.values()

        wait_until(rerouted, 30, "the stopped instance's games to move")
        for game in GAMES:
            if home[game] != gone.name:
                assert moved[game] == home[game], game
            for path in _paths(game)[:3]:
                assert _where(client, path) == moved[game]


def test_local_caddyfile_is_the_stack_file_with_only_addresses_changed() -> None:
    text = local_caddyfile(8080, ["127.0.0.1:1", "127.0.0.1:2"])
    assert "lb_policy header X-Seadragons-Game" in text
    assert "reverse_proxy 127.0.0.1:1 127.0.0.1:2 {" in text
    assert "http://127.0.0.1:8080 {" in text
    assert "lb_policy round_robin" in local_caddyfile(8080, ["x:1"], route_games=False)


async def _mover(seats: list[WsClient], deadline_s: float = 20) -> WsClient:
    """The seat whose document offers actions (a reconnected seat's state may still be on its
    way)."""
    end = time.monotonic() + deadline_s
    while True:
        for ws in seats:
            if ws.doc and ws.doc["legal_actions"]:
                return ws
        assert time.monotonic() < end, [ws.raw[-2:] for ws in seats]
        await asyncio.sleep(0.05)


async def _reconnect(ws: WsClient, deadline_s: float = 30) -> None:
    """What the client does: reopen (through the proxy) with backoff, then ask for what it
    missed."""
    version = ws.version
    end = time.monotonic() + deadline_s
    while True:
        try:
            await ws.open(ws.url, ws.headers.get("Cookie"))
            break
        except (OSError, InvalidStatus):
            if time.monotonic() > end:
                raise
            await asyncio.sleep(0.2)
    await ws.send({"type": "resync", "version": version})


@pytest.mark.server
@pytest.mark.anyio
async def test_a_game_moved_by_the_proxy_catches_up_on_the_other_instance(
    redis_url: str, tmp_path: Path, make_postgres_db: Callable[[], str]
) -> None:
    """Two real instances on one Postgres and Redis behind the stack's Caddy: every socket of a
    game lands on one instance; that instance is SIGKILLed; the sockets reconnect through the
    proxy, land on the other, and follow the game on."""
    if caddy_binary() is None:
        service_missing("caddy", "the caddy binary is not installed (apt-get install caddy)")
    url = make_postgres_db()
    token = {"SEADRAGONS_METRICS_TOKEN": "t"}
    servers = [Server(tmp_path / name, url, redis_url, env=token) for name in ("a", "b")]
    for s in servers:
        s.log.parent.mkdir()
        s.start()
    caddy = PrivateCaddy([f"127.0.0.1:{s.port}" for s in servers]).start()
    sockets: list[WsClient] = []
    try:
        front = SimpleNamespace(http=caddy.http)  # the game is made through the proxy too
        gid, players, _ = await new_game(front)  # type: ignore[arg-type]
        ws_url = f"ws://127.0.0.1:{caddy.port}/ws/games/{gid}"
        seats = [
            await WsClient(f"seat{i}").open(ws_url, cookie_of(c)) for i, c in enumerate(players)
        ]
        sockets = [*seats, await WsClient("spectator").open(ws_url)]
        version = 0
        for i in range(3):
            mover = await _mover(seats)
            reply = await mover.act(mover.doc["legal_actions"][0], f"m{i}")
            assert reply["type"] == "ack", reply
            version = reply["version"]
            for ws in sockets:
                await ws.at_version(version)
        # Every socket of the game is on one instance, and no move was replayed on the other.
        rooms = [_metric(s, "seadragons_open_sockets") for s in servers]
        assert sorted(rooms) == [0.0, 3.0], rooms
        home = rooms.index(3.0)
        servers[home].kill()
        for ws in sockets:
            await ws.until(lambda ws=ws: ws.closed is not None, timeout=20)
        for ws in sockets:
            await _reconnect(ws)
        other = servers[1 - home]
        # A socket is counted once the server has loaded its game, just after the handshake the
        # client saw: on a slow machine the count lagged the reconnects (read 0.0 at once).
        wait_until(
            lambda: _metric(other, "seadragons_open_sockets") == 3.0,
            timeout=20,
            what="the other instance to count the 3 reconnected sockets",
        )
        for i in range(2):
            mover = await _mover(seats)
            reply = await mover.act(mover.doc["legal_actions"][0], f"after{i}")
            assert reply["type"] == "ack", reply
            version = reply["version"]
            for ws in sockets:
                await ws.at_version(version)
        async with httpx.AsyncClient(base_url=other.http) as anyone:
            truth = (await anyone.get(f"/api/games/{gid}/state")).json()
        assert truth["version"] == version
        assert sockets[-1].doc == rest_doc(truth)
    finally:
        for ws in sockets:
            await ws.close()
        caddy.stop()
        for s in servers:
            s.stop()


def _metric(server: Server, name: str) -> float:
    """One unlabelled sample of a server's /metrics (the test servers set a metrics token)."""
    text = httpx.get(
        f"{server.http}/metrics", headers={"Authorization": "Bearer t"}, timeout=10
    ).text
    for line in text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    raise AssertionError(f"{name} not in /metrics")

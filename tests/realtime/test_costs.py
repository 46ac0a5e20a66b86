"""What sockets cost the server: presence frames linear in the room, bounded action-id memory,
and several worker processes on one port."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings
from tests.realtime.helpers import PrivateRedis, Server, WsClient, cookie_of, free_port, new_game

pytestmark = pytest.mark.anyio


async def test_opening_many_sockets_costs_presence_frames_linear_in_their_number(
    server: Server,
) -> None:
    """Each join used to re-send presence to every socket of the room (n^2/2 frames for n)."""
    gid, _players, _ = await new_game(server)
    n = 100
    clients = [WsClient(f"spec{i}") for i in range(n)]
    await asyncio.gather(*(c.open(server.ws(gid)) for c in clients))

    def counted_all(c: WsClient) -> bool:
        return any(f["type"] == "presence" and f["spectators"] >= n for f in c.frames)

    for c in clients:  # everyone hears the final count (coalesced, not lost)
        await c.until(lambda c=c: counted_all(c), timeout=30)
    frames = sum(f["type"] == "presence" for c in clients for f in c.frames)
    print(f"\n{n} sockets: {frames} presence frames ({frames / n:.1f} per socket)")
    assert frames <= 10 * n, frames  # quadratic would be about n * n / 2 = 5,000
    for c in clients:
        await c.close()


@pytest.fixture
def app_client(tmp_path: Path) -> Iterator[tuple[TestClient, Callable[[str], TestClient]]]:
    """An app in this process (its hub inspectable), with a small action-id memory budget."""
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'costs.db'}",
        data_dir=tmp_path,
        secret_key="costs",
        recent_action_bytes=64 * 1024,
        bot_sweep_seconds=0,
        ws_messages_per_second=1000,
        ws_message_burst=1000,
    )
    app = create_app(settings)
    made: list[TestClient] = []

    def guest(name: str) -> TestClient:
        c = TestClient(app)
        made.append(c)
        assert c.post("/api/session/guest", json={"name": name}).status_code == 200
        return c

    with TestClient(app) as main:
        yield main, guest
    for c in made:
        c.close()


def test_refused_actions_leave_no_memory_behind(
    app_client: tuple[TestClient, Callable[[str], TestClient]],
) -> None:
    """the seat is checked before anything is remembered; what is remembered is a
    digest and the reply, within the byte budget, whatever the actions' size."""
    main, guest = app_client
    hub = main.app.state.realtime  # type: ignore[attr-defined]
    host, other = guest("Host"), guest("Other")
    game = host.post("/api/games", json={"players": 2, "first_player": 0}).json()
    assert other.post(f"/api/games/{game['id']}/join").status_code == 200
    assert host.post(f"/api/games/{game['id']}/start").status_code == 200
    junk = "x" * 15_000  # under the 16 KiB frame cap
    for i in range(20):  # guests who hold no seat: refused, nothing remembered
        watcher = guest(f"Watcher{i}")
        with watcher.websocket_connect(f"/ws/games/{game['id']}") as ws:
            for j in range(16):
                ws.send_text(
                    json.dumps(
                        {
                            "type": "action",
                            "id": f"x{j}",
                            "version": 0,
                            "action": {"type": "pass", "junk": junk},
                        }
                    )
                )
            codes = _replies(ws, 16)
        assert codes == ["not_seated"] * 16
    assert len(hub.authority.recent) == 0 and hub.authority.recent.bytes == 0
    # A seated player may be remembered, but only digests and replies, within the budget.
    with host.websocket_connect(f"/ws/games/{game['id']}") as ws:
        for j in range(300):
            ws.send_text(
                json.dumps(
                    {
                        "type": "action",
                        "id": f"s{j}",
                        "version": 0,
                        "action": {"type": "pass", "junk": junk},
                    }
                )
            )
        codes = _replies(ws, 300)
    assert len(codes) == 300 and "internal" not in codes  # each refused by the engine
    assert 0 < len(hub.authority.recent) <= 64  # per player and game
    assert hub.authority.recent.bytes <= 64 * 1024
    assert hub.authority.recent.bytes < 64 * 2_000, "the actions themselves are not kept"


def _replies(ws: object, n: int) -> list[str]:
    """The codes of the next `n` error frames (other frames skipped)."""
    codes: list[str] = []
    while len(codes) < n:
        frame = ws.receive_json()  # type: ignore[attr-defined]
        if frame["type"] == "error":
            codes.append(frame["code"])
    return codes


@pytest.mark.server
def test_workers_without_redis_are_refused_with_a_clear_message(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SEADRAGONS_")}
    env.update(SEADRAGONS_DATA_DIR=str(tmp_path), SEADRAGONS_SECRET_KEY="w")
    proc = subprocess.run(
        [sys.executable, "-m", "app.cli", "serve", "--port", str(free_port()), "--workers", "2"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    assert "SEADRAGONS_REDIS_URL" in proc.stderr


@pytest.mark.server
async def test_two_workers_on_one_port_push_every_move_to_every_socket(
    tmp_path: Path, make_migrated_postgres_db: Callable[[], str]
) -> None:
    redis = PrivateRedis(tmp_path).start()
    server = Server(tmp_path, make_migrated_postgres_db(), redis.url)
    port = server.port
    cmd = [sys.executable, "-m", "app.cli", "serve", "--port", str(port), "--workers", "2"]
    with open(server.log, "ab") as out:
        proc = subprocess.Popen(cmd, env=server.env, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while True:
            with contextlib.suppress(httpx.TransportError):
                if httpx.get(f"{server.http}/healthz", timeout=1).status_code == 200:
                    break
            assert proc.poll() is None and time.monotonic() < deadline, server.log.read_text()
            await asyncio.sleep(0.1)
        gid, players, _ = await new_game(server)
        # Several sockets: the kernel spreads them over both workers.
        clients = [
            await WsClient(f"c{i}").open(
                server.ws(gid), cookie_of(players[i % 2]) if i < 4 else None
            )
            for i in range(8)
        ]
        for c in clients:
            await c.at_version(0)
        version = 0
        for i in range(6):
            mover = next(c for c in clients if c.doc and c.doc["legal_actions"])
            reply = await mover.act(mover.doc["legal_actions"][0], f"w{i}")
            assert reply["type"] == "ack", reply
            version = reply["version"]
            for c in clients:
                await c.at_version(version, timeout=5)
        pids = {w.split()[0] for w in _children(proc.pid)}
        assert len(pids) >= 2, "two worker processes"
        for c in clients:
            await c.close()
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
        redis.stop()


def _children(pid: int) -> list[str]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                if int(fields[1]) == pid:
                    out.append(entry.name)
    return out


METRICS_TOKEN = "realtime-metrics-token"


def _room_updates(server: Server) -> dict[str, float]:
    """The server's seadragons_room_updates_total counters by source, from /metrics."""
    bearer = {"authorization": f"Bearer {METRICS_TOKEN}"}
    text = httpx.get(f"{server.http}/metrics", headers=bearer, timeout=10).text
    out: dict[str, float] = {}
    for line in text.splitlines():
        if line.startswith("seadragons_room_updates_total{"):
            source = line.split('source="')[1].split('"')[0]
            out[source] = float(line.rsplit(" ", 1)[1])
    return out


@pytest.mark.server
async def test_another_instances_moves_are_replayed_not_read_back(
    redis_url: str, tmp_path: Path, make_migrated_postgres_db: Callable[[], str]
) -> None:
    """a notice carries the move; an instance one version behind replays it with
    the (deterministic) engine instead of reloading the game from the database."""
    url = make_migrated_postgres_db()
    metrics = {"SEADRAGONS_METRICS_TOKEN": METRICS_TOKEN}  # /metrics is off the port otherwise
    a = Server(tmp_path / "a", url, redis_url, env=metrics)
    b = Server(tmp_path / "b", url, redis_url, env=metrics)
    for s in (a, b):
        s.log.parent.mkdir()
        s.start()
    try:
        gid, players, _ = await new_game(a)
        seat0 = await WsClient("seat0@A").open(a.ws(gid), cookie_of(players[0]))
        seat1 = await WsClient("seat1@A").open(a.ws(gid), cookie_of(players[1]))
        watch = await WsClient("spec@B").open(b.ws(gid))
        for ws in (seat0, seat1, watch):
            await ws.at_version(0)
        before = _room_updates(b)
        version = 0
        for i in range(10):
            mover = next(ws for ws in (seat0, seat1) if ws.doc and ws.doc["legal_actions"])
            reply = await mover.act(mover.doc["legal_actions"][0], f"r{i}")
            assert reply["type"] == "ack", reply
            version = reply["version"]
            for ws in (seat0, seat1, watch):
                await ws.at_version(version)
        after = _room_updates(b)
        replays = after.get("replay", 0) - before.get("replay", 0)
        reloads = after.get("reload", 0) - before.get("reload", 0)
        assert replays >= 9 and reloads <= 1, (before, after)
        # Rebuilt by replaying, B's spectator holds exactly what the API says.
        state = (await httpx.AsyncClient(base_url=b.http).get(f"/api/games/{gid}/state")).json()
        assert watch.doc is not None and watch.doc["view"] == state["view"]
        for ws in (seat0, seat1, watch):
            await ws.close()
    finally:
        a.stop()
        b.stop()

"""Web-only and worker-only processes on one Postgres and one Redis: the web process runs no bot,
no sweep and no job; workers do, publish their moves on the bus for the web's sockets, and share
the work without doing any of it twice, a killed worker's included."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest

from tests import tiers
from tests.realtime.helpers import ORIGIN, Server, WsClient, cookie_of, guest, new_game

pytestmark = [pytest.mark.anyio, pytest.mark.server]

QUICK = {
    "SEADRAGONS_BOT_DELAY_SECONDS": "0",
    "SEADRAGONS_BOT_SWEEP_SECONDS": "1",
    "SEADRAGONS_BOT_PROCESSES": "0",
    "SEADRAGONS_WORKER_TURN_LEASE_SECONDS": "2",
    "SEADRAGONS_CLOCK_SWEEP_SECONDS": "0.2",
    "SEADRAGONS_JOBS_POLL_SECONDS": "0.2",
}
TOKEN = "worker-test-metrics"


class Worker:
    """`seadragons worker` in a subprocess."""

    def __init__(self, data_dir: Path, name: str, env: dict[str, str]) -> None:
        self.env = env
        self.log = data_dir / f"worker-{name}.log"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> Worker:
        tiers.starts("server", "a worker process")
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "app.cli", "worker"],
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + 120
        while "started:" not in self.text():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"worker did not start: {self.text()[-3000:]}")
            time.sleep(0.05)
        return self

    def text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def kill(self) -> None:
        """SIGKILL: nothing of its shutdown runs, its leases are left to run out."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture
def cluster(
    tmp_path: Path, make_migrated_postgres_db: Callable[[], str], redis_url: str
) -> Iterator[Callable[..., Any]]:
    """Start a web-only server (`web()`) and workers (`worker(name)`) on one fresh database."""
    url = make_migrated_postgres_db()
    started: list[Any] = []

    def web(**env: str) -> Server:
        server = Server(
            tmp_path,
            url,
            redis_url,
            env={**QUICK, "SEADRAGONS_ROLE": "web", "SEADRAGONS_METRICS_TOKEN": TOKEN, **env},
        )
        started.append(server)
        return server.start()

    def worker(name: str, **env: str) -> Worker:
        base = {k: v for k, v in os.environ.items() if not k.startswith("SEADRAGONS_")}
        base.update(
            SEADRAGONS_DATA_DIR=str(tmp_path),
            SEADRAGONS_DATABASE_URL=url,
            SEADRAGONS_REDIS_URL=redis_url,
            SEADRAGONS_SECRET_KEY="realtime-test-secret",
            **QUICK,
            **env,
        )
        one = Worker(tmp_path, name, base)
        started.append(one)
        return one.start()

    yield lambda kind, *args, **env: web(**env) if kind == "web" else worker(*args, **env)
    for process in reversed(started):
        process.stop()


def _db(url: str, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    with psycopg.connect(url) as conn:
        return conn.execute(sql, args).fetchall()


async def _bot_decisions(server: Server) -> float:
    """Bot decisions the web process made, from its own /metrics."""
    async with httpx.AsyncClient(base_url=server.http) as client:
        text = (await client.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})).text
    return sum(
        float(line.rsplit(" ", 1)[1])
        for line in text.splitlines()
        if line.startswith("seadragons_bot_decision_seconds_count")
    )


async def _bots_only_game(server: Server) -> tuple[int, httpx.AsyncClient]:
    host = await guest(server, "Ann")
    r = await host.post("/api/games", json={"players": 2, "first_player": 0})
    gid = r.json()["id"]
    assert (await host.post(f"/api/games/{gid}/bots", json={"level": "random"})).status_code == 200
    assert (await host.post(f"/api/games/{gid}/start")).status_code == 200
    r = await host.post(f"/api/games/{gid}/seats/0/bot", json={"level": "random"})
    assert r.status_code == 200, r.text
    return gid, host


async def _finished(client: httpx.AsyncClient, gid: int, timeout: float = 90) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        state = (await client.get(f"/api/games/{gid}/state")).json()
        if state["status"] == "finished":
            return state
        assert time.monotonic() < deadline, f"game {gid} still {state['status']}"
        await asyncio.sleep(0.1)


async def test_a_bot_game_is_played_to_the_end_by_workers_seen_on_the_web_socket(
    cluster: Callable[..., Any],
) -> None:
    web = cluster("web")
    first = cluster("worker", "a")
    cluster("worker", "b")
    gid, host = await _bots_only_game(web)
    ws = await WsClient("host").open(web.ws(gid), cookie_of(host))
    await ws.until(lambda: ws.version >= 3, timeout=30)
    first.kill()  # mid-game: the other worker carries on (its lease and sweep)
    state = await _finished(host, gid)
    await ws.at_version(state["version"], timeout=30)
    assert ws.doc is not None and ws.doc["view"] == state["view"]
    # Every move once, in order; each seat's bot moved; none of it decided in the web process.
    log = (await host.get(f"/api/games/{gid}/log")).json()["moves"]
    assert [m["seq"] for m in log] == list(range(1, state["version"] + 1))
    assert {m["seat"] for m in log} == {0, 1}
    assert await _bot_decisions(web) == 0
    await ws.close()
    await host.aclose()


async def test_a_turn_that_runs_out_is_claimed_by_the_worker(cluster: Callable[..., Any]) -> None:
    web = cluster("web")
    worker = cluster("worker", "a")
    clock = {"mode": "live", "initial": 1, "per_turn": 0}
    gid, players, _ = await new_game(web, 2, clock=clock)
    ws = await WsClient("seat1").open(web.ws(gid), cookie_of(players[1]), origin=ORIGIN)
    await ws.at_version(0)
    await ws.at_version(1, timeout=30)  # nobody moved: the worker's sweep played the turn
    log = (await players[1].get(f"/api/games/{gid}/log")).json()["moves"]
    assert log[0]["seat"] == 0
    deadline = time.monotonic() + 10
    while "ran out of time" not in worker.text():
        assert time.monotonic() < deadline, worker.text()[-2000:]
        await asyncio.sleep(0.1)
    assert "ran out of time" not in web.log.read_text(errors="replace")
    await ws.close()
    for c in players:
        await c.aclose()


async def test_a_worker_killed_mid_analysis_leaves_it_to_another_done_once(
    cluster: Callable[..., Any],
) -> None:
    # A short lease, so a's runs out soon after it is killed (b keeps its own while it works);
    # analyses at the ordinary priority: at their niceness they wait behind every busy process
    # of a loaded machine, and this test is of leases, not of priorities.
    slow = {
        "SEADRAGONS_JOBS_LEASE_SECONDS": "3",
        "SEADRAGONS_REVIEW_ROUNDS": "2",
        "SEADRAGONS_REVIEW_NICE": "0",
    }
    web = cluster("web")
    a = cluster("worker", "a", **slow)
    gid, host = await _bots_only_game(web)
    await _finished(host, gid)
    r = await host.post(f"/api/games/{gid}/analysis")
    assert r.status_code == 202, r.text
    deadline = time.monotonic() + 60
    while True:
        r = await host.get(f"/api/games/{gid}/analysis")
        assert r.status_code == 202, "the analysis ended before the worker could be killed"
        if r.json()["status"] == "running":
            break
        assert time.monotonic() < deadline, r.text
        await asyncio.sleep(0.05)
    b = cluster("worker", "b", **slow)  # two workers; a holds the job
    a.kill()
    deadline = time.monotonic() + 180
    while (r := await host.get(f"/api/games/{gid}/analysis")).status_code != 200:
        assert time.monotonic() < deadline, r.text
        await asyncio.sleep(0.2)
    url = b.env["SEADRAGONS_DATABASE_URL"]
    jobs = _db(url, "SELECT status, attempts FROM jobs WHERE kind = 'game_analysis'")
    assert jobs == [("done", 2)]  # claimed twice (a's lease ran out, b took it), done once
    assert _db(url, "SELECT count(*) FROM game_analyses") == [(1,)]
    await host.aclose()

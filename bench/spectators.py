"""Many spectators on one instance: what each costs, and how fast every one of them has a move.

One `seadragons serve` (one process, memory bus) on its own Postgres database. `--games` games of
4 guest seats play at a human's pace (each game one move every `--pace` seconds, a random legal
action, the games' first moves spread over the first `--pace`), first with no spectators, then
with each count of `--spectators` anonymous spectator sockets spread evenly over the games.
For each step it reports:
- seat ack p50/p99 (action sent -> its ack), and the server's CPU per committed move;
- per spectator and version, action sent -> that spectator holds the version (p50/p99/max), and
  per version, action sent -> every spectator of the game holds it (p50/p99);
- server RSS per spectator socket (opened on the running server, before and after), the
  presence frames opening them cost, and the spectators dropped as too slow (close 1013);
- the CPU share of a core the server and this client process used while playing (a client near
  a whole core means the latencies measure the client, not the server).

Spectators are light clients (websockets' sans-I/O protocol on a bare asyncio protocol, no task
per socket), so the client process can hold 10,000 of them beside the server on 2 cores; they
read each frame's version from its first bytes and never build documents. The soft limit of open
files is raised to the hard one here (the server inherits it); the per-address socket cap is
opened in bench/load.py's server environment.

Run: .venv/bin/python bench/spectators.py [--games 100] [--spectators 1000,10000] [--pace 2]
     [--seconds 30] [--slow 0] [--spy FILE]
Prints one JSON object (progress on stderr); docs/benchmarks.md records it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import random
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from websockets.client import ClientProtocol
from websockets.frames import Opcode
from websockets.http11 import Response
from websockets.uri import parse_uri

sys.path.insert(0, str(Path(__file__).resolve().parent))

import load

# A change's patch comes first, alone or at the head of a `frames` frame (one per change).
_PATCH = re.compile(
    rb'^\{"type":"(?:frames","frames":\[\{"type":")?patch","base":(\d+),"version":(\d+)'
)
_STATE_VERSION = re.compile(rb'"version":(\d+)')


class Versions:
    """When each game's versions were asked for (the mover's send) and who holds them."""

    def __init__(self) -> None:
        self.sent_at: dict[tuple[int, int], float] = {}  # (game, version) -> action sent
        self.pending: dict[tuple[int, int], int] = {}  # (game, version) -> spectators missing
        self.one: list[float] = []  # per spectator and version: sent -> held
        self.every: list[float] = []  # per version: sent -> every spectator of the game holds it
        self.spectators_of: dict[int, int] = {}  # game -> open spectators
        self.measuring = False

    def held(self, game_id: int, version: int, now: float) -> None:
        key = (game_id, version)
        sent = self.sent_at.get(key)
        if sent is None or not self.measuring:
            return
        self.one.append(now - sent)
        left = self.pending.get(key, self.spectators_of.get(game_id, 0)) - 1
        if left <= 0:
            self.every.append(now - sent)
            self.pending.pop(key, None)
        else:
            self.pending[key] = left


class Spectator(asyncio.Protocol):
    """An anonymous spectator socket: the handshake, then each frame's version; nothing else."""

    def __init__(self, game_id: int, url: str, versions: Versions, slow: bool) -> None:
        self.game_id = game_id
        self.versions = versions
        self.slow = slow  # stops reading after its first state: the server must drop it
        self.ws = ClientProtocol(parse_uri(url), max_size=2**22)
        self.transport: asyncio.Transport | None = None
        self.version = -1
        self.ready = asyncio.get_running_loop().create_future()
        self.closed_code: int | None = None
        self.presence_frames = 0
        self.resyncs = 0

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        self.ws.send_request(self.ws.connect())
        self._flush()

    def data_received(self, data: bytes) -> None:
        self.ws.receive_data(data)
        now = time.perf_counter()
        for event in self.ws.events_received():
            if isinstance(event, Response):
                if event.status_code != 101 and not self.ready.done():
                    self.ready.set_exception(RuntimeError(f"handshake {event.status_code}"))
                continue
            if event.opcode is Opcode.TEXT:
                self._frame(event.data, now)
            elif event.opcode is Opcode.CLOSE:
                self.closed_code = self.ws.close_code
        self._flush()

    def _frame(self, data: bytes, now: float) -> None:
        m = _PATCH.match(data)
        if m is not None:
            base, version = int(m[1]), int(m[2])
            if base != self.version:
                self.resyncs += 1
                self.ws.send_text(json.dumps({"type": "resync", "version": self.version}).encode())
                return
            self.version = version
            self.versions.held(self.game_id, version, now)
        elif data.startswith(b'{"type":"state"'):
            version = int(_STATE_VERSION.search(data)[1])  # type: ignore[index]
            if self.version >= 0 and version > self.version:
                self.versions.held(self.game_id, version, now)
            self.version = version
            if not self.ready.done():
                self.ready.set_result(None)
                if self.slow and self.transport is not None:
                    self.transport.pause_reading()
        elif data.startswith(b'{"type":"presence"'):
            self.presence_frames += 1

    def _flush(self) -> None:
        out = self.ws.data_to_send()
        if out and self.transport is not None and not self.transport.is_closing():
            self.transport.write(b"".join(out))

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.ready.done():
            self.ready.set_exception(ConnectionError("closed before its state"))
        if not self.slow:
            self.versions.spectators_of[self.game_id] -= 1

    def close(self) -> None:
        if self.transport is not None and not self.transport.is_closing():
            with contextlib.suppress(Exception):
                self.ws.send_close(1000)
                self._flush()
            self.transport.close()


class PacedPlayer(load.Player):
    """A seat that acts on its turn, but no sooner than `pace` seconds after its game's last
    move (as a quick human would), and tells `versions` when it asked for each version."""

    pace = 2.0
    versions: Versions

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._timer: asyncio.TimerHandle | None = None

    def _maybe_act(self) -> None:
        if self._timer is not None or self.cookie is None or self.doc is None:
            return
        if self.waiting is not None or self.run.done.is_set() or not self.doc.get("legal"):
            return
        last = getattr(self.run, "last_at", 0.0)
        delay = max(0.0, last + self.pace - time.perf_counter())
        self._timer = asyncio.get_running_loop().call_later(delay, self._act)

    def _act(self) -> None:
        self._timer = None
        if self.run.done.is_set():
            return
        self.run.last_at = time.perf_counter()  # type: ignore[attr-defined]
        version = self.version + 1
        super()._maybe_act()
        if self.waiting is not None:
            self.versions.sent_at[(self.run.game_id, version)] = self.run.sent_at[version]


async def open_spectators(
    port: int, games: list[int], count: int, versions: Versions, slow: int
) -> list[Spectator]:
    """`count` spectators spread over the games (the first `slow` of them stop reading)."""
    loop = asyncio.get_running_loop()
    sem = asyncio.Semaphore(100)
    out: list[Spectator] = []

    async def one(i: int) -> None:
        game_id = games[i % len(games)]
        url = f"ws://127.0.0.1:{port}/ws/games/{game_id}"
        async with sem:
            spec = Spectator(game_id, url, versions, i < slow)
            if not spec.slow:  # a slow one never holds a version: it only must not delay others
                versions.spectators_of[game_id] = versions.spectators_of.get(game_id, 0) + 1
            await loop.create_connection(lambda: spec, "127.0.0.1", port)
            await asyncio.wait_for(spec.ready, 600)  # a busy machine joins slowly
            out.append(spec)

    await asyncio.gather(*(one(i) for i in range(count)))
    return out


async def play(
    port: int,
    games: list[tuple[int, list[str]]],
    versions: Versions,
    seconds: float,
    pace: float,
    server: load.Proc,
) -> dict[str, Any]:
    """Seats play at `pace` for `seconds`; the seats' and the spectators' figures."""
    runs, players = [], []
    traffic = load.Traffic()
    for game_id, cookies in games:
        run = load.GameRun(game_id, len(cookies), budget=10**9)
        runs.append(run)
        url = f"ws://127.0.0.1:{port}/ws/games/{game_id}"
        for n, cookie in enumerate(cookies):
            p = PacedPlayer(run, url, cookie, traffic, random.Random(game_id * 10 + n))
            p.pace, p.versions = pace, versions
            players.append(p)
    sem = asyncio.Semaphore(50)

    async def open_one(p: PacedPlayer) -> None:
        async with sem:
            await p.open()
            await asyncio.wait_for(p.ready.wait(), 60)

    await asyncio.gather(*(open_one(p) for p in players))
    versions.one.clear()
    versions.every.clear()
    versions.pending.clear()
    versions.measuring = True
    cpu0, began, client0 = server.cpu_s(), time.perf_counter(), time.process_time()
    # Each game's first move comes at a random point of its first `pace`, as people sit down
    # at different times: started together, 100 games would move in step, in bursts.
    phase = random.Random(7)
    for r in runs:
        r.last_at = began - phase.uniform(0.0, pace)  # type: ignore[attr-defined]
        r.started = True
    for p in players:
        p._maybe_act()
    await asyncio.sleep(seconds)
    for r in runs:
        r.done.set()
    moves = sum(r.moves for r in runs)
    cpu = server.cpu_s() - cpu0
    elapsed = time.perf_counter() - began
    client_cpu = time.process_time() - client0
    await asyncio.sleep(min(5.0, pace * 2))  # the last moves reach everyone
    versions.measuring = False
    for p in players:
        await p.close()
    failures = [r.failed for r in runs if r.failed]
    if failures:
        raise RuntimeError(f"a seat's reader failed: {failures[0]}")
    ack = [x for r in runs for x in r.ack_s]
    return {
        "moves": moves,
        "moves_per_s": round(moves / elapsed, 1),
        "ack_p50_ms": load.pct(ack, 0.5),
        "ack_p99_ms": load.pct(ack, 0.99),
        "server_cpu_s": round(cpu, 2),
        "server_cpu_ms_per_move": round(cpu * 1000 / max(1, moves), 2),
        "server_cpu_share_of_a_core": round(cpu / elapsed, 3),
        # The clients share the machine: near 1.0, the latencies are the client's, not the server's.
        "client_cpu_share_of_a_core": round(client_cpu / elapsed, 3),
        "spectator_p50_ms": load.pct(versions.one, 0.5),
        "spectator_p99_ms": load.pct(versions.one, 0.99),
        "spectator_max_ms": load.pct(versions.one, 1.0),
        "every_spectator_p50_ms": load.pct(versions.every, 0.5),
        "every_spectator_p99_ms": load.pct(versions.every, 0.99),
        "versions_every_spectator_held": len(versions.every),
    }


async def run(args: argparse.Namespace) -> dict[str, Any]:
    """Every step, one server."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    need = max(args.spectators, default=0) + 4 * args.games + 200
    if hard < need:
        raise SystemExit(f"open files limit {hard} < {need}: raise `ulimit -Hn`")
    dbs = load.Databases()
    workdir = Path(tempfile.mkdtemp(prefix="seadragons-spectators-"))
    result: dict[str, Any] = {
        "load_average_start": load.load_average(),
        "games": args.games,
        "pace_s": args.pace,
        "seconds": args.seconds,
        "open_files": [soft, hard],
        "steps": [],
    }
    server = None
    try:
        server = load.project_server(dbs.create("spectators"), workdir, 1, None)
        made = await load.make_games(f"http://127.0.0.1:{server.port}", args.games)
        game_ids = [g for g, _ in made]
        for count in [0, *args.spectators]:
            versions = Versions()
            await asyncio.sleep(2.0)  # the previous step's sockets have closed
            rss0, began = server.rss_kib(), time.perf_counter()
            specs = await open_spectators(server.port, game_ids, count, versions, args.slow)
            opened_s = time.perf_counter() - began
            # This client holds as many sockets as the server: keep them out of its own
            # collector's full passes, which would otherwise pause it for most of a second
            # (the latencies would then measure the client).
            gc.freeze()
            await asyncio.sleep(3.0)  # presence settles
            rss1 = server.rss_kib()
            step: dict[str, Any] = {"spectators": count, "open_s": round(opened_s, 1)}
            if count:
                step["rss_kib_per_spectator"] = round((rss1 - rss0) / count, 1)
                step["presence_frames_per_spectator"] = round(
                    sum(s.presence_frames for s in specs) / count, 1
                )
            spy = None
            if args.spy and count == max(args.spectators, default=0):
                # Wall clock, waiting included: where the server spends a version's latency.
                spy = subprocess.Popen(
                    [
                        str(Path(sys.executable).parent / "py-spy"),
                        *("record", "--pid", str(server.proc.pid), "--subprocesses", "--idle"),
                        *("--nonblocking", "--rate", "50", "--format", "raw"),
                        *("--duration", str(int(args.seconds)), "--output", args.spy),
                    ],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            step.update(await play(server.port, made, versions, args.seconds, args.pace, server))
            if spy is not None:
                spy.wait(60)
            step["slow_dropped"] = sum(1 for s in specs if s.slow and s.closed_code == 1013)
            step["resyncs"] = sum(s.resyncs for s in specs)
            step["server_rss_kib"] = server.rss_kib()
            load.log(step)
            result["steps"].append(step)
            for s in specs:
                s.close()
            specs = []
            gc.unfreeze()  # the next step's sockets are frozen afresh
    finally:
        if server is not None:
            server.stop()
        dbs.drop_all()
        shutil.rmtree(workdir, ignore_errors=True)
    result["load_average_end"] = load.load_average()
    return result


def main() -> None:
    """Parse arguments, run, print the JSON result."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--spectators", default="1000,10000", help="spectator counts, in order")
    parser.add_argument(
        "--spy",
        help="record the server with py-spy (`pip install py-spy`) during the last step's play",
    )
    parser.add_argument("--pace", type=float, default=2.0, help="seconds between a game's moves")
    parser.add_argument("--seconds", type=float, default=30.0, help="play time per step")
    parser.add_argument("--slow", type=int, default=0, help="spectators that stop reading")
    args = parser.parse_args()
    args.spectators = [int(x) for x in args.spectators.split(",") if x]
    print(json.dumps(asyncio.run(run(args)), indent=2))


if __name__ == "__main__":
    main()

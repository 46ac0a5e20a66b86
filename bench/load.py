"""Real-time load: the stack's floor (bench/floor.py) and the project, side by side in one run.

What it measures, all on loopback, each server in its own process on its own Postgres database:
- the floor: round trip of one client (p50/p99) and messages/s with many clients;
- the project, one game of 4 seats + 2 spectators: action -> ack and action -> every socket of
  the game has the new version (p50/p99);
- the project at 10, 50 and 100 concurrent games (4 seats + 2 spectators each, every seat acting
  as soon as its turn comes): committed moves/s and ack p50/p99, with 1 and with N workers;
- bytes per move per seat and per spectator, and seat patches against the full state;
- server RSS per idle spectator socket with 1,000 sockets, the presence frames that opening them
  cost, and the RSS after they closed.

Bounded: every phase has a move budget and a deadline; databases are created and dropped here.
Run: .venv/bin/python bench/load.py [--quick] [--games 10,50,100] [--workers 2]
Prints one JSON object at the end (and progress on stderr); docs/benchmarks.md records it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import secrets
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
import psycopg
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.engine import expand_legal  # noqa: E402

ADMIN_URLS = [f"postgresql://{u}@127.0.0.1:5432/test" for u in ("postgres", "root")]


SINGLE_GAMES = 3  # games of 60 moves played one at a time for the latency figures


def log(*parts: Any) -> None:
    """Progress on stderr (stdout carries the JSON result)."""
    print(*parts, file=sys.stderr, flush=True)


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def pct(values: list[float], q: float) -> float | None:
    """The q-quantile (0..1) in milliseconds, rounded; None without values."""
    if not values:
        return None
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return round(ordered[k] * 1000, 2)


# --- databases and processes -----------------------------------------------------------------


class Databases:
    """Fresh Postgres databases for one run, dropped at the end."""

    def __init__(self) -> None:
        self.admin = next(u for u in ADMIN_URLS if _can_connect(u))
        self.names: list[str] = []

    def create(self, label: str) -> str:
        """A new empty database; its SQLAlchemy URL."""
        name = f"seadragons_bench_{label}_{int(time.time())}_{secrets.token_hex(3)}"
        with psycopg.connect(self.admin, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        self.names.append(name)
        return f"postgresql+psycopg://{self.admin.split('://')[1].rsplit('/', 1)[0]}/{name}"

    def drop_all(self) -> None:
        """Drop every database this run created."""
        with psycopg.connect(self.admin, autocommit=True) as conn:
            for name in self.names:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _can_connect(url: str) -> bool:
    try:
        with psycopg.connect(url, connect_timeout=3):
            return True
    except psycopg.Error:
        return False


class Proc:
    """A server subprocess on a port; RSS of it and its children."""

    def __init__(
        self,
        args: list[str],
        env: dict[str, str],
        port: int,
        logfile: Path,
        cwd: Path | None = None,
    ) -> None:
        self.port = port
        self.logfile = logfile
        with open(logfile, "ab") as out:
            self.proc = subprocess.Popen(
                args, env=env, stdout=out, stderr=subprocess.STDOUT, cwd=cwd
            )

    def wait_ready(self, path: str | None, timeout: float = 60) -> None:
        """Wait until the port accepts connections (and `path` answers 200, if given)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.logfile.read_text()[-2000:]}")
            try:
                if path is None:
                    with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                        return
                elif httpx.get(f"http://127.0.0.1:{self.port}{path}", timeout=2).status_code == 200:
                    return
            except (OSError, httpx.HTTPError):
                pass
            time.sleep(0.1)
        raise RuntimeError(f"server did not come up: {self.logfile.read_text()[-2000:]}")

    def rss_kib(self) -> int:
        """Resident memory of the server and its worker processes, in KiB."""
        pids = [self.proc.pid, *_children(self.proc.pid)]
        total = 0
        for pid in pids:
            with contextlib.suppress(OSError):
                for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
        return total

    def cpu_s(self) -> float:
        """CPU seconds (user + system) used so far by the server and its worker processes."""
        tick = os.sysconf("SC_CLK_TCK")
        total = 0
        for pid in [self.proc.pid, *_children(self.proc.pid)]:
            with contextlib.suppress(OSError):
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                total += int(fields[11]) + int(fields[12])  # utime, stime
        return total / tick

    def stop(self) -> None:
        """SIGTERM, then SIGKILL if it lingers."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


def _children(pid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                if int(fields[1]) == pid:
                    out.append(int(entry.name))
    return out


def start_redis(workdir: Path) -> tuple[subprocess.Popen[bytes], int] | None:
    """A private redis-server for multi-worker runs (never the machine's own)."""
    exe = shutil.which("redis-server")
    if exe is None:
        return None
    port = free_port()
    proc = subprocess.Popen(
        [exe, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        cwd=workdir,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
            return proc, port
        time.sleep(0.05)
    proc.kill()
    return None


def server_env(database_url: str, workdir: Path) -> dict[str, str]:
    """The environment of a project server under load: its own database and data dir, limits
    opened wide (every bench client comes from 127.0.0.1), quiet logs; nothing inherited from
    the caller's SEADRAGONS_* settings."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SEADRAGONS_")}
    env.update(
        SEADRAGONS_DATABASE_URL=database_url,
        SEADRAGONS_DATA_DIR=str(workdir),
        SEADRAGONS_SECRET_KEY="bench-secret",
        SEADRAGONS_MAX_SOCKETS_PER_USER="1000",
        SEADRAGONS_MAX_SOCKETS_PER_ADDRESS="100000",
        SEADRAGONS_MAX_SIGNED_IN_SOCKETS_PER_ADDRESS="5000",
        SEADRAGONS_MAX_LIVE_GAMES_PER_ADDRESS="100000",
        SEADRAGONS_GUEST_LIMITS_PER_ADDRESS="100000/minute",
        SEADRAGONS_ACCOUNT_LIMITS_PER_ADDRESS="100000/minute",
        SEADRAGONS_LOG_LEVEL="WARNING",
    )
    return env


def project_server(
    database_url: str,
    workdir: Path,
    workers: int,
    redis_port: int | None,
    root: Path | None = None,
) -> Proc:
    """`seadragons serve` on its own database, limits opened wide for the load; `root`: the
    checkout to run (another commit, for a before/after comparison in one run)."""
    port = free_port()
    env = server_env(database_url, workdir)
    if root is not None:
        env["PYTHONPATH"] = str(root)
    if redis_port is not None:
        env["SEADRAGONS_REDIS_URL"] = f"redis://127.0.0.1:{redis_port}/0"
    args = [sys.executable, "-m", "app.cli", "serve", "--port", str(port)]
    if workers > 1:
        args += ["--workers", str(workers)]
    proc = Proc(args, env, port, workdir / f"server-{port}.log", cwd=root)
    proc.wait_ready("/healthz")
    return proc


def floor_server(database_url: str, workdir: Path) -> Proc:
    """bench/floor.py on its own database."""
    port = free_port()
    args = [sys.executable, str(ROOT / "bench" / "floor.py"), "--port", str(port)]
    proc = Proc(
        [*args, "--database-url", database_url], dict(os.environ), port, workdir / "floor.log"
    )
    proc.wait_ready(None)
    return proc


# --- the floor -------------------------------------------------------------------------------


async def floor_round_trips(port: int, count: int) -> list[float]:
    """One client, one message at a time: seconds per round trip."""
    times = []
    async with connect(f"ws://127.0.0.1:{port}/ws", proxy=None) as ws:
        for i in range(count):
            began = time.perf_counter()
            await ws.send(json.dumps({"type": "action", "id": i, "body": "x" * 64}))
            await ws.recv()
            times.append(time.perf_counter() - began)
    return times


async def floor_throughput(
    port: int, clients: int, seconds: float, server: Proc | None = None
) -> dict[str, Any]:
    """Many clients, each one message at a time, for `seconds`: messages/s and latencies, and
    with `server` the floor server's CPU per message (the stack's own cost of a message)."""
    times: list[float] = []
    cpu_began = server.cpu_s() if server is not None else 0.0
    stop_at = time.perf_counter() + seconds

    async def client(n: int) -> None:
        async with connect(f"ws://127.0.0.1:{port}/ws", proxy=None) as ws:
            while time.perf_counter() < stop_at:
                began = time.perf_counter()
                await ws.send(json.dumps({"type": "action", "id": n, "body": "x" * 64}))
                await ws.recv()
                times.append(time.perf_counter() - began)

    began = time.perf_counter()
    await asyncio.gather(*(client(n) for n in range(clients)))
    elapsed = time.perf_counter() - began
    out = {
        "clients": clients,
        "messages_per_s": round(len(times) / elapsed, 1),
        "p50_ms": pct(times, 0.5),
        "p99_ms": pct(times, 0.99),
    }
    if server is not None:
        used = server.cpu_s() - cpu_began
        out["server_cpu_ms_per_message"] = round(used * 1000 / max(1, len(times)), 2)
    return out


# --- the project -----------------------------------------------------------------------------


@dataclass
class GameRun:
    """One game under load: its sockets' progress and the moves' timings."""

    game_id: int
    sockets: int
    budget: int  # moves to play
    moves: int = 0
    sent_at: dict[int, float] = field(default_factory=dict)  # version produced -> send time
    reached: dict[int, int] = field(default_factory=dict)  # version -> sockets that have it
    ack_s: list[float] = field(default_factory=list)
    all_s: list[float] = field(default_factory=list)
    done: asyncio.Event = field(default_factory=asyncio.Event)
    failed: str | None = None  # a reader that crashed: the run is void, not slow
    # Seats act only once every socket is open and the clocks run: a move made while sockets
    # still open would be counted without its CPU (the measured window starts after them).
    started: bool = False

    def socket_reached(self, version: int, now: float) -> None:
        n = self.reached.get(version, 0) + 1
        self.reached[version] = n
        if n == self.sockets and version in self.sent_at:
            self.all_s.append(now - self.sent_at[version])
            self.reached.pop(version, None)


@dataclass
class Traffic:
    """Bytes received by one kind of socket after its first state."""

    state_bytes: list[int] = field(default_factory=list)
    patch_bytes: list[int] = field(default_factory=list)
    other_bytes: int = 0
    presence_frames: int = 0


_sending: set[asyncio.Future[None]] = set()  # sends in flight (kept referenced until done)


def _split(path: str) -> list[str]:
    return [p.replace("~1", "/").replace("~0", "~") for p in path[1:].split("/")]


def _walk(doc: Any, parts: list[str]) -> Any:
    for part in parts:
        doc = doc[int(part)] if isinstance(doc, list) else doc[part]
    return doc


def pick(legal: dict[str, Any] | list[dict[str, Any]], rng: random.Random) -> Any:
    """A uniformly random legal action, as `rng.choice(expand_legal(legal))` picks it, built
    alone: the harness expands only the action it plays (it shares the cores with the server)."""
    if isinstance(legal, list):
        return rng.choice(legal) if legal else None
    places, others = legal.get("place", ()), legal.get("other", ())
    count = sum(len(group["at"]) for group in places) + len(others)
    if not count:
        return None
    index = rng.randrange(count)  # what rng.choice draws for a list of `count`
    for group in places:
        if index < len(group["at"]):
            return expand_legal({"place": [{**group, "at": [group["at"][index]]}], "other": []})[0]
        index -= len(group["at"])
    return others[index]


def _size(frame: dict[str, Any]) -> int:
    """The bytes of a frame's JSON as the server writes it (compact, UTF-8), for its size
    inside a bundle. orjson, not the json module: the reader does this for every part of every
    frame it receives, before it sees the next (json.dumps took about 25 us per patch, which
    the "every socket has the version" figure counted as the server's)."""
    return len(orjson.dumps(frame))


def _parts(text: str) -> list[dict[str, Any]]:
    """The frames a received text carries (a `frames` frame carries several)."""
    frame = json.loads(text)
    return frame["frames"] if frame["type"] == "frames" else [frame]


def apply_ops(doc: dict[str, Any], ops: list[dict[str, Any]]) -> None:
    """Apply the server's patch ops in place: a lighter client than a general RFC 6902 library,
    so the harness measures the server, not itself. The current server sends add, replace and
    remove; older ones (jsonpatch.make_patch) also sent move and copy."""
    for op in ops:
        kind, value = op["op"], op.get("value")
        if kind in ("move", "copy"):
            *src_parents, src_last = _split(op["from"])
            src = _walk(doc, src_parents)
            key = int(src_last) if isinstance(src, list) else src_last
            value = src[key] if kind == "copy" else src.pop(key)
            value = json.loads(json.dumps(value)) if kind == "copy" else value
            kind = "add"
        *parents, last = _split(op["path"])
        target = _walk(doc, parents)
        if isinstance(target, list):
            index = len(target) if last == "-" else int(last)
            if kind == "add":
                target.insert(index, value)
            elif kind == "replace":
                target[index] = value
            else:
                del target[index]
        elif kind == "remove":
            del target[last]
        else:
            target[last] = value


class Player:
    """A socket of a seat or a spectator; seats keep their document and act on their turn."""

    def __init__(
        self, run: GameRun, url: str, cookie: str | None, traffic: Traffic, rng: random.Random
    ) -> None:
        self.run, self.url, self.cookie, self.traffic, self.rng = run, url, cookie, traffic, rng
        self.doc: dict[str, Any] | None = None
        self.version = -1
        self.waiting: int | None = None  # id of the action in flight
        self.ws: Any = None
        self.ready = asyncio.Event()

    async def open(self) -> None:
        headers = {"Cookie": self.cookie} if self.cookie else {}
        self.ws = await connect(
            self.url, additional_headers=headers, proxy=None, max_size=2**22, open_timeout=60
        )
        self.task = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            async for text in self.ws:
                self._frame(text)
        except ConnectionClosed:
            pass
        except Exception as exc:  # a harness bug must not look like a slow server
            self.run.failed = repr(exc)
            self.run.done.set()
            raise

    def _frame(self, text: str) -> None:
        frame = orjson.loads(text)  # the harness's own parsing kept light: it shares the cores
        if frame["type"] != "frames":
            self._one(frame, len(text.encode()))
        else:  # several frames of one change in one: each part counted at its own size
            sizes = [_size(part) for part in frame["frames"]]
            for part, size in zip(frame["frames"], sizes, strict=True):
                self._one(part, size)
            self.traffic.other_bytes += len(text.encode()) - sum(sizes)
        self._maybe_act()

    def _one(self, frame: dict[str, Any], size: int) -> None:
        kind = frame["type"]
        now = time.perf_counter()
        if kind == "state":
            self.traffic.state_bytes.append(size)
            # The document as the wire carries it (older servers sent `legal_actions` whole).
            key = "legal" if "legal" in frame else "legal_actions"
            self.doc = {"view": frame["view"], key: frame.get(key)}
            if self.version >= 0 and frame["version"] > self.version:
                self.run.socket_reached(frame["version"], now)
            self.version = frame["version"]
            self.ready.set()
        elif kind == "patch":
            self.traffic.patch_bytes.append(size)
            if self.doc is not None and frame["base"] == self.version:
                if self.cookie is not None:  # seats need their document; spectators do not
                    apply_ops(self.doc, frame["ops"])
                self.version = frame["version"]
                self.run.socket_reached(self.version, now)
            else:
                self._send({"type": "resync", "version": self.version})
        elif kind == "ack":
            self.traffic.other_bytes += size
            sent = self.run.sent_at.get(frame["version"])
            if sent is not None:
                self.run.ack_s.append(now - sent)
            self.waiting = None
            self.run.moves += 1
            if self.run.moves >= self.run.budget:
                self.run.done.set()
        elif kind == "error":
            log("error frame:", json.dumps(frame)[:300])
            self.waiting = None
        else:
            self.traffic.other_bytes += size
            if kind == "presence":
                self.traffic.presence_frames += 1

    def _maybe_act(self) -> None:
        if self.cookie is None or self.doc is None or self.waiting is not None:
            return
        if not self.run.started or self.run.moves >= self.run.budget or self.run.done.is_set():
            return
        legal = self.doc.get("legal", self.doc.get("legal_actions"))
        if not legal:
            return  # not this seat's decision
        action = pick(legal, self.rng)
        if action is None:
            return
        self.waiting = msg_id = self.version + 1
        self.run.sent_at[self.version + 1] = time.perf_counter()
        self._send({"type": "action", "id": msg_id, "version": self.version, "action": action})

    def _send(self, frame: dict[str, Any]) -> None:
        task = asyncio.ensure_future(self.ws.send(json.dumps(frame)))
        _sending.add(task)
        task.add_done_callback(_sending.discard)

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self.ws.close()


async def make_games(base: str, count: int, players: int = 4) -> list[tuple[int, list[str]]]:
    """Start `count` games of guests: (game id, session cookie per seat)."""
    sem = asyncio.Semaphore(10)

    async def one(n: int) -> tuple[int, list[str]]:
        # One client per game, its cookie jar emptied after each call: every seat is its own guest.
        async with sem, httpx.AsyncClient(base_url=base, timeout=60) as http:

            async def call(
                cookie: str | None, path: str, body: dict[str, Any] | None = None
            ) -> Any:
                r = await http.post(path, json=body, headers={"Cookie": cookie} if cookie else {})
                http.cookies.clear()
                r.raise_for_status()
                return r

            cookies = []
            for s in range(players):
                r = await call(None, "/api/session/guest", {"name": f"Bench{n}x{s}"})
                cookies.append(f"sd_session={r.cookies['sd_session']}")
            game = (
                await call(cookies[0], "/api/games", {"players": players, "first_player": 0})
            ).json()
            for cookie in cookies[1:]:
                await call(
                    cookie, f"/api/games/{game['id']}/join", {"invite_code": game["invite_code"]}
                )
            await call(cookies[0], f"/api/games/{game['id']}/start")
            return game["id"], cookies

    return list(await asyncio.gather(*(one(n) for n in range(count))))


async def play_games(
    port: int,
    games: list[tuple[int, list[str]]],
    budget: int,
    spectators: int = 2,
    seed: int = 1,
    server: Proc | None = None,
) -> dict[str, Any]:
    """Every game at once, each seat acting as soon as it may, until each game made `budget`
    moves. Throughput counts the acks up to the moment the first game finished its budget, so
    every game was still playing during the window."""
    rng = random.Random(seed)
    seat_traffic, spec_traffic = Traffic(), Traffic()
    runs, players = [], []
    for game_id, cookies in games:
        run = GameRun(game_id, len(cookies) + spectators, budget)
        runs.append(run)
        url = f"ws://127.0.0.1:{port}/ws/games/{game_id}"
        for cookie in cookies:
            players.append(Player(run, url, cookie, seat_traffic, random.Random(rng.random())))
        for _ in range(spectators):
            players.append(Player(run, url, None, spec_traffic, rng))
    sem = asyncio.Semaphore(50)

    async def open_one(p: Player) -> None:
        async with sem:
            await p.open()
            await asyncio.wait_for(p.ready.wait(), 60)

    await asyncio.gather(*(open_one(p) for p in players))
    for kind in (seat_traffic, spec_traffic):  # count what the moves cost, not the joins
        kind.state_bytes.clear()
        kind.other_bytes = 0
        kind.presence_frames = 0
    began = time.perf_counter()
    cpu_began = server.cpu_s() if server is not None else None
    client_began = time.process_time()
    for run in runs:
        run.started = True
    for p in players:
        p._maybe_act()
    await asyncio.wait_for(asyncio.gather(*(r.done.wait() for r in runs)), 600)
    failures = [r.failed for r in runs if r.failed]
    if failures:
        raise RuntimeError(f"a client's reader failed: {failures[0]}")
    cpu_used = server.cpu_s() - cpu_began if server is not None and cpu_began is not None else None
    all_done = time.perf_counter()
    client_cpu = time.process_time() - client_began
    # Let the last patches arrive before counting bytes.
    await asyncio.sleep(0.5)
    for p in players:
        await p.close()
    ack_s = [x for r in runs for x in r.ack_s]
    all_s = [x for r in runs for x in r.all_s]
    moves = sum(r.moves for r in runs)
    seats_n = sum(len(c) for _, c in games)
    specs_n = spectators * len(games)
    seat_bytes = (
        sum(seat_traffic.patch_bytes) + seat_traffic.other_bytes + sum(seat_traffic.state_bytes)
    )
    spec_bytes = (
        sum(spec_traffic.patch_bytes) + spec_traffic.other_bytes + sum(spec_traffic.state_bytes)
    )
    return {
        "games": len(games),
        "moves": moves,
        # Whole run, tail included (the last games play with fewer neighbours): conservative.
        "moves_per_s_whole_run": round(moves / (all_done - began), 1),
        "ack_p50_ms": pct(ack_s, 0.5),
        "ack_p99_ms": pct(ack_s, 0.99),
        "all_sockets_p50_ms": pct(all_s, 0.5),
        "all_sockets_p99_ms": pct(all_s, 0.99),
        "bytes_per_move_per_seat": round(seat_bytes / max(1, moves) * len(games) / seats_n),
        "bytes_per_move_per_spectator": round(
            spec_bytes / max(1, moves) * len(games) / max(1, specs_n)
        ),
        "seat_patch_mean_bytes": round(statistics.mean(seat_traffic.patch_bytes))
        if seat_traffic.patch_bytes
        else None,
        "resync_states": len(seat_traffic.state_bytes) + len(spec_traffic.state_bytes),
        "server_cpu_ms_per_move": round(cpu_used * 1000 / max(1, moves), 2) if cpu_used else None,
        "client_cpu_ms_per_move": round(client_cpu * 1000 / max(1, moves), 2),
        "_ack_s": ack_s,
        "_all_s": all_s,
    }


async def concurrent_step(
    server: Proc, games: list[tuple[int, list[str]]], n: int, args: argparse.Namespace
) -> tuple[dict[str, Any], list[tuple[int, list[str]]]]:
    """`n` games at once, `--repeat` times on fresh games: the medians of the repeats (this
    2-core machine varies by a fifth from one run to the next), each repeat's figures beside
    them; and the games left."""
    outs = []
    for _ in range(args.repeat):
        batch, games = games[:n], games[n:]
        out = await play_games(server.port, batch, args.budget, server=server)
        outs.append({k: v for k, v in out.items() if not k.startswith("_")})
    if len(outs) == 1:
        return outs[0], games
    merged: dict[str, Any] = {}
    for key, value in outs[0].items():
        values = [o[key] for o in outs if o.get(key) is not None]
        if isinstance(value, int | float) and values:
            merged[key] = statistics.median(values)
            merged[f"{key}_runs"] = values
        else:
            merged[key] = value
    return merged, games


async def full_state_bytes(port: int, game: tuple[int, list[str]]) -> int:
    """The size of a seat's full `state` frame at the start of a game."""
    game_id, cookies = game
    async with connect(
        f"ws://127.0.0.1:{port}/ws/games/{game_id}",
        additional_headers={"Cookie": cookies[0]},
        proxy=None,
        max_size=2**22,
    ) as ws:
        while True:
            text = await ws.recv()
            for part in _parts(text):
                if part["type"] == "state":
                    return _size(part)


async def idle_sockets(
    server: Proc, games: list[tuple[int, list[str]]], count: int, cycles: int = 2
) -> dict[str, Any]:
    """Open `count` anonymous spectator sockets over the games, then close them; `cycles` times.

    RSS per socket from the first cycle; the later cycles show whether memory is reused (a
    leak would grow the resident size by the same amount each time).
    """
    out: dict[str, Any] = {"sockets": count, "cycles": []}
    for _ in range(cycles):
        out["cycles"].append(await _idle_cycle(server, games, count))
    first = out["cycles"][0]
    out["kib_per_socket"] = first["kib_per_socket"]
    out["presence_frames"] = first["presence_frames"]
    return out


async def _idle_cycle(
    server: Proc, games: list[tuple[int, list[str]]], count: int
) -> dict[str, Any]:
    await asyncio.sleep(1.0)
    before = server.rss_kib()
    frames = {"presence": 0, "other": 0}
    conns = []
    sem = asyncio.Semaphore(50)

    async def watch(ws: Any) -> None:
        with contextlib.suppress(ConnectionClosed):
            async for text in ws:
                frames["presence" if '"type":"presence"' in text else "other"] += 1

    async def open_one(i: int) -> None:
        game_id = games[i % len(games)][0]
        url = f"ws://127.0.0.1:{server.port}/ws/games/{game_id}"
        async with sem:
            ws = await connect(url, proxy=None, open_timeout=60, max_size=2**22)
            first = await ws.recv()
            assert _parts(first)[0]["type"] == "state", first[:200]
            conns.append((ws, asyncio.create_task(watch(ws))))

    began = time.perf_counter()
    await asyncio.gather(*(open_one(i) for i in range(count)))
    opened_s = time.perf_counter() - began
    await asyncio.sleep(3.0)  # presence settles; the server's buffers are all allocated
    during = server.rss_kib()
    for ws, task in conns:
        await ws.close()
        task.cancel()
    await asyncio.sleep(8.0)  # rooms close after their grace period
    after = server.rss_kib()
    return {
        "open_s": round(opened_s, 2),
        "rss_before_kib": before,
        "rss_open_kib": during,
        "rss_after_close_kib": after,
        "kib_per_socket": round((during - before) / count, 1),
        "presence_frames": frames["presence"],
    }


async def single_game_latency(
    port: int, games: list[tuple[int, list[str]]], moves: int
) -> dict[str, Any]:
    """One game at a time: action -> ack and action -> every socket has the version.

    The first game warms the server up (statement caches, first connections) and is not
    counted; the others are played one after another and counted together.
    """
    await play_games(port, games[:1], 10)
    runs = [await play_games(port, [game], moves) for game in games[1:]]
    ack = [x for r in runs for x in r["_ack_s"]]
    every = [x for r in runs for x in r["_all_s"]]
    return {
        "moves": sum(r["moves"] for r in runs),
        "ack_p50_ms": pct(ack, 0.5),
        "ack_p99_ms": pct(ack, 0.99),
        "all_sockets_p50_ms": pct(every, 0.5),
        "all_sockets_p99_ms": pct(every, 0.99),
    }


# --- the run ---------------------------------------------------------------------------------


def load_average() -> list[float]:
    """The 1, 5 and 15 minute load averages."""
    return [round(x, 2) for x in os.getloadavg()]


async def before_section(
    args: argparse.Namespace, dbs: Databases, workdir: Path, procs: list[Proc]
) -> dict[str, Any]:
    """The same measurements on an older checkout (`--before DIR`), one process, in this run.

    Idle sockets are capped at 100: older servers refused more anonymous sockets per address.
    """
    root = Path(args.before).resolve()
    server = project_server(dbs.create("before"), workdir, 1, None, root=root)
    procs.append(server)
    section: dict[str, Any] = {"root": str(root)}
    steps = args.games[:2]  # the old server is slow: two steps are enough to compare
    need = sum(steps) * args.repeat + SINGLE_GAMES + 2
    games = await make_games(f"http://127.0.0.1:{server.port}", need)
    section["full_state_bytes"] = await full_state_bytes(server.port, games[0])
    singles, games = games[: SINGLE_GAMES + 1], games[SINGLE_GAMES + 1 :]
    section["single_game"] = await single_game_latency(server.port, singles, 60)
    log("before single game:", section["single_game"])
    section["concurrent"] = []
    for n in steps:
        out, games = await concurrent_step(server, games, n, args)
        section["concurrent"].append(out)
        log("before", out)
    server.stop()
    fresh = project_server(dbs.create("before_idle"), workdir, 1, None, root=root)
    procs.append(fresh)
    idle_games = await make_games(f"http://127.0.0.1:{fresh.port}", 10)
    section["idle"] = await idle_sockets(fresh, idle_games, min(args.sockets, 100))
    log("before idle:", section["idle"])
    fresh.stop()
    return section


async def paired_steps(
    args: argparse.Namespace, dbs: Databases, workdir: Path, procs: list[Proc]
) -> dict[str, Any]:
    """`--before` and this checkout in turn, one concurrent step each (for every step and
    repeat: one side, then the other, the order swapped every repeat), both servers up all
    along. This machine's speed drifts over minutes, by up to a fifth, so two sections played
    one after the other can differ by more than the code does; here each pair saw the same
    machine. Per step: each pair's CPU per move on both sides and its ratio, and the medians."""
    servers = {
        "before": project_server(
            dbs.create("pair_before"), workdir, 1, None, root=Path(args.before).resolve()
        ),
        "now": project_server(dbs.create("pair_now"), workdir, 1, None),
    }
    procs.extend(servers.values())
    steps = args.games[:2]
    games = {}
    for side, server in servers.items():
        made = await make_games(f"http://127.0.0.1:{server.port}", sum(steps) * args.repeat + 1)
        await play_games(server.port, made[:1], 10)  # warm up, as the other sections do
        games[side] = made[1:]
    section: dict[str, Any] = {}
    for n in steps:
        pairs = []
        for r in range(args.repeat):
            pair: dict[str, Any] = {}
            for side in ("before", "now") if r % 2 == 0 else ("now", "before"):
                batch, games[side] = games[side][:n], games[side][n:]
                out = await play_games(servers[side].port, batch, args.budget, server=servers[side])
                pair[side] = {
                    "cpu_ms_per_move": out["server_cpu_ms_per_move"],
                    "moves_per_s": out["moves_per_s_whole_run"],
                }
            pair["cpu_ratio"] = round(
                pair["now"]["cpu_ms_per_move"] / pair["before"]["cpu_ms_per_move"], 3
            )
            pairs.append(pair)
            log(f"paired, {n} games:", pair)
        section[str(n)] = {
            "pairs": pairs,
            "cpu_ratio_median": statistics.median(p["cpu_ratio"] for p in pairs),
            "before_cpu_ms_per_move_median": statistics.median(
                p["before"]["cpu_ms_per_move"] for p in pairs
            ),
            "now_cpu_ms_per_move_median": statistics.median(
                p["now"]["cpu_ms_per_move"] for p in pairs
            ),
        }
    for server in servers.values():
        server.stop()
    return section


async def run(args: argparse.Namespace) -> dict[str, Any]:
    """The whole side-by-side run."""
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    dbs = Databases()
    workdir = Path(tempfile.mkdtemp(prefix="seadragons-load-"))
    result: dict[str, Any] = {
        "load_average_start": load_average(),
        "python": sys.version.split()[0],
    }
    procs: list[Proc] = []
    redis = None
    try:
        log("floor...")
        floor = floor_server(dbs.create("floor"), workdir)
        procs.append(floor)
        rtts = await floor_round_trips(floor.port, args.round_trips)
        result["floor"] = {
            "round_trip_p50_ms": pct(rtts, 0.5),
            "round_trip_p99_ms": pct(rtts, 0.99),
            "throughput": await floor_throughput(
                floor.port, args.floor_clients, args.floor_seconds, floor
            ),
        }
        floor.stop()
        log("floor:", result["floor"])

        if args.before is not None:
            result["before"] = await before_section(args, dbs, workdir, procs)
        if args.before is not None and args.paired:
            result["paired"] = await paired_steps(args, dbs, workdir, procs)
        for workers in [1, *([args.workers] if args.workers > 1 else [])]:
            redis_port = None
            if workers > 1:
                redis = start_redis(workdir)
                if redis is None:
                    log("no redis-server: skipping the multi-worker run")
                    continue
                redis_port = redis[1]
            label = f"workers_{workers}"
            server = project_server(dbs.create(label), workdir, workers, redis_port)
            procs.append(server)
            section: dict[str, Any] = {"workers": workers}
            need = sum(args.games) * args.repeat + 1 + (SINGLE_GAMES + 1 if workers == 1 else 0)
            log(f"{label}: starting {need} games...")
            games = await make_games(f"http://127.0.0.1:{server.port}", need)
            if workers == 1:
                section["full_state_bytes"] = await full_state_bytes(server.port, games[0])
                singles, games = games[: SINGLE_GAMES + 1], games[SINGLE_GAMES + 1 :]
                section["single_game"] = await single_game_latency(server.port, singles, 60)
                log(label, "single game:", section["single_game"])
            section["concurrent"] = []
            for n in args.games:
                out, games = await concurrent_step(server, games, n, args)
                section["concurrent"].append(out)
                log(label, out)
            server.stop()
            if workers == 1:
                # Memory on a fresh server: after the load above, freed memory would be reused
                # and hide what the sockets cost.
                fresh = project_server(dbs.create("idle"), workdir, 1, None)
                procs.append(fresh)
                idle_games = await make_games(f"http://127.0.0.1:{fresh.port}", 10)
                section["idle"] = await idle_sockets(fresh, idle_games, args.sockets)
                log(label, "idle:", section["idle"])
                fresh.stop()
            result[label] = section
            if redis is not None:
                redis[0].kill()
                redis = None
    finally:
        for p in procs:
            p.stop()
        if redis is not None:
            redis[0].kill()
        dbs.drop_all()
        shutil.rmtree(workdir, ignore_errors=True)
    result["load_average_end"] = load_average()
    return result


def main() -> None:
    """Parse arguments, run, print the JSON result."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", default="10,50,100", help="concurrent games per step")
    parser.add_argument("--workers", type=int, default=2, help="also run with this many workers")
    parser.add_argument("--budget", type=int, default=40, help="moves per game")
    parser.add_argument("--sockets", type=int, default=1000, help="idle spectator sockets")
    parser.add_argument("--round-trips", type=int, default=1000)
    parser.add_argument("--floor-clients", type=int, default=50)
    parser.add_argument("--floor-seconds", type=float, default=8.0)
    parser.add_argument(
        "--repeat", type=int, default=1, help="play each concurrent step this many times (medians)"
    )
    parser.add_argument("--quick", action="store_true", help="small numbers, to try the harness")
    parser.add_argument(
        "--before", default=None, help="also measure this checkout (an older commit), 1 process"
    )
    parser.add_argument(
        "--paired",
        action="store_true",
        help="with --before: also play the concurrent steps on both in turn (CPU ratios)",
    )
    args = parser.parse_args()
    args.games = [int(x) for x in args.games.split(",") if x]
    if args.quick:
        args.games, args.budget, args.sockets, args.round_trips = [5], 10, 100, 100
        args.floor_seconds = 2.0
    print(json.dumps(asyncio.run(run(args)), indent=2))


if __name__ == "__main__":
    main()

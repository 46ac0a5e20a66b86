"""Past one machine, on one machine: N web instances (and M workers) behind the stack's real proxy.

It starts a fresh Postgres database, a private Redis (or a private three-node Redis Cluster with
`--bus cluster`), N `seadragons serve` instances on that database and Redis, M `seadragons
worker` processes (`--workers`), and two Caddy proxies in front of the same instances, both with
deploy/Caddyfile (tests/ops/proxy.py: the same file, loopback addresses): one with its game
routing, one with round robin (the stack before it). Then, in pairs, routed then round robin,
round robin then routed, ... (`--repeat` pairs; the machine drifts, so pairs are compared):
- games of 4 guest seats + 2 spectators, every socket through the proxy, every seat acting as
  soon as its turn comes (bench/load.py's load generator), `--budget` moves per game;
- moves/s, the instances' CPU per move (all of them together), and per move, from every
  instance's /metrics: bus messages published and received, and room updates by source
  (`replay`: another instance's move replayed here; what the routing saves);
- with `--bus cluster`, the Redis Cluster's own messages between nodes per move (CLUSTER INFO:
  plain PUBLISH is forwarded to every node, SPUBLISH stays on the channel's shard);
- (behind the routed proxy) an instance killed with SIGKILL while games are open: its sockets
  reconnect through the proxy (to another instance) and ask for what they missed; one more move
  per game; the seconds until every socket has the game's latest version.

The proxy binary is required (`apt-get install caddy`): the routing measured is the real one.
Bounded: each phase has a move budget and a deadline; databases and processes go at the end.
Run: nice .venv/bin/python bench/cluster.py [--instances 2] [--workers 0] [--games 20]
     [--budget 30] [--bus redis|cluster] [--repeat 1]
Prints one JSON object (progress on stderr); docs/benchmarks.md records it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import orjson
from prometheus_client.parser import text_string_to_metric_families
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import load  # noqa: E402
from load import (  # noqa: E402
    Databases,
    Proc,
    free_port,
    load_average,
    log,
    make_games,
    play_games,
    server_env,
    start_redis,
)

from tests.ops import private_services  # noqa: E402
from tests.ops.proxy import PrivateCaddy, caddy_binary  # noqa: E402

private_services.tiers.starts = lambda *_a, **_k: None  # the tiers' guard is for tests only


# --- processes -------------------------------------------------------------------------------


def start_instances(
    database_url: str, redis_url: str, workdir: Path, n: int, workers: int
) -> tuple[list[Proc], list[Proc], list[int]]:
    """N web instances (one at a time: the first migrates the database) and M workers;
    (instances, workers, metrics port of each instance)."""
    instances, metrics_ports, worker_procs = [], [], []
    for i in range(n):
        port, metrics_port = free_port(), free_port()
        env = server_env(database_url, workdir / f"web{i}")
        (workdir / f"web{i}").mkdir()
        env.update(
            SEADRAGONS_REDIS_URL=redis_url,
            SEADRAGONS_METRICS_PORT=str(metrics_port),
            SEADRAGONS_METRICS_HOST="127.0.0.1",
        )
        if workers:
            env["SEADRAGONS_ROLE"] = "web"
        args = [sys.executable, "-m", "app.cli", "serve", "--port", str(port)]
        proc = Proc(args, env, port, workdir / f"web{i}.log")
        proc.wait_ready("/readyz")
        instances.append(proc)
        metrics_ports.append(metrics_port)
    for i in range(workers):
        env = server_env(database_url, workdir / f"worker{i}")
        (workdir / f"worker{i}").mkdir()
        env["SEADRAGONS_REDIS_URL"] = redis_url
        args = [sys.executable, "-m", "app.cli", "worker"]
        worker = Proc(args, env, 0, workdir / f"worker{i}.log")
        worker_procs.append(worker)
    return instances, worker_procs, metrics_ports


def counters(metrics_port: int) -> dict[str, float]:
    """The counters this bench reads from one instance's /metrics."""
    text = httpx.get(f"http://127.0.0.1:{metrics_port}/metrics", timeout=10).text
    out: dict[str, float] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            name, labels = sample.name, sample.labels
            if name == "seadragons_moves_applied_total":
                out["moves"] = sample.value
            elif name == "seadragons_room_updates_total":
                out[f"room_{labels['source']}"] = sample.value
            elif name == "seadragons_bus_messages_total":
                out[f"bus_{labels['direction']}"] = sample.value
            elif name == "seadragons_open_sockets":
                out["sockets"] = sample.value
    return out


def all_counters(ports: list[int]) -> list[dict[str, float]]:
    return [counters(p) for p in ports]


def cluster_messages(cluster: Any) -> dict[str, int]:
    """Messages between the nodes of a Redis Cluster, summed over its nodes (CLUSTER INFO lists
    a kind only once one was sent: both start at 0 here)."""
    out = {"cluster_stats_messages_publish_sent": 0, "cluster_stats_messages_publishshard_sent": 0}
    for port in cluster.ports:
        for line in cluster.cli(port, "cluster", "info").splitlines():
            key, _, value = line.strip().partition(":")
            if key.startswith("cluster_stats_messages_publish") and key.endswith("_sent"):
                out[key] = out.get(key, 0) + int(value)
    return out


# --- one mode ---------------------------------------------------------------------------------


class Window:
    """The counters and CPU of every instance when the first move is about to go (every socket
    open) and when the first socket is about to close (every move made): the figures per move
    leave out the presence messages of sockets opening and closing. Taken by hooks on
    bench/load.py's Player, synchronously, so no frame moves while they are read."""

    def __init__(self, instances: list[Proc], metrics_ports: list[int], cluster: Any) -> None:
        self.instances, self.ports, self.cluster = instances, metrics_ports, cluster
        self.marks: list[tuple[list[dict[str, float]], float, dict[str, int]]] = []

    def mark(self) -> None:
        cpu = sum(p.cpu_s() for p in self.instances)
        cl = cluster_messages(self.cluster) if self.cluster is not None else {}
        self.marks.append((all_counters(self.ports), cpu, cl))

    @contextlib.contextmanager
    def hooked(self) -> Any:
        act, close = load.Player._maybe_act, load.Player.close
        window = self

        def maybe_act(player: Any) -> None:
            if player.run.started and not window.marks:
                window.mark()
            act(player)

        async def first_close(player: Any) -> None:
            if len(window.marks) == 1:
                await asyncio.sleep(1.0)  # the last bus messages land before counting
                window.mark()
            await close(player)

        load.Player._maybe_act, load.Player.close = maybe_act, first_close  # type: ignore[method-assign]
        try:
            yield self
        finally:
            load.Player._maybe_act, load.Player.close = act, close  # type: ignore[method-assign]


async def measured_play(
    caddy: PrivateCaddy,
    instances: list[Proc],
    metrics_ports: list[int],
    games: list[tuple[int, list[str]]],
    budget: int,
    cluster: Any = None,
) -> dict[str, Any]:
    """Play `games` through the proxy; what the moves cost across the instances."""
    with Window(instances, metrics_ports, cluster).hooked() as window:
        out = await play_games(caddy.port, games, budget)
    (before, cpu_before, cl_before), (after, cpu_after, cl_after) = window.marks
    moves = out["moves"]

    def per_move(key: str) -> float:
        total = sum(a.get(key, 0.0) - b.get(key, 0.0) for a, b in zip(after, before, strict=True))
        return round(total / max(1, moves), 3)

    result = {
        "games": len(games),
        "moves": moves,
        "moves_per_s": out["moves_per_s_whole_run"],
        "ack_p50_ms": out["ack_p50_ms"],
        "all_sockets_p50_ms": out["all_sockets_p50_ms"],
        "instances_cpu_ms_per_move": round((cpu_after - cpu_before) * 1000 / max(1, moves), 2),
        "bus_published_per_move": per_move("bus_published"),
        "bus_received_per_move": per_move("bus_received"),
        "replays_per_move": per_move("room_replay"),
        "reloads_per_move": per_move("room_reload"),
        "local_updates_per_move": per_move("room_local"),
        "moves_counted_by_instances": round(per_move("moves") * max(1, moves)),
    }
    for key, value in cl_after.items():
        result[key.replace("cluster_stats_messages", "cluster_bus") + "_per_move"] = round(
            (value - cl_before.get(key, 0)) / max(1, moves), 3
        )
    return result


# --- an instance killed -------------------------------------------------------------------------


class Follower:
    """One socket of a game through the proxy that reconnects (as the client does: backoff,
    then `resync` from the version it has) and keeps the game's version."""

    def __init__(self, url: str, cookie: str | None) -> None:
        self.url, self.cookie = url, cookie
        self.version = -1
        self.reconnects = 0
        self.changed = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.ws: Any = None

    async def run(self) -> None:
        while True:
            try:
                headers = {"Cookie": self.cookie} if self.cookie else {}
                async with connect(self.url, additional_headers=headers, proxy=None) as ws:
                    self.ws = ws
                    if self.version >= 0:
                        await ws.send(json.dumps({"type": "resync", "version": self.version}))
                    async for text in ws:
                        frame = orjson.loads(text)
                        parts = frame["frames"] if frame["type"] == "frames" else [frame]
                        for part in parts:
                            if part["type"] in ("state", "patch"):
                                self.version = max(self.version, part["version"])
                        self.changed.set()
            except (ConnectionClosed, OSError):
                pass
            self.ws = None
            self.reconnects += 1
            await asyncio.sleep(0.2 + random.random() * 0.3)  # the client's backoff, shortened

    async def at(self, version: int, deadline: float) -> None:
        while self.version < version:
            self.changed.clear()
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{self.url}: at {self.version}, wanted {version}")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), left)


async def http_move(base: str, game: tuple[int, list[str]]) -> int:
    """One move of the seat to act, over HTTP through the proxy; the new version."""
    game_id, cookies = game
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        for _ in range(50):  # the proxy may still send this game to the dead instance once
            try:
                state = (
                    await http.get(f"/api/games/{game_id}/state", headers={"Cookie": cookies[0]})
                ).json()
                cookie = cookies[state["to_act"]]
                mine = (
                    await http.get(f"/api/games/{game_id}/state", headers={"Cookie": cookie})
                ).json()
                body = {"version": mine["version"], "action": mine["legal_actions"][0]}
                r = await http.post(
                    f"/api/games/{game_id}/actions", json=body, headers={"Cookie": cookie}
                )
                if r.status_code == 200:
                    return int(mine["version"]) + 1
            except (httpx.HTTPError, KeyError, IndexError, ValueError):
                pass
            await asyncio.sleep(0.2)
    raise RuntimeError(f"game {game_id}: no move went through")


async def moves_in(base: str, games: list[tuple[int, list[str]]]) -> dict[int, int]:
    """One move in every game at once; the version each reached."""
    reached = await asyncio.gather(*(http_move(base, g) for g in games))
    return {g[0]: v for g, v in zip(games, reached, strict=True)}


async def kill_one(
    caddy: PrivateCaddy,
    instances: list[Proc],
    metrics_ports: list[int],
    games: list[tuple[int, list[str]]],
) -> dict[str, Any]:
    """Sockets of `games` open through the proxy (4 seats + 2 spectators each); one move per
    game; then SIGKILL the instance holding the most sockets; the sockets reconnect (to another
    instance), one more move per game; seconds until every socket has the latest version."""
    followers = []
    for game_id, cookies in games:
        url = f"ws://127.0.0.1:{caddy.port}/ws/games/{game_id}"
        for cookie in [*cookies, None, None]:
            followers.append((game_id, Follower(url, cookie)))
    for _, f in followers:
        f.task = asyncio.create_task(f.run())
    base = caddy.http
    deadline = time.monotonic() + 120
    versions = dict(
        zip(
            [g for g, _ in games],
            await asyncio.gather(*(http_move(base, g) for g in games)),
            strict=True,
        )
    )
    for game_id, f in followers:
        await f.at(versions[game_id], deadline)
    held = [c.get("sockets", 0.0) for c in all_counters(metrics_ports)]
    victim = max(range(len(instances)), key=lambda i: held[i])
    reconnects_before = sum(f.reconnects for _, f in followers)
    killed_at = time.monotonic()
    instances[victim].proc.send_signal(signal.SIGKILL)
    instances[victim].proc.wait(10)
    # Every socket that was on it closes, reconnects through the proxy and catches up.
    versions = dict(
        zip(
            [g for g, _ in games],
            await asyncio.gather(*(http_move(base, g) for g in games)),
            strict=True,
        )
    )
    deadline = time.monotonic() + 120
    for game_id, f in followers:
        await f.at(versions[game_id], deadline)
    converged_s = time.monotonic() - killed_at
    survivors = [p for i, p in enumerate(metrics_ports) if i != victim]
    sockets_after = [c.get("sockets", 0.0) for c in all_counters(survivors)]
    for _, f in followers:
        if f.task is not None:
            f.task.cancel()
    await asyncio.gather(*(f.task for _, f in followers if f.task), return_exceptions=True)
    return {
        "sockets": len(followers),
        "sockets_on_killed_instance": int(held[victim]),
        "reconnected": sum(f.reconnects for _, f in followers) - reconnects_before,
        "seconds_kill_to_every_socket_at_latest": round(converged_s, 2),
        "sockets_on_survivors_after": [int(s) for s in sockets_after],
    }


# --- the run ------------------------------------------------------------------------------------


def medians(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The median of each figure over the runs, each run's value beside it."""
    out: dict[str, Any] = dict(runs[0])
    if len(runs) > 1:
        for key in runs[0]:
            values = [r[key] for r in runs if isinstance(r.get(key), int | float)]
            if values:
                out[key] = statistics.median(values)
                out[f"{key}_runs"] = values
    return out


async def run(args: argparse.Namespace) -> dict[str, Any]:
    """One stack (database, Redis, instances) behind two proxies, the stack's routing and round
    robin, played in pairs: A B, then B A, and so on (the machine drifts within minutes, so a
    figure is only compared with its pair's), then an instance killed behind the routed one."""
    if caddy_binary() is None:
        raise SystemExit("caddy is not installed (apt-get install caddy): the bench uses it")
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    dbs = Databases()
    workdir = Path(tempfile.mkdtemp(prefix="seadragons-cluster-"))
    result: dict[str, Any] = {
        "load_average_start": load_average(),
        "instances": args.instances,
        "workers": args.workers,
        "bus": args.bus + (" (plain pub/sub on the cluster)" if args.plain_on_cluster else ""),
        "proxy": "caddy "
        + subprocess.run(["caddy", "version"], capture_output=True, text=True).stdout.split()[0],
    }
    redis_proc, cluster, caddies = None, None, {}
    procs: list[Proc] = []
    try:
        if args.bus == "cluster":
            (workdir / "redis").mkdir()
            cluster = private_services.PrivateRedisCluster(workdir / "redis")
            cluster.start()
            redis_url = cluster.url
            if args.plain_on_cluster:
                redis_url = f"redis://127.0.0.1:{cluster.ports[0]}/0"
        else:
            started = start_redis(workdir)
            if started is None:
                raise RuntimeError("redis-server is not installed")
            redis_proc, redis_url = started[0], f"redis://127.0.0.1:{started[1]}/0"
        instances, workers, metrics_ports = start_instances(
            dbs.create("cluster"), redis_url, workdir, args.instances, args.workers
        )
        procs += [*instances, *workers]
        upstreams = [f"127.0.0.1:{p.port}" for p in instances]
        for route in (True, False):
            caddies[route] = PrivateCaddy(upstreams, route_games=route).start()
        kill = not args.no_kill
        need = 2 * args.games * args.repeat + (args.kill_games if kill else 0)
        log(f"{args.instances} instances, {args.workers} workers, {need} games...")
        games = await make_games(caddies[True].http, need)
        runs: dict[bool, list[dict[str, Any]]] = {True: [], False: []}
        pairs = []
        for n in range(args.repeat):
            order = (True, False) if n % 2 == 0 else (False, True)
            for route in order:
                batch, games = games[: args.games], games[args.games :]
                runs[route].append(
                    await measured_play(
                        caddies[route], instances, metrics_ports, batch, args.budget, cluster
                    )
                )
                log("routed" if route else "round_robin", runs[route][-1])
            pairs.append(
                round(
                    runs[True][-1]["instances_cpu_ms_per_move"]
                    / runs[False][-1]["instances_cpu_ms_per_move"],
                    3,
                )
            )
        result["routed"], result["round_robin"] = medians(runs[True]), medians(runs[False])
        r, rr = result["routed"], result["round_robin"]
        result["ratios_routed_over_round_robin"] = {
            key: round(r[key] / rr[key], 2) if rr.get(key) else None
            for key in (
                "moves_per_s",
                "instances_cpu_ms_per_move",
                "bus_received_per_move",
                "replays_per_move",
            )
        }
        result["cpu_per_move_ratio_of_each_pair"] = pairs
        if kill:
            result["instance_killed"] = await kill_one(
                caddies[True], instances, metrics_ports, games
            )
            log("killed:", result["instance_killed"])
    finally:
        for caddy in caddies.values():
            caddy.stop()
        for p in procs:
            p.stop()
        if redis_proc is not None:
            redis_proc.kill()
        if cluster is not None:
            cluster.stop()
        dbs.drop_all()
        shutil.rmtree(workdir, ignore_errors=True)
    result["load_average_end"] = load_average()
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--instances", type=int, default=2, help="web instances")
    parser.add_argument("--workers", type=int, default=0, help="`seadragons worker` processes")
    parser.add_argument("--games", type=int, default=20, help="concurrent games per run")
    parser.add_argument("--budget", type=int, default=30, help="moves per game")
    parser.add_argument("--repeat", type=int, default=1, help="pairs of runs (medians)")
    parser.add_argument("--kill-games", type=int, default=6, help="games open when one dies")
    parser.add_argument("--no-kill", action="store_true", help="skip the killed instance")
    parser.add_argument("--bus", choices=("redis", "cluster"), default="redis")
    parser.add_argument(
        "--plain-on-cluster",
        action="store_true",
        help="with --bus cluster: plain pub/sub through one node (the bus before sharding)",
    )
    args = parser.parse_args()
    os.environ.pop("PROMETHEUS_MULTIPROC_DIR", None)
    print(json.dumps(asyncio.run(run(args)), indent=2))


if __name__ == "__main__":
    main()

"""Analyses beside people: a player's move latency, quiet and while game analyses run.

Against a real `seadragons serve` on its own Postgres database (the production settings:
`SEADRAGONS_REVIEW_CONCURRENCY` analyses at once, in worker processes niced by
`SEADRAGONS_REVIEW_NICE`). Two people play 2-player games over HTTP, one random legal action at
a time (GET /state, then POST /actions), and the POST's latency is measured: first on a server
with no analysis worker (`REVIEW_CONCURRENCY=0`), then on one with `--concurrency` while the
analyses of `--games` games finished just before run (each finish enqueues one; the run checks
that one is "running" at the start and says whether one still was at the end). Also the server
process's CPU and its workers' in the window.

Run: nice -n 10 .venv/bin/python bench/review_latency.py [--games 4] [--moves 150]
Prints one JSON object; docs/benchmarks.md records it.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import load  # noqa: E402
from bot_cpu import cpu_split, guest, summary  # noqa: E402


def start_server(
    dbs: load.Databases, label: str, concurrency: int, nice: int | None = None
) -> load.Proc:
    """`seadragons serve` on a new database with `concurrency` analyses at once (0: none)."""
    workdir = Path(tempfile.mkdtemp(prefix=f"review-latency-{label}-"))
    env = load.server_env(dbs.create(label), workdir)
    env["SEADRAGONS_REVIEW_CONCURRENCY"] = str(concurrency)
    if nice is not None:
        env["SEADRAGONS_REVIEW_NICE"] = str(nice)
    port = load.free_port()
    args = [sys.executable, "-m", "app.cli", "serve", "--port", str(port)]
    proc = load.Proc(args, env, port, workdir / f"server-{port}.log", cwd=ROOT)
    proc.wait_ready("/readyz")
    return proc


def table(base: str) -> tuple[list[httpx.Client], int]:
    """A started 2-player game of two people."""
    ann, bob = guest(base, "Ann"), guest(base, "Bob")
    gid = ann.post("/api/games", json={"players": 2}).json()["id"]
    bob.post(f"/api/games/{gid}/join").raise_for_status()
    ann.post(f"/api/games/{gid}/start").raise_for_status()
    return [ann, bob], gid


def move(players: list[httpx.Client], gid: int, rng: random.Random) -> float | None:
    """One random legal move by the seat to act; the POST's seconds (None: the game is over)."""
    state = players[0].get(f"/api/games/{gid}/state").json()
    if state["status"] != "live":
        return None
    mover = players[state["to_act"]]
    legal = mover.get(f"/api/games/{gid}/state").json()
    action = rng.choice(legal["legal_actions"])
    began = time.perf_counter()
    r = mover.post(
        f"/api/games/{gid}/actions", json={"version": legal["version"], "action": action}
    )
    elapsed = time.perf_counter() - began
    r.raise_for_status()
    return elapsed


def play(base: str, moves: int, rng: random.Random) -> list[float]:
    """`moves` moves' latencies, new games as games end (a finish enqueues an analysis)."""
    out: list[float] = []
    players, gid = table(base)
    while len(out) < moves:
        took = move(players, gid, rng)
        if took is None:
            players, gid = table(base)
        else:
            out.append(took)
    return out


def finished_games(base: str, count: int, rng: random.Random) -> list[int]:
    ids = []
    for _ in range(count):
        players, gid = table(base)
        while move(players, gid, rng) is not None:
            pass
        ids.append(gid)
    return ids


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--moves", type=int, default=150)
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--nice", type=int, default=None, help="override SEADRAGONS_REVIEW_NICE")
    args = parser.parse_args()
    dbs = load.Databases()
    rng = random.Random(1)
    result: dict = {"analyses": args.games, "concurrency": args.concurrency, "nice": args.nice}
    try:
        # Quiet: the same server with no analysis worker (finished games only queue theirs).
        quiet_server = start_server(dbs, "quiet", 0)
        try:
            base = f"http://127.0.0.1:{quiet_server.port}"
            play(base, 20, rng)  # warm up
            result["quiet_ms"] = summary(play(base, args.moves, rng))
        finally:
            quiet_server.stop()
        server = start_server(dbs, "busy", args.concurrency, args.nice)
        try:
            base = f"http://127.0.0.1:{server.port}"
            probe = guest(base, "Probe")
            play(base, 20, rng)
            ids = finished_games(base, args.games, rng)
            deadline = time.monotonic() + 300

            def running() -> bool:
                return any(
                    probe.get(f"/api/games/{g}/analysis").json().get("status") == "running"
                    for g in ids
                )

            while not running():
                assert time.monotonic() < deadline, "no analysis started"
                time.sleep(0.2)
            cpu0, t0 = cpu_split(server), time.monotonic()
            loaded = play(base, args.moves, rng)
            cpu1, t1 = cpu_split(server), time.monotonic()
            result["still_running_at_the_end"] = running()
            window = t1 - t0
            result |= {
                "with_analyses_ms": summary(loaded),
                "server_cpu_cores": round((cpu1[0] - cpu0[0]) / window, 2),
                "workers_cpu_cores": round(((cpu1[1] - cpu0[1]) - (cpu1[0] - cpu0[0])) / window, 2),
                "window_s": round(window, 1),
            }
        finally:
            server.stop()
    finally:
        dbs.drop_all()
    result["loadavg"] = [round(x, 2) for x in os.getloadavg()]
    result["cpus"] = os.cpu_count()
    print(json.dumps(result))


if __name__ == "__main__":
    main()

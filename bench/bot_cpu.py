"""Bots beside people: a bystander's `GET /state` latency, quiet and with 20 bot-only games.

The attack of the report, against a real `seadragons serve` on its own Postgres database: one
guest, twenty times: a 2-seat table, an expert bot, start, hand their own seat to an expert bot;
the guest keeps looking at every game (GET /state every 5 s) so none of them is paused. Meanwhile
a bystander (another guest, seated at a quiet 2-player game) asks for its state one request at a
time. Measured: the bystander's latency quiet and under the bots (p50, p90, max), the bots' moves
per second, and the server's CPU (its own process, and its worker processes) in the window.

`--against DIR` runs the same against another checkout first (e.g. the commit before, as a git
worktree), so both are measured in one run, one after the other, `--rounds` times.
Run: .venv/bin/python bench/bot_cpu.py [--against /tmp/before] [--games 20] [--requests 300]
Prints one JSON object (progress on stderr); docs/benchmarks.md records it.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import load  # noqa: E402

WATCH_EVERY_S = 5.0


def start_server(database_url: str, workdir: Path, root: Path) -> load.Proc:
    """`seadragons serve` from checkout `root` with the production bot settings."""
    env = load.server_env(database_url, workdir)
    env["PYTHONPATH"] = str(root)
    port = load.free_port()
    args = [sys.executable, "-m", "app.cli", "serve", "--port", str(port)]
    proc = load.Proc(args, env, port, workdir / f"server-{port}.log", cwd=root)
    proc.wait_ready("/readyz")
    return proc


def guest(base: str, name: str) -> httpx.Client:
    client = httpx.Client(base_url=base, timeout=30)
    client.post("/api/session/guest", json={"name": name}).raise_for_status()
    return client


def bystander_game(base: str) -> tuple[httpx.Client, int]:
    """A live 2-player game of two people, nobody moving: the bystander sits at it."""
    ann, bob = guest(base, "Bystander"), guest(base, "Friend")
    gid = ann.post("/api/games", json={"players": 2}).json()["id"]
    bob.post(f"/api/games/{gid}/join").raise_for_status()
    ann.post(f"/api/games/{gid}/start").raise_for_status()
    return ann, gid


def bot_games(base: str, count: int) -> tuple[httpx.Client, list[int], int | None]:
    """The attacker's games; returns the client, the game ids, and the status of one more."""
    attacker = guest(base, "Attacker")
    ids = []
    refused = None
    for i in range(count + 1):
        gid = attacker.post("/api/games", json={"players": 2}).json()["id"]
        attacker.post(f"/api/games/{gid}/bots", json={"level": "expert"}).raise_for_status()
        started = attacker.post(f"/api/games/{gid}/start")
        if i == count:  # one past the count: what the cap says
            refused = started.status_code
            break
        started.raise_for_status()
        attacker.post(f"/api/games/{gid}/seats/0/bot", json={"level": "expert"}).raise_for_status()
        ids.append(gid)
    return attacker, ids, refused


def latencies(client: httpx.Client, gid: int, count: int) -> list[float]:
    """`count` requests one after another (a short pause between, as a page polling would)."""
    out = []
    for _ in range(count):
        began = time.perf_counter()
        client.get(f"/api/games/{gid}/state").raise_for_status()
        out.append(time.perf_counter() - began)
        time.sleep(0.02)
    return out


def summary(values: list[float]) -> dict[str, float | None]:
    return {"p50": load.pct(values, 0.5), "p90": load.pct(values, 0.9), "max": load.pct(values, 1)}


def versions(client: httpx.Client, ids: list[int]) -> int:
    return sum(client.get(f"/api/games/{gid}").json()["version"] for gid in ids)


def cpu_split(proc: load.Proc) -> tuple[float, float]:
    """CPU seconds of the server process itself, and of everything (its workers too)."""
    tick = os.sysconf("SC_CLK_TCK")
    fields = Path(f"/proc/{proc.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
    own = (int(fields[11]) + int(fields[12])) / tick
    return own, proc.cpu_s()


def one_run(label: str, root: Path, dbs: load.Databases, games: int, requests: int) -> dict:
    workdir = Path(tempfile.mkdtemp(prefix=f"botcpu-{label}-"))
    server = start_server(dbs.create(label.replace("-", "_")), workdir, root)
    base = f"http://127.0.0.1:{server.port}"
    try:
        bystander, gid = bystander_game(base)
        latencies(bystander, gid, 20)  # warm up
        quiet = latencies(bystander, gid, requests)
        attacker, ids, refused = bot_games(base, games)
        stop = threading.Event()

        def watch() -> None:  # the attacker looks at its games: none is paused
            with httpx.Client(base_url=base, timeout=30, cookies=attacker.cookies) as c:
                while not stop.is_set():
                    for g in ids:
                        c.get(f"/api/games/{g}/state")
                    stop.wait(WATCH_EVERY_S)

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        time.sleep(5)  # the bots get going
        moves0, cpu0, t0 = versions(attacker, ids), cpu_split(server), time.monotonic()
        loaded = latencies(bystander, gid, requests)
        moves1, cpu1, t1 = versions(attacker, ids), cpu_split(server), time.monotonic()
        stop.set()
        watcher.join(30)
        window = t1 - t0
        result = {
            "label": label,
            "quiet_ms": summary(quiet),
            "with_bots_ms": summary(loaded),
            "p50_ratio": round(statistics.median(loaded) / statistics.median(quiet), 2),
            "bot_games": len(ids),
            "one_more_start_status": refused,
            "bot_moves_per_s": round((moves1 - moves0) / window, 2),
            "server_cpu_cores": round((cpu1[0] - cpu0[0]) / window, 2),
            "workers_cpu_cores": round(((cpu1[1] - cpu0[1]) - (cpu1[0] - cpu0[0])) / window, 2),
            "window_s": round(window, 1),
            "loadavg": round(os.getloadavg()[0], 2),
        }
        load.log(json.dumps(result))
        return result
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--against", type=Path, help="another checkout, measured first")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    dbs = load.Databases()
    runs = []
    try:
        for _ in range(args.rounds):
            if args.against is not None:
                runs.append(one_run("before", args.against, dbs, args.games, args.requests))
            runs.append(one_run("after", ROOT, dbs, args.games, args.requests))
    finally:
        dbs.drop_all()
    print(json.dumps({"runs": runs, "cpus": os.cpu_count()}, indent=1))


if __name__ == "__main__":
    main()

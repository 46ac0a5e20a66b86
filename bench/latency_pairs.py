"""One game's latency on two checkouts and the floor, interleaved round by round.

This machine's speed drifts over minutes, so one game's latency measured in one section and
then in another differs by more than a small change in the code does. Here both servers and the
floor are up all along, and each round plays the floor's round trips, then two single games on
each side (the side that goes first alternates); the samples of every round are pooled.

Run: .venv/bin/python bench/latency_pairs.py --before DIR [--rounds 6] [--moves 40]
Prints, per side, the action -> ack and action -> every socket p50 / p99 (ms) and, for the
floor, the round trip's.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import load


async def measure(before: Path, rounds: int, moves: int) -> dict[str, Any]:
    """Pooled percentiles of every round (see the module's docstring)."""
    dbs = load.Databases()
    workdir = Path(tempfile.mkdtemp(prefix="seadragons-pairs-"))
    procs: list[load.Proc] = []
    try:
        floor = load.floor_server(dbs.create("floor"), workdir)
        procs.append(floor)
        servers = {
            "before": load.project_server(dbs.create("before"), workdir, 1, None, root=before),
            "now": load.project_server(dbs.create("now"), workdir, 1, None),
        }
        procs.extend(servers.values())
        games = {}
        for side, server in servers.items():
            made = await load.make_games(f"http://127.0.0.1:{server.port}", 2 * rounds + 1)
            await load.play_games(server.port, made[:1], 10)  # warm up, as bench/load.py does
            games[side] = made[1:]
        samples: dict[str, list[float]] = {"floor": []}
        for side in servers:
            samples[f"{side}_ack"], samples[f"{side}_every_socket"] = [], []
        for r in range(rounds):
            samples["floor"] += await load.floor_round_trips(floor.port, 100)
            for side in ("before", "now") if r % 2 == 0 else ("now", "before"):
                batch, games[side] = games[side][:2], games[side][2:]
                for game in batch:
                    out = await load.play_games(servers[side].port, [game], moves)
                    samples[f"{side}_ack"] += out["_ack_s"]
                    samples[f"{side}_every_socket"] += out["_all_s"]
        return {
            name: {"n": len(v), "p50_ms": load.pct(v, 0.5), "p99_ms": load.pct(v, 0.99)}
            for name, v in samples.items()
        }
    finally:
        for proc in procs:
            proc.stop()
        dbs.drop_all()
        shutil.rmtree(workdir, ignore_errors=True)


def main() -> None:
    """Parse arguments, run, print JSON."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--before", required=True, help="the other checkout")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--moves", type=int, default=40, help="moves per game")
    args = parser.parse_args()
    result = asyncio.run(measure(Path(args.before).resolve(), args.rounds, args.moves))
    result["load_average_end"] = load.load_average()
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()

"""Engine benchmarks: (a) legal placements of a full hand on mid-game boards, (b) random games.

Run: .venv/bin/python bench/engine.py [--positions 200] [--games 40]
Prints one JSON object; docs/benchmarks.md records the figures.

Side by side with another checkout of the project (say `git worktree add /tmp/before <commit>`):
    .venv/bin/python bench/engine.py --against /tmp/before
runs this measuring code in two worker processes, one importing each tree's engine, and hands
them the same tasks alternately (one placement position or one game at a time, the order
swapped every task), so both see the same machine load. It prints each tree's medians and the
ratio this tree / the other.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from app.engine import GameOptions, apply, legal_actions, new_game, to_act
from app.engine.legal import placement_actions, placement_masks


def mid_game_positions(count: int, seed: int) -> list:
    """Positions from random games, halfway through, at the start of a turn."""
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        players = rng.randint(2, 5)
        s = new_game(GameOptions(players=players), rng.getrandbits(32))
        target = rng.randint(12, 22)  # about half of a game's turns
        while not s.over and not (
            s.turn.number >= target and s.turn.phase == "place" and not s.pending
        ):
            seat = to_act(s)
            s, _ = apply(s, rng.choice(legal_actions(s, seat)), seat)
        if not s.over and len(s.players[s.turn.seat].hand) == 2:
            positions.append(s)
    return positions


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 3)


def bench_placements(positions: list) -> dict:
    """Median and p90 time to enumerate every legal placement of the hand (masks / actions)."""
    masks_t, actions_t, counts = [], [], []
    for s in positions:
        hand = s.players[s.turn.seat].hand
        t0 = time.perf_counter()
        n = sum(len(placement_masks(s, c)) for c in hand)
        t1 = time.perf_counter()
        placement_actions(s)
        t2 = time.perf_counter()
        masks_t.append(t1 - t0)
        actions_t.append(t2 - t1)
        counts.append(n)
    q = lambda xs: statistics.quantiles(xs, n=10)[-1]  # noqa: E731
    return {
        "positions": len(positions),
        "median_placements": statistics.median(counts),
        "masks_median_ms": _ms(statistics.median(masks_t)),
        "masks_p90_ms": _ms(q(masks_t)),
        "actions_median_ms": _ms(statistics.median(actions_t)),
        "actions_p90_ms": _ms(q(actions_t)),
    }


def bench_games(players: int, games: int, seed: int, expansion: bool = False) -> dict:
    """Median seconds per random full game (legal_actions + apply every step)."""
    rng = random.Random(seed)
    times, steps = [], []
    for _ in range(games):
        s = new_game(GameOptions(players=players, expansion=expansion), rng.getrandbits(32))
        n = 0
        t0 = time.perf_counter()
        while not s.over:
            seat = to_act(s)
            s, _ = apply(s, rng.choice(legal_actions(s, seat)), seat)
            n += 1
        times.append(time.perf_counter() - t0)
        steps.append(n)
    med = statistics.median(times)
    return {
        "players": players,
        "expansion": expansion,
        "games": games,
        "median_game_ms": _ms(med),
        "games_per_s": round(1 / med, 1),
        "median_actions": statistics.median(steps),
        "median_action_us": round(med / statistics.median(steps) * 1e6, 1),
    }


# --- side by side with another tree -------------------------------------------------------------

CONFIGS = [(2, False), (3, False), (4, False), (5, False), (4, True)]


def random_game(players: int, expansion: bool, seed: int) -> dict[str, float]:
    """Wall and CPU seconds and the action count of one random full game."""
    rng = random.Random(seed)
    s = new_game(GameOptions(players=players, expansion=expansion), seed)
    n = 0
    t0, c0 = time.perf_counter(), time.process_time()
    while not s.over:
        seat = to_act(s)
        s, _ = apply(s, rng.choice(legal_actions(s, seat)), seat)
        n += 1
    return {"wall": time.perf_counter() - t0, "cpu": time.process_time() - c0, "n": n}


def hand_placements(s: Any) -> dict[str, float]:
    """Wall and CPU seconds to list a hand's placements: masks, then JSON actions."""
    t0, c0 = time.perf_counter(), time.process_time()
    sum(len(placement_masks(s, c)) for c in s.players[s.turn.seat].hand)
    t1, c1 = time.perf_counter(), time.process_time()
    placement_actions(s)
    t2, c2 = time.perf_counter(), time.process_time()
    return {"masks_wall": t1 - t0, "masks_cpu": c1 - c0, "json_wall": t2 - t1, "json_cpu": c2 - c1}


def worker(positions: int, seed: int) -> None:
    """Answer timing tasks, one JSON line in and out, with whichever engine is importable."""
    board = mid_game_positions(positions, seed)
    for line in sys.stdin:
        task = json.loads(line)
        if "position" in task:
            out = hand_placements(board[task["position"]])
        else:
            out = random_game(*task["game"])
        print(json.dumps(out), flush=True)


def _start(tree: Path, positions: int, seed: int) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(tree)}  # that tree's `app` comes first
    cmd = [sys.executable, __file__, "--worker", "--positions", str(positions), "--seed", str(seed)]
    return subprocess.Popen(
        cmd, cwd=tree, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )


def _ask(proc: subprocess.Popen, task: dict[str, Any]) -> dict[str, Any]:
    assert proc.stdin and proc.stdout
    proc.stdin.write(json.dumps(task) + "\n")
    proc.stdin.flush()
    return json.loads(proc.stdout.readline())


def _summary(key: str, results: list[dict[str, Any]]) -> dict[str, float]:
    def med(field: str) -> float:
        return statistics.median(r[field] for r in results)

    if key == "placements":
        return {f"{f}_median_ms": _ms(med(f)) for f in results[0]}
    n = med("n")
    return {
        "median_actions": n,
        "wall_median_game_ms": _ms(med("wall")),
        "cpu_median_game_ms": _ms(med("cpu")),
        "cpu_median_action_us": round(med("cpu") / n * 1e6, 1),
    }


def compare(other: Path, positions: int, games: int, seed: int) -> dict[str, Any]:
    """Medians of this tree and `other` on the same tasks, asked alternately."""
    here = Path(__file__).resolve().parents[1]
    procs = {"this": _start(here, positions, seed), "other": _start(other, positions, seed)}
    rng = random.Random(seed)
    tasks: list[tuple[str, dict[str, Any]]] = [
        ("placements", {"position": i}) for i in range(positions)
    ]
    for players, expansion in CONFIGS:
        key = f"{players}p" + (" expansion" if expansion else "")
        tasks += [(key, {"game": [players, expansion, rng.getrandbits(32)]}) for _ in range(games)]
    got: dict[str, dict[str, list[dict[str, Any]]]] = {}
    for k, (key, task) in enumerate(tasks):
        for name in ("this", "other") if k % 2 == 0 else ("other", "this"):
            got.setdefault(key, {}).setdefault(name, []).append(_ask(procs[name], task))
    for proc in procs.values():
        assert proc.stdin
        proc.stdin.close()
        proc.wait()
    report: dict[str, Any] = {"other": str(other), "load_average": os.getloadavg()}
    for key, by_tree in got.items():
        row = {name: _summary(key, results) for name, results in by_tree.items()}
        a, b = row["this"], row["other"]
        row["ratio"] = {f: round(a[f] / b[f], 3) for f in a if f.endswith(("_ms", "_us")) and b[f]}
        report[key] = row
    return report


def main() -> None:
    """Run both benchmarks and print a JSON report."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--against", type=Path, help="another checkout to compare with")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.positions, args.seed)
        return
    if args.against:
        print(json.dumps(compare(args.against, args.positions, args.games, args.seed), indent=1))
        return
    report = {
        "python": platform.python_version(),
        "placements": bench_placements(mid_game_positions(args.positions, args.seed)),
        "games": [bench_games(p, args.games, args.seed) for p in (2, 3, 4, 5)]
        + [bench_games(4, args.games, args.seed, expansion=True)],
    }
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()

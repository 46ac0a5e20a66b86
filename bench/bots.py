"""Bot benchmarks: win shares between levels and the expert's time per decision.

    .venv/bin/python bench/bots.py match --a greedy --b random --games 200 --seed 1
    .venv/bin/python bench/bots.py match --a expert --b greedy --games 200 --budget 1 --rounds 6 \
        --workers 2
    .venv/bin/python bench/bots.py timing --games 2 --players 2

`match` plays 2-player games with the two levels swapping seats every game (the first player is
drawn by the engine from the game seed) and prints one JSON summary; a tie shares the win.
`timing` measures the expert's wall time per decision (decisions with a single legal action
are excluded: the bot answers them at once).
"""

from __future__ import annotations

import argparse
import datetime
import json
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from app.bots import make_bot
from app.engine import (
    GameOptions,
    final_scores,
)
from app.simulate import play_out


def play(
    seed: int,
    levels: list[str],
    budget: float | None,
    rounds: int | None = None,
    timed: str = "expert",
) -> dict[str, Any]:
    """One game; returns the winners' levels and the decision times of the `timed` level."""
    rng = random.Random(seed ^ 0xB075)
    bots = [
        make_bot(lvl, random.Random(rng.getrandbits(32)), budget_s=budget, rounds=rounds)
        for lvl in levels
    ]
    times: list[float] = []

    def observe(seat: int, legal: list[dict], _action: dict, seconds: float) -> None:
        if levels[seat] == timed and len(legal) > 1:
            times.append(seconds)

    state, _ = play_out(GameOptions(players=len(levels)), seed, bots, observe)
    scores = final_scores(state)
    return {
        "seed": seed,
        "levels": levels,
        "totals": [p["total"] for p in scores["players"]],
        "winners": [levels[s] for s in scores["winners"]],
        "times": times,
    }


def _play_args(args: tuple[int, list[str], float | None, int | None]) -> dict[str, Any]:
    return play(*args)


def match(
    a: str,
    b: str,
    games: int,
    seed: int,
    budget: float | None,
    workers: int,
    rounds: int | None = None,
) -> dict:
    """Win share of level `a` against level `b` over 2-player games, seats alternating."""
    jobs = [(seed + g, [a, b] if g % 2 == 0 else [b, a], budget, rounds) for g in range(games)]
    started = time.perf_counter()
    wins = {a: 0.0, b: 0.0}
    margins: list[int] = []
    times: list[float] = []
    results = []
    with ProcessPoolExecutor(max(1, workers)) as pool:
        for r in pool.map(_play_args, jobs):
            results.append(r)
            # progress on stderr: the summary on stdout stays one JSON line
            print(len(results), r["levels"], r["totals"], file=sys.stderr, flush=True)
    for r in results:
        for lvl in r["winners"]:
            wins[lvl] += 1 / len(r["winners"])
        ia = r["levels"].index(a)
        margins.append(r["totals"][ia] - r["totals"][1 - ia])
        times.extend(r["times"])
    out: dict[str, Any] = {
        "date": datetime.date.today().isoformat(),
        "a": a,
        "b": b,
        "games": games,
        "seed": seed,
        "budget_s": budget,
        "rounds": rounds,
        "workers": workers,
        "win_share": {k: round(v / games, 4) for k, v in wins.items()},
        "mean_margin_a": round(statistics.mean(margins), 2),
        "elapsed_seconds": round(time.perf_counter() - started, 1),
    }
    if times:
        out["decision_seconds"] = _time_stats(times)
    return out


def _time_stats(times: list[float]) -> dict[str, Any]:
    return {
        "count": len(times),
        "median": round(statistics.median(times), 4),
        "p95": round(sorted(times)[int(0.95 * (len(times) - 1))], 4),
        "max": round(max(times), 4),
    }


def timing(
    games: int, seed: int, budget: float | None, players: int = 2, level: str = "expert"
) -> dict[str, Any]:
    """A level's time per decision against greedy (one process, as a server would run it)."""
    times: list[float] = []
    for g in range(games):
        levels = ["greedy"] * players
        levels[g % players] = level
        times.extend(play(seed + g, levels, budget, timed=level)["times"])
    return {
        "date": datetime.date.today().isoformat(),
        "level": level,
        "games": games,
        "players": players,
        "budget_s": budget,
        "decision_seconds": _time_stats(times),
    }


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("match")
    m.add_argument("--a", default="greedy")
    m.add_argument("--b", default="random")
    m.add_argument("--games", type=int, default=200)
    m.add_argument("--seed", type=int, default=1)
    m.add_argument("--budget", type=float, default=None, help="expert seconds per decision")
    m.add_argument("--rounds", type=int, default=None, help="cap on expert search rounds")
    m.add_argument("--workers", type=int, default=1)
    t = sub.add_parser("timing")
    t.add_argument("--games", type=int, default=4)
    t.add_argument("--seed", type=int, default=1)
    t.add_argument("--budget", type=float, default=None)
    t.add_argument("--players", type=int, default=2)
    t.add_argument("--level", default="expert")
    args = ap.parse_args(argv)
    if args.cmd == "match":
        out = match(args.a, args.b, args.games, args.seed, args.budget, args.workers, args.rounds)
    else:
        out = timing(args.games, args.seed, args.budget, args.players, args.level)
    print(json.dumps(out, sort_keys=True), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

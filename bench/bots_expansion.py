"""Bot benchmarks in Treasures of the Deep games (GameOptions(expansion=True)).

    .venv/bin/python bench/bots_expansion.py --a greedy --b random --games 40 --workers 4
    .venv/bin/python bench/bots_expansion.py --a greedy --b greedy-base --games 40 --workers 4
    .venv/bin/python bench/bots_expansion.py --a expert --b greedy --games 10 --budget 0.5

2-player games, the two levels swapping seats every game; a tie shares the win. `greedy-base`
is the greedy bot blind to the expansion (it sees the view without the Reward Board, as the bots
did before they learnt the expansion). Prints one JSON line: win share, mean margin, decision
times per level (decisions with one legal action excluded) and, per level and game, the mean
number of Hidden Treasures used, Ancestral heads declared and Coral Reefs played.
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
from app.bots.greedy import GreedyBot
from app.engine import (
    GameOptions,
    final_scores,
)
from app.simulate import play_out

COUNTED = ("use_treasure", "use_ancestral", "play_reef")


class BaseGreedy(GreedyBot):
    """Greedy as it was before the expansion: it sees no Reward Board, tails or treasures."""

    level = "greedy-base"

    def choose(self, view: dict, legal: list[dict]) -> dict:
        """Pick one element of `legal` with the expansion hidden from the evaluation."""
        return super().choose({**view, "expansion": False}, legal)


def _bot(level: str, seed: int, budget: float | None) -> Any:
    if level == "greedy-base":
        return BaseGreedy(random.Random(seed))
    return make_bot(level, random.Random(seed), budget_s=budget)


def play(args: tuple[int, list[str], float | None]) -> dict[str, Any]:
    """One expansion game; winners' levels, decision times and expansion action counts."""
    seed, levels, budget = args
    rng = random.Random(seed ^ 0xE4)
    bots = [_bot(lvl, rng.getrandbits(32), budget) for lvl in levels]
    times: list[list[float]] = [[] for _ in levels]
    counts = [dict.fromkeys(COUNTED, 0) for _ in levels]

    def observe(seat: int, legal: list[dict], action: dict, seconds: float) -> None:
        if len(legal) > 1:
            times[seat].append(seconds)
        if action["type"] in counts[seat]:
            counts[seat][action["type"]] += 1

    state, _ = play_out(GameOptions(players=len(levels), expansion=True), seed, bots, observe)
    scores = final_scores(state)
    return {
        "levels": levels,
        "totals": [p["total"] for p in scores["players"]],
        "winners": [levels[s] for s in scores["winners"]],
        "times": times,
        "counts": counts,
    }


def match(a: str, b: str, games: int, seed: int, budget: float | None, workers: int) -> dict:
    """Win share of level `a` against level `b` in 2-player expansion games, seats alternating."""
    jobs = [(seed + g, [a, b] if g % 2 == 0 else [b, a], budget) for g in range(games)]
    started = time.perf_counter()
    with ProcessPoolExecutor(max(1, workers)) as pool:
        results = list(pool.map(play, jobs))
    wins = {a: 0.0, b: 0.0}
    margins = []
    times: dict[str, list[float]] = {a: [], b: []}
    used: dict[str, dict[str, int]] = {a: dict.fromkeys(COUNTED, 0), b: dict.fromkeys(COUNTED, 0)}
    for r in results:
        for lvl in r["winners"]:
            wins[lvl] += 1 / len(r["winners"])
        ia = r["levels"].index(a)
        margins.append(r["totals"][ia] - r["totals"][1 - ia])
        for s, lvl in enumerate(r["levels"]):
            times[lvl].extend(r["times"][s])
            for k, v in r["counts"][s].items():
                used[lvl][k] += v
    return {
        "date": datetime.date.today().isoformat(),
        "expansion": True,
        "a": a,
        "b": b,
        "games": games,
        "seed": seed,
        "budget_s": budget,
        "win_share": {k: round(v / games, 3) for k, v in wins.items()},
        "mean_margin_a": round(statistics.mean(margins), 1),
        "per_game": {
            lvl: {k: round(v / games, 2) for k, v in c.items()} for lvl, c in used.items()
        },
        "decision_seconds": {
            lvl: {
                "median": round(statistics.median(t), 4),
                "max": round(max(t), 4),
                "count": len(t),
            }
            for lvl, t in times.items()
            if t
        },
        "elapsed_seconds": round(time.perf_counter() - started, 1),
    }


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--a", default="greedy")
    ap.add_argument("--b", default="random")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--budget", type=float, default=None, help="expert seconds per decision")
    ap.add_argument("--workers", type=int, default=1)
    args = ap.parse_args(argv)
    out = match(args.a, args.b, args.games, args.seed, args.budget, args.workers)
    print(json.dumps(out, sort_keys=True), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The learned expert against today's expert and greedy: win shares with 95% intervals, and CPU.

    nice -n 19 .venv/bin/python bench/expert_strength.py duel --a expert_learned --b expert_v1 \
        --games 200 --rounds 6 --seed 1
    nice -n 19 .venv/bin/python bench/expert_strength.py table --a expert_learned --b expert_v1 \
        --players 4 --games 100 --rounds 6 --seed 1 [--expansion]
    nice -n 19 .venv/bin/python bench/expert_strength.py targets --rounds 6 --seed 1   # all of them

`duel` plays 2-player games, the two levels swapping seats every game; `table` seats one `a`
against `players - 1` of `b`, `a`'s seat moving round the table game by game. A shared first
place counts as a share (1/number of winners). Each share comes with its Wilson 95% interval.
`targets` runs the whole target list of the learned expert (docs/benchmarks.md, "The learned
expert") one after the other and prints one JSON line per part: against today's expert 200
2-player games base and expansion, 100 4-player tables base and expansion, against greedy 200
2-player games.

Both experts search a fixed number of rounds (`--rounds`, with a generous time budget), so the
games depend only on the seeds and not on the machine's load. CPU per decision is the process's
CPU time (`time.process_time`) around each `choose`, not wall time, so a busy machine does not
inflate it; decisions with a single legal action are left out (every level answers them at once).
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import random
import statistics
import sys
import time
from typing import Any

from app.bots import make_bot
from app.engine import (
    GameOptions,
    apply,
    final_scores,
    is_over,
    legal_actions,
    new_game,
    to_act,
    view_for,
)

Json = dict[str, Any]
BUDGET_S = 60.0  # generous: the rounds cap, not the clock, ends each search


def wilson(share: float, n: int, z: float = 1.96) -> list[float]:
    """Wilson score interval of a share observed over `n` trials."""
    if n == 0:
        return [0.0, 1.0]
    denom = 1 + z * z / n
    centre = (share + z * z / (2 * n)) / denom
    half = z * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n)) / denom
    return [round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4)]


def play(seed: int, levels: list[str], rounds: int, expansion: bool) -> Json:
    """One game; the winners' seats, totals, and each level's CPU seconds per decision."""
    rng = random.Random(seed ^ 0xE4E7)
    bots = [
        make_bot(lvl, random.Random(rng.getrandbits(32)), budget_s=BUDGET_S, rounds=rounds)
        for lvl in levels
    ]
    cpu: dict[str, list[float]] = {lvl: [] for lvl in levels}
    state = new_game(GameOptions(players=len(levels), expansion=expansion), seed)
    while not is_over(state):
        seat = to_act(state)
        legal = legal_actions(state, seat)
        view = view_for(state, seat)
        began = time.process_time()
        action = bots[seat].choose(view, legal)
        spent = time.process_time() - began
        if len(legal) > 1:
            cpu[levels[seat]].append(spent)
        state, _ = apply(state, action, seat)
    scores = final_scores(state)
    return {
        "totals": [p["total"] for p in scores["players"]],
        "winners": list(scores["winners"]),
        "cpu": cpu,
    }


def cpu_stats(times: list[float]) -> Json:
    """Median, p95 and max CPU seconds per decision."""
    if not times:
        return {"count": 0}
    ordered = sorted(times)
    return {
        "count": len(times),
        "median": round(statistics.median(ordered), 4),
        "p95": round(ordered[int(0.95 * (len(ordered) - 1))], 4),
        "max": round(ordered[-1], 4),
    }


def run(a: str, b: str, players: int, games: int, seed: int, rounds: int, expansion: bool) -> Json:
    """`a` in one seat (rotating), `b` in the others; `a`'s share of first places."""
    started = time.perf_counter()
    wins = 0.0
    margins: list[float] = []
    cpu: dict[str, list[float]] = {a: [], b: []}
    out: Json = {}
    for g in range(games):
        seat = g % players
        levels = [b] * players
        levels[seat] = a
        r = play(seed + g, levels, rounds, expansion)
        if seat in r["winners"]:
            wins += 1 / len(r["winners"])
        others = [t for s, t in enumerate(r["totals"]) if s != seat]
        margins.append(r["totals"][seat] - max(others))
        for lvl, times in r["cpu"].items():
            cpu[lvl].extend(times)
        print(g + 1, levels, r["totals"], file=sys.stderr, flush=True)
        out = summary(a, b, players, g + 1, seed, rounds, expansion, wins, margins, cpu)
        out["elapsed_seconds"] = round(time.perf_counter() - started, 1)
        # The summary so far after every game: a run stopped early still reports what it played.
        print("so far", json.dumps(out, sort_keys=True), file=sys.stderr, flush=True)
    return out


def summary(
    a: str,
    b: str,
    players: int,
    games: int,
    seed: int,
    rounds: int,
    expansion: bool,
    wins: float,
    margins: list[float],
    cpu: dict[str, list[float]],
) -> Json:
    """`a`'s share of first places over the games played, its interval, and both levels' CPU."""
    share = wins / games if games else 0.0
    return {
        "date": datetime.date.today().isoformat(),
        "a": a,
        "b": b,
        "players": players,
        "expansion": expansion,
        "games": games,
        "seed": seed,
        "rounds": rounds,
        "first_place_share_a": round(share, 4),
        "wilson95_a": wilson(share, games),
        "even_share": round(1 / players, 4),
        "mean_margin_a_vs_best_other": round(statistics.mean(margins), 2) if margins else None,
        "cpu_s_per_decision": {lvl: cpu_stats(t) for lvl, t in cpu.items()},
    }


# The target list: (label, a, b, players, games, expansion, target share for a).
TARGETS = [
    ("vs today's expert, 2p base", "expert_learned", "expert_v1", 2, 200, False, 0.65),
    ("vs today's expert, 2p expansion", "expert_learned", "expert_v1", 2, 200, True, 0.65),
    ("vs three of today's experts, 4p base", "expert_learned", "expert_v1", 4, 100, False, 0.40),
    ("vs three of today's experts, 4p exp.", "expert_learned", "expert_v1", 4, 100, True, 0.40),
    ("vs greedy, 2p base", "expert_learned", "greedy", 2, 200, False, 0.90),
]


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("duel", "table"):
        p = sub.add_parser(name)
        p.add_argument("--a", default="expert_learned")
        p.add_argument("--b", default="expert_v1")
        p.add_argument("--games", type=int, default=200 if name == "duel" else 100)
        p.add_argument("--players", type=int, default=2 if name == "duel" else 4)
        p.add_argument("--expansion", action="store_true")
        p.add_argument("--seed", type=int, default=1)
        p.add_argument("--rounds", type=int, default=6)
    t = sub.add_parser("targets")
    t.add_argument("--seed", type=int, default=1)
    t.add_argument("--rounds", type=int, default=6)
    t.add_argument("--scale", type=float, default=1.0, help="fraction of each target's games")
    args = ap.parse_args(argv)
    if args.cmd in ("duel", "table"):
        players = 2 if args.cmd == "duel" else args.players
        out = run(args.a, args.b, players, args.games, args.seed, args.rounds, args.expansion)
        print(json.dumps(out, sort_keys=True), flush=True)
        return 0
    for label, a, b, players, games, expansion, target in TARGETS:
        n = max(1, round(games * args.scale))
        out = run(a, b, players, n, args.seed, args.rounds, expansion)
        out["label"], out["target_share"] = label, target
        out["target_shown"] = out["wilson95_a"][0] >= target
        print(json.dumps(out, sort_keys=True), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""How many games does ordering a population take when two levels are this close? Simulated.

Bot games are too slow on a shared machine to play hundreds of populations, so this draws the
games instead: every member has a true strength, and a game's places are drawn from the
Plackett-Luce model (the first place with chances proportional to exp(strength), then the next
among the rest, ...), the model OpenSkill assumes. Seating is the bot benches' (least-played
first). For each parameter set, over `--runs` populations:

- how often the shown ratings put every pair of members of different levels in the true order
  after 10, 20, 30, 50 and 100 games per member (`ordered_at`);
- the mean log loss of the pre-game win chances (the criterion to choose parameters by: a proper
  scoring rule, it rewards predictions that match how often things happen, not a lucky order);
- the same order question for an oracle: the maximum-likelihood Plackett-Luce strengths of
  every member from all games so far (no prior, no drift, the games' full places), about the
  best any rating computed from results can do with that many games.

The strengths: `--fit FILE...` estimates one per level from recorded bot games
(bench/rating_calibration.py `--out`), by maximum likelihood with a tiny prior (greedy beats
random in every game, and the unregularised gap is infinite); `--gap LEVEL=X` sets one by hand
(X in natural-log odds over the level below: 0.895 is a 71 % head-to-head win share).

    cd bench && nice -n 15 ../.venv/bin/python rating_synthetic.py --gap greedy=6 \
        --gap expert=0.895 --runs 60 --seed 1000 --grid --oracle
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import random
import statistics
import sys
from pathlib import Path
from typing import Any

from rating_calibration import evaluate, model_of, read_games
from rating_population import STRENGTH

LEVELS = ("random", "greedy", "expert")
CHECKPOINTS = (10, 20, 30, 50, 100)


def _orderings(games: list[dict[str, Any]]) -> list[list[str]]:
    """Each game's members best first (equal places in seat order: ties are rare)."""
    return [
        [m for _, m in sorted(zip(g["places"], g["seated"], strict=True), key=lambda t: t[0])]
        for g in games
    ]


def mle(
    orderings: list[list[str]], group: dict[str, str], prior: float = 0.5, sweeps: int = 200
) -> dict[str, float]:
    """Plackett-Luce maximum-likelihood log-strengths of the groups (`group`: member -> its
    group; a member its own group for per-member strengths), by Hunter's MM algorithm. `prior`:
    that many pseudo-wins and pseudo-losses of every group against a fixed reference of
    strength 1, which keeps strengths finite when one group always beats another."""
    names = sorted(set(group.values()))
    gamma = dict.fromkeys(names, 1.0)
    wins = dict.fromkeys(names, prior)
    for order in orderings:
        for member in order[:-1]:  # every stage but the last is won by its first member
            wins[group[member]] += 1
    for _ in range(sweeps):
        # the prior's 2 x `prior` stages against the reference
        denominator = {n: 2 * prior / (gamma[n] + 1.0) for n in names}
        for order in orderings:
            rest = [gamma[group[m]] for m in order]
            tails = list(itertools.accumulate(reversed(rest)))[::-1]  # sum over the remaining
            for stage in range(len(order) - 1):
                share = 1.0 / tails[stage]
                for m in order[stage:]:
                    denominator[group[m]] += share
        gamma = {n: wins[n] / denominator[n] for n in names}
    return {n: math.log(g) for n, g in gamma.items()}


def draw_places(rng: random.Random, strengths: list[float]) -> list[int]:
    """A Plackett-Luce draw: places (1 = first) for these log-strengths."""
    left = list(range(len(strengths)))
    places = [0] * len(strengths)
    for place in range(1, len(strengths) + 1):
        weights = [math.exp(strengths[i]) for i in left]
        pick = rng.choices(left, weights)[0]
        places[pick] = place
        left.remove(pick)
    return places


def population_games(
    levels: dict[str, str], truth: dict[str, float], games: int, players: int, seed: int
) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    played = dict.fromkeys(levels, 0)
    names = list(levels)
    out = []
    for _ in range(games):
        rng.shuffle(names)
        seated = sorted(names, key=lambda m: played[m])[:players]
        rng.shuffle(seated)
        places = draw_places(rng, [truth[levels[m]] for m in seated])
        for m in seated:
            played[m] += 1
        out.append({"seated": seated, "places": places})
    return out


def _oracle_ordered(levels: dict[str, str], games: list[dict[str, Any]]) -> bool:
    strength = mle(_orderings(games), {m: m for m in levels}, prior=0.05, sweeps=100)
    return all(
        strength[a] > strength[b]
        for a in levels
        for b in levels
        if STRENGTH[levels[a]] > STRENGTH[levels[b]]
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--random", type=int, default=1)
    parser.add_argument("--greedy", type=int, default=2)
    parser.add_argument("--expert", type=int, default=2)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--fit", type=Path, nargs="*", default=[])
    parser.add_argument("--gap", action="append", default=[], help="LEVEL=X (log odds)")
    parser.add_argument("--grid", action="store_true", help="a grid of beta and prior sigma")
    parser.add_argument("--oracle", action="store_true", help="also the maximum-likelihood order")
    parser.add_argument("--beta", type=float, help="one parameter set (without --grid)")
    parser.add_argument("--sigma", type=float, help="the newcomer's sigma (without --grid)")
    parser.add_argument(
        "--tau", type=float, help="the drift added every game (with or without --grid)"
    )
    args = parser.parse_args()
    gaps = {"greedy": 6.0, "expert": 0.895}
    fitted: dict[str, Any] = {}
    if args.fit:
        recorded: list[dict[str, Any]] = []
        group: dict[str, str] = {}
        for path in args.fit:
            _, levels, games = read_games(path)
            recorded += games
            group |= levels
        strength = mle(_orderings(recorded), group)
        fitted = {
            "games": len(recorded),
            "log_strength": {k: round(v, 3) for k, v in strength.items()},
        }
        if "greedy" in strength and "expert" in strength:
            gaps["expert"] = strength["expert"] - strength["greedy"]
        if "greedy" in strength and "random" in strength:
            gaps["greedy"] = strength["greedy"] - strength["random"]
    for item in args.gap:
        level, value = item.split("=")
        gaps[level] = float(value)
    truth = {"random": 0.0, "greedy": gaps["greedy"], "expert": gaps["greedy"] + gaps["expert"]}
    counts = {"random": args.random, "greedy": args.greedy, "expert": args.expert}
    levels = {f"{lv}{i}": lv for lv in LEVELS for i in range(counts[lv])}
    games = -(-len(levels) * max(CHECKPOINTS) // args.players)  # the last checkpoint included
    runs = [
        population_games(levels, truth, games, args.players, args.seed + r)
        for r in range(args.runs)
    ]
    grid = (
        [(b, s) for b in (25 / 6, 3.0, 2.0, 1.4) for s in (25 / 3, 6.0)]
        if args.grid
        else [(args.beta, args.sigma)]
    )
    results = []
    for beta, sigma in grid:
        model = model_of(beta, args.tau, sigma)
        ordered = {c: 0 for c in CHECKPOINTS}
        losses = []
        for run in runs:
            scored = evaluate(levels, run, args.players, model)
            pairs = scored["pairs_in_order_by_games_per_member"]
            for c in CHECKPOINTS:
                ordered[c] += pairs.get(c, pairs.get(str(c), 0.0)) == 1.0
            losses.append(scored["log_loss"]["all"])
        results.append(
            {
                "beta": round(model.beta, 3),
                "sigma": round(model.sigma, 3),
                "tau": round(model.tau, 4),
                "ordered_at": {c: round(ordered[c] / args.runs, 3) for c in CHECKPOINTS},
                "log_loss": round(statistics.fmean(losses), 4),
            }
        )
    out: dict[str, Any] = {
        "args": {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()},
        "fitted": fitted,
        "truth_log_strength": truth,
        "games_per_run": games,
        "models": results,
    }
    if args.oracle:
        out["oracle_ordered_at"] = {
            c: round(
                sum(_oracle_ordered(levels, run[: len(levels) * c // args.players]) for run in runs)
                / args.runs,
                3,
            )
            for c in CHECKPOINTS
        }
    print(json.dumps(out, indent=1, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Calibration of the ratings on simulated populations of known strength.

Bot instances (random < greedy < expert: the true order) play rated free-for-all games, each
rated as a person from the newcomer's rating (bench/rating_population.py). Reported:

- when the leaderboard (by displayed rating) first puts every pair of members of different
  levels in the true order, and keeps it to the end: in games per member. Members of one level
  are equal in truth, so that is Spearman's rank correlation reaching its largest possible value
  given those ties (printed as `spearman_max`), the tie-aware form of "Spearman = 1"; and, per
  games per member, Spearman and the share of those pairs in the true order;
- how well the pre-game predictions (OpenSkill predict_win) matched the winners: Brier score and
  log loss of the winner's predicted chance, against the naive 1/n, over all games and over the
  second half (once ratings have settled).

Who sits at which game, and the bots' seeds, never depend on the ratings (least-played first,
then the seed), so a played population's games (`--out`, one JSON line per game) can be rated
again under other model parameters (`--replay FILE --beta B --tau T --sigma S`) at no cost: the
same games, another rating model.

    cd bench && nice -n 10 ../.venv/bin/python rating_calibration.py --random 6 --greedy 6 \
        --expert 0 --per-member 40
    cd bench && nice -n 15 ../.venv/bin/python rating_calibration.py --random 2 --greedy 3 \
        --expert 3 --expert-rounds 6 --per-member 30 --seed 21 --out /tmp/cal-21.jsonl
    cd bench && ../.venv/bin/python rating_calibration.py --replay /tmp/cal-21.jsonl --beta 2
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from openskill.models import PlackettLuce
from rating_population import STRENGTH, Member, play_rated, population

from app.services.ratings import model as rm


def _ranks(values: list[float]) -> list[float]:
    """Average ranks (1 = largest), ties sharing."""
    order = sorted(range(len(values)), key=lambda i: -values[i])
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def spearman(a: list[float], b: list[float]) -> float:
    ra, rb = _ranks(a), _ranks(b)
    ma, mb = statistics.fmean(ra), statistics.fmean(rb)
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb, strict=True))
    var = math.sqrt(sum((x - ma) ** 2 for x in ra) * sum((y - mb) ** 2 for y in rb))
    return cov / var if var else 0.0


def pairs_in_order(members: list[Member]) -> float:
    """The share of pairs of members of different levels in the true order by shown rating."""
    pairs = [(a, b) for a in members for b in members if STRENGTH[a.level] > STRENGTH[b.level]]
    return sum(a.skill.display > b.skill.display for a, b in pairs) / len(pairs)


def model_of(beta: float | None, tau: float | None, sigma: float | None) -> PlackettLuce:
    """The package's Plackett-Luce with some parameters changed (None: the server's)."""
    kwargs: dict[str, float] = {}
    if beta is not None:
        kwargs["beta"] = beta
    if tau is not None:
        kwargs["tau"] = tau
    if sigma is not None:
        kwargs["sigma"] = sigma
    return PlackettLuce(**kwargs) if kwargs else rm.MODEL


def evaluate(
    levels: dict[str, str], games: list[dict[str, Any]], players: int, model: PlackettLuce
) -> dict[str, Any]:
    """Rate the recorded games in order under `model` and score the ratings (module doc)."""
    new = rm.Skill(model.mu, model.sigma)
    members = [Member(name, level, new) for name, level in levels.items()]
    by_name = {m.name: m for m in members}
    truth = [float(STRENGTH[m.level]) for m in members]
    # The best a tie-free leaderboard can do against a truth with ties (members of one level).
    spearman_max = spearman(truth, [t + i * 1e-6 for i, t in enumerate(truth)])
    record: list[dict[str, float]] = []  # per game: briers and log losses, model and naive
    order_since: int | None = None
    curve: dict[int, float] = {}
    pairs: dict[int, float] = {}
    for number, game in enumerate(games, start=1):
        seated = [by_name[name] for name in game["seated"]]
        places = game["places"]
        n = len(seated)
        before = rm.predict([m.skill for m in seated], model)
        for m, after in zip(seated, rm.rate([m.skill for m in seated], places, model), strict=True):
            m.skill = after
        won = [1.0 if p == 1 else 0.0 for p in places]
        outcome = [w / sum(won) for w in won]
        chance = [b["win"] for b in before]
        record.append(
            {
                "brier": sum((c - o) ** 2 for c, o in zip(chance, outcome, strict=True)),
                "brier_naive": sum((1 / n - o) ** 2 for o in outcome),
                "log": -sum(
                    o * math.log(max(c, 1e-9)) for c, o in zip(chance, outcome, strict=True)
                ),
                "log_naive": math.log(n),
            }
        )
        share = pairs_in_order(members)
        if share == 1.0 and order_since is None:
            order_since = number
        elif share < 1.0:
            order_since = None
        per_member = number * players / len(members)
        if abs(per_member - round(per_member)) < players / len(members) / 2 + 1e-9:
            shown = [float(m.skill.display) for m in members]
            curve[round(per_member)] = round(spearman(truth, shown), 4)
            pairs[round(per_member)] = round(share, 3)

    def mean(key: str, part: list[dict[str, float]]) -> float:
        return round(statistics.fmean(r[key] for r in part), 4)

    half = record[len(record) // 2 :]
    return {
        "model": {"mu": model.mu, "sigma": model.sigma, "beta": model.beta, "tau": model.tau},
        "games": len(games),
        "spearman_max": round(spearman_max, 4),
        "true_order_from_game": order_since,
        "true_order_from_games_per_member": None
        if order_since is None
        else round(order_since * players / len(members), 1),
        "spearman_by_games_per_member": curve,
        "pairs_in_order_by_games_per_member": pairs,
        "brier": {
            "all": mean("brier", record),
            "naive": mean("brier_naive", record),
            "second_half": mean("brier", half),
            "naive_second_half": mean("brier_naive", half),
        },
        "log_loss": {
            "all": mean("log", record),
            "naive": mean("log_naive", record),
            "second_half": mean("log", half),
            "naive_second_half": mean("log_naive", half),
        },
        "final": {m.name: m.skill.display for m in sorted(members, key=lambda m: -m.skill.display)},
    }


def read_games(path: Path) -> tuple[dict[str, Any], dict[str, str], list[dict[str, Any]]]:
    """(the run's arguments, member name -> level, the games in order) from an `--out` file."""
    lines = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    head, games = lines[0], lines[1:]
    return head["args"], head["levels"], games


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--random", type=int, default=6)
    parser.add_argument("--greedy", type=int, default=6)
    parser.add_argument("--expert", type=int, default=0)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--per-member", type=int, default=40)
    parser.add_argument("--expert-rounds", type=int, default=2)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--out", type=Path, help="write the games played, one JSON line each")
    parser.add_argument("--replay", type=Path, help="rate the games of an --out file again")
    parser.add_argument("--beta", type=float)
    parser.add_argument("--tau", type=float)
    parser.add_argument("--sigma", type=float, help="the newcomer's sigma")
    args = parser.parse_args()
    model = model_of(args.beta, args.tau, args.sigma)
    started = time.perf_counter()
    if args.replay:
        run, levels, games = read_games(args.replay)
        result = evaluate(levels, games, run["players"], model)
        print(json.dumps({"replay": str(args.replay), "run": run, **result}, indent=1))
        return 0
    members = population({"random": args.random, "greedy": args.greedy, "expert": args.expert})
    levels = {m.name: m.level for m in members}
    games: list[dict[str, Any]] = []
    out = args.out.open("w") if args.out else None
    if out:
        head = {"args": {k: v for k, v in vars(args).items() if k not in ("out", "replay")}}
        out.write(json.dumps({**head, "levels": levels}) + "\n")

    def keep(number: int, seated: list[Member], _before: list, places: list[int]) -> None:
        games.append({"seated": [m.name for m in seated], "places": places})
        if out:
            out.write(json.dumps(games[-1]) + "\n")
            out.flush()  # a long run can be read (and replayed) while it plays

    total = len(members) * args.per_member // args.players
    play_rated(
        members, total, args.players, args.seed, expert_rounds=args.expert_rounds, watch=keep
    )
    result = evaluate(levels, games, args.players, model)
    seconds = round(time.perf_counter() - started, 1)
    print(
        json.dumps(
            {"args": vars(args) | {"out": str(args.out)}, "seconds": seconds, **result}, indent=1
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Calibration of the ratings on simulated populations of known strength.

Bot instances (random < greedy < expert: the true order) play rated free-for-all games, each
rated as a person from the newcomer's rating (bench/rating_population.py). Reported:

- when the leaderboard (by displayed rating) first puts every pair of members of different
  levels in the true order, and keeps it to the end: in games per member. Members of one level
  are equal in truth, so that is Spearman's rank correlation reaching its largest possible value
  given those ties (printed as `spearman_max`), the tie-aware form of "Spearman = 1";
- how well the pre-game predictions (OpenSkill predict_win) matched the winners: Brier score and
  log loss of the winner's predicted chance, against the naive 1/n, over all games and over the
  second half (once ratings have settled).

    cd bench && nice -n 10 ../.venv/bin/python rating_calibration.py --random 6 --greedy 6 \
        --expert 0 --per-member 40
    cd bench && nice -n 10 ../.venv/bin/python rating_calibration.py --random 4 --greedy 4 \
        --expert 2 --per-member 30
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time

from rating_population import STRENGTH, Member, play_rated, population


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


def ordered(members: list[Member]) -> bool:
    """Every pair of members of different levels is in the true order by displayed rating."""
    return all(
        a.skill.display > b.skill.display
        for a in members
        for b in members
        if STRENGTH[a.level] > STRENGTH[b.level]
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--random", type=int, default=6)
    parser.add_argument("--greedy", type=int, default=6)
    parser.add_argument("--expert", type=int, default=0)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--per-member", type=int, default=40)
    parser.add_argument("--expert-rounds", type=int, default=2)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    members = population({"random": args.random, "greedy": args.greedy, "expert": args.expert})
    games = len(members) * args.per_member // args.players
    truth = [float(STRENGTH[m.level]) for m in members]
    # The best a tie-free leaderboard can do against a truth with ties (members of one level).
    spearman_max = spearman(truth, [t + i * 1e-6 for i, t in enumerate(truth)])
    record: list[dict[str, float]] = []  # per game: briers and log losses, model and naive
    order_since: list[int | None] = [None]
    curve: dict[int, float] = {}

    def watch(number: int, seated: list[Member], before: list, places: list[int]) -> None:
        n = len(seated)
        won = [1.0 if p == 1 else 0.0 for p in places]
        share = sum(won)
        outcome = [w / share for w in won]
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
        in_order = ordered(members)
        if in_order and order_since[0] is None:
            order_since[0] = number
        elif not in_order:
            order_since[0] = None
        per_member = number * args.players / len(members)
        if abs(per_member - round(per_member)) < args.players / len(members) / 2 + 1e-9:
            # (play_rated reorders `members`: the truth is read in the same order)
            now_truth = [float(STRENGTH[m.level]) for m in members]
            shown = [float(m.skill.display) for m in members]
            curve[round(per_member)] = round(spearman(now_truth, shown), 4)

    started = time.perf_counter()
    play_rated(
        members, games, args.players, args.seed, expert_rounds=args.expert_rounds, watch=watch
    )

    def mean(key: str, part: list[dict[str, float]]) -> float:
        return round(statistics.fmean(r[key] for r in part), 4)

    half = record[len(record) // 2 :]
    stable = order_since[0]
    print(
        json.dumps(
            {
                "args": vars(args),
                "games": games,
                "seconds": round(time.perf_counter() - started, 1),
                "spearman_max": round(spearman_max, 4),
                "true_order_from_game": stable,
                "true_order_from_games_per_member": None
                if stable is None
                else round(stable * args.players / len(members), 1),
                "spearman_by_games_per_member": curve,
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
                "final": {
                    m.name: m.skill.display for m in sorted(members, key=lambda m: -m.skill.display)
                },
            },
            indent=1,
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Measure the bots' anchor ratings (app/services/ratings/anchors.py) from a bot population.

Several instances of each level play rated free-for-all games against each other (distinct
instances per game, drawn at random), each rated from the newcomer's rating exactly as people
are. After `--per-member` games each, a level's anchor is its instances' mean mu and mean sigma.
Greedy beats random in every game, so that gap grows with the games played: the anchors are
stated for a fixed number of games per player (the calibration target, 30), not a limit.

    cd bench && nice -n 10 ../.venv/bin/python rating_anchors.py --per-member 30
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

from rating_population import play_rated, population


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--random", type=int, default=4)
    parser.add_argument("--greedy", type=int, default=4)
    parser.add_argument("--expert", type=int, default=2)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--per-member", type=int, default=30)
    parser.add_argument("--expert-rounds", type=int, default=2)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    members = population({"random": args.random, "greedy": args.greedy, "expert": args.expert})
    games = len(members) * args.per_member // args.players
    started = time.perf_counter()
    play_rated(members, games, args.players, args.seed, expert_rounds=args.expert_rounds)
    anchors = {}
    for level in ("random", "greedy", "expert"):
        mine = [m for m in members if m.level == level]
        mu = statistics.fmean(m.skill.mu for m in mine)
        sigma = statistics.fmean(m.skill.sigma for m in mine)
        anchors[level] = {
            "mu": round(mu, 2),
            "sigma": round(sigma, 2),
            "members_mu": [round(m.skill.mu, 2) for m in mine],
        }
    print(
        json.dumps(
            {
                "args": vars(args),
                "games": games,
                "seconds": round(time.perf_counter() - started, 1),
                "anchors": anchors,
            },
            indent=2,
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

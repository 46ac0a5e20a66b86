"""Where a game review's CPU goes: one game analysed under yappi's CPU clock, by part.

    nice -n 15 .venv/bin/python bench/review_profile.py --seed 7 --rounds 2
    nice -n 19 .venv/bin/python bench/review_profile.py --seed 7 --settings   # the server's budget

The game is `bench/review.py time`'s (a 4-player expansion game between greedy bots, seed 7).
Reported: the CPU of the whole analysis with the profiler on (yappi inflates it: compare
fractions, not seconds, with `bench/review.py time`), then the inclusive time of the review's
steps (the shortlist's scoring, the determinisation of the hidden cards, the rollouts and, in
them, the bots' choices and the engine's moves, the leaf's evaluation) as a share of the whole,
and the functions with the most time of their own. Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import yappi

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.review import ReviewSettings, analyse_game
from bench.review import greedy_record

# (label, module path suffix, function name): inclusive times to report.
STEPS = [
    ("analyse_decision (all of it)", "app/review/decision.py", "analyse_decision"),
    (
        "Scorer.score_all (shortlists and the rollout policy)",
        "app/bots/greedy.py",
        "Scorer.score_all",
    ),
    ("shortlist: candidates", "app/bots/expert.py", "candidates"),
    ("determinise (sample hidden cards)", "app/bots/determinise.py", "determinise"),
    ("playout (rollouts)", "app/bots/expert.py", "playout"),
    ("outcome (leaf evaluation)", "app/review/chance.py", "outcome"),
    ("... the fitted leaf model", "app/review/leaf.py", "LeafModel.chances"),
    (
        "Scorer construction (per decision and rollout step)",
        "app/bots/greedy.py",
        "Scorer.__init__",
    ),
    ("rollout policy: GreedyBot.choose", "app/bots/greedy.py", "GreedyBot.choose"),
    ("engine: apply", "app/engine/rules.py", "apply"),
    ("engine: legal_actions", "app/engine/legal.py", "legal_actions"),
    ("engine: view_for", "app/engine/views.py", "view_for"),
]


def _key(stat: Any) -> tuple[str, str]:
    return stat.module.replace("\\", "/"), stat.name


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument(
        "--settings", action="store_true", help="the server's default budget (not --rounds alone)"
    )
    args = parser.parse_args(argv)
    record = greedy_record(4, True, args.seed)
    budget = ReviewSettings(rounds=args.rounds)
    if args.settings:
        from app.review.source import review_settings
        from app.settings import get_settings

        budget = review_settings(get_settings())
    yappi.set_clock_type("cpu")
    start = time.process_time()
    yappi.start(builtins=False)
    analyse_game(record, budget)
    yappi.stop()
    cpu = time.process_time() - start
    stats = yappi.get_func_stats()
    total = max(
        (s.ttot for s in stats if s.name == "analyse_game"), default=cpu
    )  # the profiled call itself
    steps: dict[str, Any] = {}
    for label, path, name in STEPS:
        found = [s for s in stats if s.name == name and _key(s)[0].endswith(path)]
        ttot = sum(s.ttot for s in found)
        calls = sum(s.ncall for s in found)
        steps[label] = {"share": round(ttot / total, 3), "seconds": round(ttot, 1), "calls": calls}
    own = sorted(stats, key=lambda s: s.tsub, reverse=True)[: args.top]
    by_module: dict[str, float] = {}
    for s in stats:
        module = _key(s)[0].split("/app/")[-1] if "/app/" in _key(s)[0] else _key(s)[0]
        by_module[module] = by_module.get(module, 0.0) + s.tsub
    modules = sorted(by_module.items(), key=lambda kv: kv[1], reverse=True)[:12]
    print(
        json.dumps(
            {
                "game": record.game_id,
                "moves": len(record.moves),
                "budget": budget.to_json(),
                "cpu_seconds_profiled": round(cpu, 1),
                "steps_inclusive": steps,
                "own_time_by_module": {m: round(t / total, 3) for m, t in modules},
                "own_time_top": [
                    {
                        "function": f"{_key(s)[0].split('/app/')[-1]}:{s.name}",
                        "share": round(s.tsub / total, 3),
                        "calls": s.ncall,
                    }
                    for s in own
                ],
            },
            indent=1,
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

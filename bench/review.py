"""Game review benchmarks (app/review): time, budget, calibration, blunder sanity check.

    nice -n 15 .venv/bin/python bench/review.py time --rounds 1,2,4
    nice -n 15 .venv/bin/python bench/review.py fit --games 60
    nice -n 15 .venv/bin/python bench/review.py calibrate --games 20 --players 4 --expansion \
        --workers 2 --out /tmp/review-4x.jsonl

`time`: one 4-player expansion game (greedy bots, seed 7) analysed at each budget (rounds of
rollouts per decision): CPU seconds of the one process, decisions judged, labels, and how far
each budget's winning chances and labels are from the largest budget's.
`fit`: the winning-chance model's two temperatures (app/review/chance.py) by log loss of the
static evaluation at every decision of greedy games on seeds 10000+ (disjoint from the others).
`calibrate`: greedy games (seeds 1+) analysed in full, at the server's default budget (settings;
`--rounds`, `--plies`, `--turns`, `--leaf`, `--prune`, `--sample` override it, `--old` is the
expert's own search: full rollouts read by the static softmax); the mover's predicted winning chance
after the move played against who won: a reliability table, the Brier score and the naive
1/players' one; then every blunder is replayed: from that very position the best move and the
played move are each followed by greedy play to the end (the same bot seeds in both branches,
3 continuations), and the margin actually gained is compared with the margin the analysis claimed.
Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from app.bots import make_bot
from app.bots.evaluate import Evaluator
from app.bots.position import position_from_view
from app.engine import (
    GameOptions,
    State,
    apply,
    final_scores,
    legal_actions,
    new_game,
    replay,
    to_act,
    view_for,
)
from app.review import GameRecord, ReviewSettings, analyse_game, chance
from app.simulate import play_out

CONTINUATIONS = 3


def greedy_record(players: int, expansion: bool, seed: int) -> GameRecord:
    options = GameOptions(players=players, expansion=expansion)
    bots = [make_bot("greedy", random.Random(seed * 10 + s)) for s in range(players)]
    _, moves = play_out(options, seed, bots)
    return GameRecord(
        f"bench-{players}-{int(expansion)}-{seed}", options, seed, [(s, a) for s, a in moves]
    )


def _load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


# --- time and budget ---------------------------------------------------------------------


def bench_time(args: argparse.Namespace) -> dict[str, Any]:
    record = greedy_record(4, True, args.seed)
    budgets = [int(r) for r in args.rounds.split(",")]
    runs = {}
    for rounds in budgets:
        start = time.process_time()
        wall = time.perf_counter()
        out = analyse_game(record, ReviewSettings(rounds=rounds))
        runs[rounds] = {
            "cpu_seconds": round(time.process_time() - start, 1),
            "wall_seconds": round(time.perf_counter() - wall, 1),
            "analysis": out,
        }
    ref = runs[max(budgets)]["analysis"]["moves"]
    result: dict[str, Any] = {"game": record.game_id, "moves": len(record.moves), "budgets": {}}
    for rounds, run in runs.items():
        moves = run["analysis"]["moves"]
        judged = [(m, r) for m, r in zip(moves, ref, strict=True) if not m["forced"]]
        labels = [m["label"] for m, _ in judged]
        result["budgets"][rounds] = {
            "cpu_seconds": run["cpu_seconds"],
            "wall_seconds": run["wall_seconds"],
            "decisions": len(judged),
            "cpu_ms_per_decision": round(1000 * run["cpu_seconds"] / len(judged), 1),
            "rollouts": sum(m["candidates"] for m, _ in judged) * rounds,
            "labels": {k: labels.count(k) for k in ("inaccuracy", "mistake", "blunder")},
            "accuracy": [p["accuracy"] for p in run["analysis"]["players"]],
            "vs_largest_budget": {
                "mean_abs_win_points": round(
                    statistics.fmean(
                        abs(m["win"]["played"] - r["win"]["played"]) for m, r in judged
                    ),
                    2,
                ),
                "same_label": round(
                    statistics.fmean(m["label"] == r["label"] for m, r in judged), 3
                ),
                "same_best_move": round(
                    statistics.fmean(m["best"] == r["best"] for m, r in judged), 3
                ),
            },
        }
    result["load"] = _load()
    return result


# --- fit ----------------------------------------------------------------------------------


def _fit_points(
    players: int, expansion: bool, seed: int
) -> list[tuple[list[float], float, list[float]]]:
    """(values per seat, progress, outcome shares) at each decision of one greedy game."""
    record = greedy_record(players, expansion, seed)
    state = new_game(record.options, record.seed)
    points = []
    for seat, action in record.moves:
        if len(legal_actions(state, seat)) > 1:
            pos = position_from_view(view_for(state, seat))
            points.append((seat, Evaluator(pos).base, pos.progress))
        state, _ = apply(state, action, seat)
    winners = final_scores(state)["winners"]
    share = [1 / len(winners) if s in winners else 0.0 for s in range(players)]
    return [(values, progress, share) for _, values, progress in points]


def bench_fit(args: argparse.Namespace) -> dict[str, Any]:
    points = []
    for k in range(args.games):
        players = 2 + k % 4
        points.extend(_fit_points(players, k % 2 == 1, 10000 + k))
    best = None
    grid = []
    for end in (5.0, 10.0, 15.0, 20.0, 25.0, 30.0, 40.0, 55.0):
        for span in (0.0, 20.0, 40.0, 60.0, 90.0, 130.0, 180.0, 250.0):
            chance.TEMP_END, chance.TEMP_SPAN = end, span
            loss = 0.0
            for values, progress, share in points:
                probs = chance.softmax_chances(values, progress)
                loss -= sum(w * math.log(max(p, 1e-9)) for w, p in zip(share, probs, strict=True))
            loss /= len(points)
            grid.append((round(loss, 4), end, span))
            if best is None or loss < best[0]:
                best = (loss, end, span)
    assert best is not None
    return {
        "games": args.games,
        "decisions": len(points),
        "best": {"log_loss": round(best[0], 4), "temp_end": best[1], "temp_span": best[2]},
        "grid_top5": sorted(grid)[:5],
        "log_loss_naive": round(statistics.fmean(math.log(len(s)) for _, _, s in points), 4),
        "load": _load(),
    }


# --- calibration and blunders ---------------------------------------------------------------


def _continue(state: State, seed: int) -> State:
    n = len(state.players)
    bots = [make_bot("greedy", random.Random(seed * 31 + s)) for s in range(n)]
    while not state.over:
        seat = to_act(state)
        state, _ = apply(
            state, bots[seat].choose(view_for(state, seat), legal_actions(state, seat)), seat
        )
    return state


def _margin(state: State, seat: int) -> float:
    totals = {p["seat"]: p["total"] for p in final_scores(state)["players"]}
    return totals[seat] - max(v for s, v in totals.items() if s != seat)


def _won(state: State, seat: int) -> float:
    winners = final_scores(state)["winners"]
    return 1 / len(winners) if seat in winners else 0.0


def _one_game(job: tuple[int, bool, int, ReviewSettings]) -> dict[str, Any]:
    players, expansion, seed, budget = job
    record = greedy_record(players, expansion, seed)
    start = time.process_time()
    analysis = analyse_game(record, budget)
    cpu = time.process_time() - start
    winners = analysis["winners"]
    preds = []
    for m in analysis["moves"]:
        if not m["forced"]:
            won = 1 / len(winners) if m["seat"] in winners else 0.0
            preds.append((m["win"]["played"] / 100, won, m["move"]))
    checks = []
    for m in analysis["moves"]:
        if m.get("label") != "blunder":
            continue
        before = replay(record.options, record.seed, record.moves[: m["move"] - 1])
        seat = m["seat"]
        gained, won = [], []
        for c in range(CONTINUATIONS):
            after_best = _continue(apply(before, m["best"], seat)[0], seed * 1000 + c)
            after_played = _continue(apply(before, m["played"], seat)[0], seed * 1000 + c)
            gained.append(_margin(after_best, seat) - _margin(after_played, seat))
            won.append(_won(after_best, seat) - _won(after_played, seat))
        checks.append(
            {
                "claimed_margin": m["margin"]["best"] - m["margin"]["played"],
                "claimed_win": m["drop"] / 100,
                "actual_margin": statistics.fmean(gained),
                "actual_win": statistics.fmean(won),
            }
        )
    return {
        "seed": seed,
        "budget": budget.to_json(),
        "cpu_seconds": cpu,
        "preds": preds,
        "blunders": checks,
        "decisions": len(preds),
    }


# The budget before rollouts were cut and candidates pruned (docs/benchmarks.md history).
OLD_BUDGET = ReviewSettings(rounds=2, plies=80, prune_points=float("inf"), sample=0)


def _budget(args: argparse.Namespace) -> ReviewSettings:
    """The server's default budget (settings), with what the command line overrides."""
    from app.review.source import review_settings
    from app.settings import get_settings

    budget = review_settings(get_settings())
    if args.old:
        return OLD_BUDGET
    return ReviewSettings(
        rounds=args.rounds_one or budget.rounds,
        plies=args.plies or budget.plies,
        prune_points=args.prune or budget.prune_points,
        sample=budget.sample if args.sample is None else args.sample,
        leaf=args.leaf or budget.leaf,
        turns=budget.turns if args.turns is None else args.turns,
    )


def bench_calibrate(args: argparse.Namespace) -> dict[str, Any]:
    budget = _budget(args)
    args.rounds_one = budget.rounds
    jobs = [(args.players, args.expansion, args.first_seed + k, budget) for k in range(args.games)]
    games: list[dict[str, Any]] = []
    out = open(args.out, "a") if args.out else None  # noqa: SIM115
    with ProcessPoolExecutor(args.workers) as pool:
        for g in pool.map(_one_game, jobs):
            games.append(g)
            if out:
                out.write(json.dumps(g) + "\n")
                out.flush()
    if out:
        out.close()
    return summarise(games, args.players, args.rounds_one) | {"budget": budget.to_json()}


def summarise(games: list[dict[str, Any]], players: int, rounds: int) -> dict[str, Any]:
    preds = [(p, w) for g in games for p, w, _ in g["preds"]]
    bins = []
    for lo in range(0, 100, 10):
        inside = [
            (p, w) for p, w in preds if lo / 100 <= p < (lo + 10) / 100 or (lo == 90 and p == 1)
        ]
        if inside:
            bins.append(
                {
                    "predicted": f"{lo}-{lo + 10}%",
                    "n": len(inside),
                    "mean_predicted": round(statistics.fmean(p for p, _ in inside), 3),
                    "won": round(statistics.fmean(w for _, w in inside), 3),
                }
            )
    brier = statistics.fmean((p - w) ** 2 for p, w in preds)
    naive = statistics.fmean((1 / players - w) ** 2 for _, w in preds)
    checks = [c for g in games for c in g["blunders"]]
    blunders: dict[str, Any] = {"n": len(checks)}
    if checks:
        blunders |= {
            "claimed_margin": round(statistics.fmean(c["claimed_margin"] for c in checks), 2),
            "actual_margin": round(statistics.fmean(c["actual_margin"] for c in checks), 2),
            "claimed_win": round(statistics.fmean(c["claimed_win"] for c in checks), 3),
            "actual_win": round(statistics.fmean(c["actual_win"] for c in checks), 3),
            "best_move_did_better": round(
                statistics.fmean(c["actual_margin"] > 0 for c in checks), 3
            ),
        }
    cpu = [g["cpu_seconds"] for g in games]
    return {
        "games": len(games),
        "players": players,
        "rounds": rounds,
        "decisions": len(preds),
        "cpu_seconds_per_game": {
            "mean": round(statistics.fmean(cpu), 1),
            "max": round(max(cpu), 1),
        },
        "brier": round(brier, 4),
        "brier_naive": round(naive, 4),
        "reliability": bins,
        "blunder_check": blunders,
        "load": _load(),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    t = sub.add_parser("time")
    t.add_argument("--rounds", default="1,2,4")
    t.add_argument("--seed", type=int, default=7)
    f = sub.add_parser("fit")
    f.add_argument("--games", type=int, default=60)
    c = sub.add_parser("calibrate")
    c.add_argument("--games", type=int, default=20)
    c.add_argument("--players", type=int, default=4)
    c.add_argument("--expansion", action="store_true")
    c.add_argument("--rounds", dest="rounds_one", type=int, default=None)
    c.add_argument("--plies", type=int, default=None, help="rollout length (default: settings)")
    c.add_argument("--prune", type=float, default=None, help="pruning gap, points")
    c.add_argument("--sample", type=int, default=None, help="actions scored per rollout step")
    c.add_argument("--turns", type=int, default=None, help="rollouts stop after this many turns")
    c.add_argument("--leaf", choices=("static", "fitted"), default=None, help="leaf model")
    c.add_argument("--old", action="store_true", help="the budget before the cut (80 plies)")
    c.add_argument("--workers", type=int, default=1)
    c.add_argument("--first-seed", type=int, default=1, help="games use seeds from this one on")
    c.add_argument("--out", default=None, help="append each game's results (JSON lines)")
    s = sub.add_parser("summarise", help="summarise a calibrate --out file")
    s.add_argument("file")
    s.add_argument("--players", type=int, default=4)
    s.add_argument("--rounds", dest="rounds_one", type=int, default=2)
    args = parser.parse_args(argv)
    if args.cmd == "time":
        result = bench_time(args)
    elif args.cmd == "fit":
        result = bench_fit(args)
    elif args.cmd == "calibrate":
        result = bench_calibrate(args)
    else:
        with open(args.file) as fh:
            games = [json.loads(line) for line in fh if line.strip()]
        result = summarise(games, args.players, args.rounds_one)
    print(json.dumps(result, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())

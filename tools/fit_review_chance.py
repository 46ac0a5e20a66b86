"""Fits the review's leaf model (app/review/leaf.py) to who won greedy-bot games.

Greedy bots play whole games from seeded deals, seated as `bench/review.py`'s games are (bot
seeds `seed * 10 + seat`), on seeds from `--first-seed` on (default 30000: disjoint from the
calibration games, seeds 1-200, and from `bench/review.py fit`'s, 10000+). At the start of
every turn (where the review's rollouts stop, `REVIEW_ROLLOUT_TURNS`), every seat's view is
turned into every seat's inputs (`leaf.seat_rows`, that view only: R-60); once the game is over
each recorded view gets the winners' shares. One conditional-logit model per player count and
game kind is fitted by Newton's method on the log likelihood of the winners, with a ridge
pulling each standardised coefficient towards the static softmax's (so a component without
evidence keeps the old reading), in plain Python.
The last `--holdout` of the games are not fitted: the log loss and the Brier score of the
viewer's own chance on them are reported beside the static softmax's and the naive 1/n, and a
model that does not beat the static softmax's log loss there is not kept (listed under
`not_kept`: that table's leaves stay the static softmax's, and its rollouts full length).

    nice -n 19 .venv/bin/python -m tools.fit_review_chance --keys 4x --games 300
    nice -n 19 .venv/bin/python -m tools.fit_review_chance --keys 2,2x,3,3x,4,5,5x --games 120

(the shipped file: about 4 min of CPU for 4x, 0.5 to 2 min for each other table; measured in
docs/benchmarks.md, "A leaf fitted to who won"). Same seeds, same coefficients. Writes
app/review/chance_model.json (the models of tables not fitted this time are kept).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path

from app.bots import make_bot
from app.bots.evaluate import Evaluator
from app.bots.position import position_from_view
from app.engine import GameOptions, State, final_scores, view_for
from app.review import chance
from app.review.leaf import MODEL_PATH, SEAT_FEATURES, chances_of, seat_rows, static_coef
from app.review.leaf import softmax as _softmax
from app.simulate import play_out

from .train_expert import solve

KEYS = ("2", "2x", "3", "3x", "4", "4x", "5", "5x")
RIDGE = 1.0  # on standardised inputs, towards the static softmax's coefficients
ITERATIONS = 12
HESSIAN_VIEWS = 6000  # the curvature is estimated on about this many views (the gradient: all)

# (every seat's inputs, the viewer, the winners' shares)
Point = tuple[list[list[float]], int, list[float]]


def game_points(players: int, expansion: bool, seed: int) -> list[Point]:
    """Every seat's view at the start of every turn of one greedy game, with the winners'
    shares."""
    bots = [make_bot("greedy", random.Random(seed * 10 + s)) for s in range(players)]
    seen: list[tuple[list[list[float]], int]] = []
    recorded = [0]  # the last turn whose start was recorded

    def record(state: State) -> None:
        if state.turn.number != recorded[0]:
            recorded[0] = state.turn.number
            for s in range(players):
                pos = position_from_view(view_for(state, s))
                seen.append((seat_rows(pos, Evaluator(pos), chance.TEMP_END, chance.TEMP_SPAN), s))

    state, _ = play_out(
        GameOptions(players=players, expansion=expansion), seed, bots, before=record
    )
    winners = final_scores(state)["winners"]
    share = [1 / len(winners) if s in winners else 0.0 for s in range(players)]
    return [(rows, viewer, share) for rows, viewer in seen]


def _loglik(points: list[Point], coef: list[float]) -> float:
    total = 0.0
    for rows, _, share in points:
        probs = chances_of(rows, tuple(coef))
        total += sum(w * math.log(max(p, 1e-12)) for w, p in zip(share, probs, strict=True))
    return total


def _scales(points: list[Point], k: int) -> list[float]:
    """Each input's spread across seats within a view (what a softmax can tell apart)."""
    sq = [0.0] * k
    count = 0
    for rows, _, _ in points:
        n = len(rows)
        for i in range(k):
            m = sum(r[i] for r in rows) / n
            sq[i] += sum((r[i] - m) ** 2 for r in rows)
        count += n
    return [(v / count) ** 0.5 if v > 1e-18 else 1.0 for v in sq]


def fit(points: list[Point], ridge: float = RIDGE) -> list[float]:
    """Maximum penalised likelihood of the winners' shares (Newton, step halved when needed).

    The curvature is summed over one view in `every` (scaled up): an approximate Newton step
    still climbs, the exact gradient decides where it stops, and a fit takes seconds."""
    k = len(SEAT_FEATURES)
    prior = list(static_coef())
    scale = _scales(points, k)
    pen = [ridge * s * s for s in scale]
    coef = prior[:]

    def objective(c: list[float]) -> float:
        return _loglik(points, c) - 0.5 * sum(
            p * (a - b) ** 2 for p, a, b in zip(pen, c, prior, strict=True)
        )

    current = objective(coef)
    every = max(1, len(points) // HESSIAN_VIEWS)
    for _ in range(ITERATIONS):
        grad = [-p * (a - b) for p, a, b in zip(pen, coef, prior, strict=True)]
        hess = [[0.0] * k for _ in range(k)]
        for i in range(k):
            hess[i][i] = pen[i]
        for n, (rows, _, share) in enumerate(points):
            utilities = [sum(c * x for c, x in zip(coef, row, strict=True)) for row in rows]
            probs = _softmax(utilities)
            for w, p, row in zip(share, probs, rows, strict=True):
                if w - p:
                    for i in range(k):
                        grad[i] += (w - p) * row[i]
            if n % every:
                continue
            mean = [sum(p * r[i] for p, r in zip(probs, rows, strict=True)) for i in range(k)]
            for p, row in zip(probs, rows, strict=True):
                d = [x - m for x, m in zip(row, mean, strict=True)]
                for i in range(k):
                    pdi = every * p * d[i]
                    if pdi:
                        hi = hess[i]
                        for j in range(i, k):
                            hi[j] += pdi * d[j]
        for i in range(k):
            for j in range(i):
                hess[i][j] = hess[j][i]
        step = solve(hess, grad)
        size = 1.0
        while size > 1e-3:
            trial = [a + size * s for a, s in zip(coef, step, strict=True)]
            value = objective(trial)
            if value >= current:
                break
            size /= 2
        else:
            break
        gain = value - current
        coef, current = trial, value
        if gain < 1e-6 * len(points):
            break
    return coef


def scores(points: list[Point], coef: list[float]) -> dict[str, float]:
    """Log loss over every seat's share, and the Brier score of the viewer's own chance."""
    loss = brier = 0.0
    for rows, viewer, share in points:
        probs = chances_of(rows, tuple(coef))
        loss -= sum(w * math.log(max(p, 1e-12)) for w, p in zip(share, probs, strict=True))
        brier += (probs[viewer] - share[viewer]) ** 2
    return {"log_loss": round(loss / len(points), 4), "brier": round(brier / len(points), 4)}


def naive(points: list[Point]) -> dict[str, float]:
    """The same scores for 1/players."""
    loss = sum(math.log(len(share)) for _, _, share in points) / len(points)
    brier = sum((1 / len(share) - share[v]) ** 2 for _, v, share in points) / len(points)
    return {"log_loss": round(loss, 4), "brier": round(brier, 4)}


def fit_key(key: str, games: int, first_seed: int, holdout: float) -> dict:
    """Play the games of one key, fit on the first ones, score on the held-out rest."""
    players, expansion = int(key[0]), key.endswith("x")
    began = time.process_time()
    held = max(1, round(games * holdout)) if holdout > 0 else 0
    train: list[Point] = []
    test: list[Point] = []
    for g in range(games):
        (train if g < games - held else test).extend(
            game_points(players, expansion, first_seed + g)
        )
    played = time.process_time() - began
    coef = fit(train)
    out = {
        "coef": [round(c, 6) for c in coef],
        "seeds": [first_seed, first_seed + games - held - 1],
        "games": games,
        "views": len(train),
        "cpu_s": {"games": round(played, 1), "fit": round(time.process_time() - began - played, 1)},
    }
    if test:
        out["held_out"] = {
            "seeds": [first_seed + games - held, first_seed + games - 1],
            "views": len(test),
            "fitted": scores(test, coef),
            "static": scores(test, list(static_coef())),
            "naive": naive(test),
        }
    return out


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300, help="greedy games per model")
    ap.add_argument("--keys", default=",".join(KEYS), help="models to fit: 2, 2x (expansion), ...")
    ap.add_argument("--first-seed", type=int, default=30000)
    ap.add_argument("--holdout", type=float, default=0.2, help="share of games not fitted")
    ap.add_argument("--out", type=Path, default=MODEL_PATH)
    args = ap.parse_args(argv)
    keys = [k.strip() for k in args.keys.split(",") if k.strip()]
    unknown = [k for k in keys if k not in KEYS]
    if unknown:
        ap.error(f"unknown model keys {unknown}: choose among {', '.join(KEYS)}")
    if args.first_seed <= 200:
        ap.error("seeds up to 200 are the calibration games': choose --first-seed above 200")
    models, not_kept = {}, {}
    for key in keys:
        model = fit_key(key, args.games, args.first_seed, args.holdout)
        info = {k: v for k, v in model.items() if k != "coef"}
        print(key, json.dumps(info), file=sys.stderr, flush=True)
        held = model.get("held_out")
        if held and held["fitted"]["log_loss"] >= held["static"]["log_loss"]:
            not_kept[key] = info
        else:
            models[key] = model
    out = {
        "features": list(SEAT_FEATURES),
        "temp_end": chance.TEMP_END,
        "temp_span": chance.TEMP_SPAN,
        "target": "winners' shares of greedy-bot games (ties split), every seat's view at the"
        " start of every turn",
        "script": "tools/fit_review_chance.py",
        "ridge": RIDGE,
        "models": models,
        "not_kept": not_kept,
    }
    if args.out.exists():  # keep the models not fitted this time
        old = json.loads(args.out.read_text())
        if old.get("features") == out["features"]:
            fitted = set(keys)
            out["models"] = {k: m for k, m in old["models"].items() if k not in fitted} | models
            out["not_kept"] = {
                k: m for k, m in old.get("not_kept", {}).items() if k not in fitted
            } | not_kept
    args.out.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

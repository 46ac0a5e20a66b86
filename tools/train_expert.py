"""Fits the expert's learned evaluation (app/bots/value.py) on self-play games it plays itself.

Greedy bots play whole games from seeded deals; at one decision in `--every` every seat's view is
turned into that seat's features (its own view only: R-60), and once the game is
over each recorded row gets that seat's final objective from the engine's scores (own total minus
half the best and half the mean of the opponents'). One ridge regression per player count and
game kind is solved by its normal equations in plain Python (no numpy), and the coefficients are
written to app/bots/expert_model.json. Same seed, same file.

    nice -n 19 .venv/bin/python -m tools.train_expert                    # 2-5 players, both kinds
    nice -n 19 .venv/bin/python -m tools.train_expert --games 300 --keys 2,2x,4,4x --seed 7

About 0.3 s of CPU per 2-player game and 0.8 s per 5-player game on the development machine,
so the default run (200 games for each of the 8 models) takes about 12 minutes of one core.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

from app.bots import make_bot
from app.bots.position import position_from_view
from app.bots.value import FEATURES, MODEL_PATH, features, model_key
from app.engine import GameOptions, State, final_scores, view_for
from app.simulate import play_out

KEYS = ("2", "2x", "3", "3x", "4", "4x", "5", "5x")
RIDGE = 1.0  # on standardised features: keeps rare components (e.g. reward in short games) tame


def objective(totals: list[int], seat: int) -> float:
    """Own final total minus half the best and half the mean of the others'."""
    others = [t for s, t in enumerate(totals) if s != seat]
    return totals[seat] - 0.5 * max(others) - 0.5 * sum(others) / len(others)


def game_rows(
    players: int, expansion: bool, seed: int, every: int
) -> list[tuple[list[float], float]]:
    """Feature rows of one self-play game, each with its seat's final objective."""
    rng = random.Random(seed)
    bots = [make_bot("greedy", random.Random(rng.getrandbits(32))) for _ in range(players)]
    rows: list[tuple[list[float], int]] = []
    steps = [0]

    def record(state: State) -> None:
        if steps[0] % every == 0:
            # every seat's view, so the model sees positions on and off its own turn
            for s in range(players):
                rows.append((features(position_from_view(view_for(state, s))), s))
        steps[0] += 1

    state, _ = play_out(
        GameOptions(players=players, expansion=expansion), seed, bots, before=record
    )
    totals = [p["total"] for p in final_scores(state)["players"]]
    return [(x, objective(totals, seat)) for x, seat in rows]


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Solve a x = b (a symmetric positive definite) by Gaussian elimination with pivoting."""
    n = len(b)
    m = [[*row, rhs] for row, rhs in zip(a, b, strict=True)]
    for col in range(n):
        piv = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[piv] = m[piv], m[col]
        for r in range(col + 1, n):
            f = m[r][col] / m[col][col]
            for c in range(col, n + 1):
                m[r][c] -= f * m[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][c] * x[c] for c in range(r + 1, n))) / m[r][r]
    return x


def fit(rows: list[tuple[list[float], float]], ridge: float = RIDGE) -> dict:
    """Ridge regression on standardised features; returns raw-scale intercept and coefficients."""
    k = len(rows[0][0])
    n = len(rows)
    mean = [sum(x[i] for x, _ in rows) / n for i in range(k)]
    scale = []
    for i in range(k):
        var = sum((x[i] - mean[i]) ** 2 for x, _ in rows) / n
        scale.append(var**0.5 if var > 1e-12 else 1.0)
    ymean = sum(y for _, y in rows) / n
    z = [[(x[i] - mean[i]) / scale[i] for i in range(k)] for x, _ in rows]
    ys = [y - ymean for _, y in rows]
    xtx = [[sum(r[i] * r[j] for r in z) for j in range(k)] for i in range(k)]
    for i in range(k):
        xtx[i][i] += ridge
    xty = [sum(r[i] * y for r, y in zip(z, ys, strict=True)) for i in range(k)]
    w = solve(xtx, xty)
    coef = [w[i] / scale[i] for i in range(k)]
    intercept = ymean - sum(coef[i] * mean[i] for i in range(k))
    pred = [intercept + sum(c * v for c, v in zip(coef, x, strict=True)) for x, _ in rows]
    sse = sum((p - y) ** 2 for p, (_, y) in zip(pred, rows, strict=True))
    sst = sum((y - ymean) ** 2 for _, y in rows)
    out = {
        "intercept": round(intercept, 6),
        "coef": [round(c, 6) for c in coef],
        "rows": n,
        "r2": round(1 - sse / sst, 4) if sst else 0.0,
        "rmse": round((sse / n) ** 0.5, 3),
    }
    if k == len(FEATURES):  # how far the static objective alone is from the outcome
        static = FEATURES.index("static")
        sse_static = sum((x[static] - y) ** 2 for x, y in rows)
        out["rmse_static"] = round((sse_static / n) ** 0.5, 3)
    return out


def train(keys: list[str], games: int, seed: int, every: int) -> dict:
    """Play `games` games for each key and fit one model per key."""
    models = {}
    for key in keys:
        players, expansion = int(key[0]), key.endswith("x")
        assert model_key(players, expansion) == key
        began = time.process_time()
        rows: list[tuple[list[float], float]] = []
        for g in range(games):
            rows.extend(game_rows(players, expansion, seed * 100_003 + g * 17 + players, every))
        models[key] = fit(rows) | {"games": games, "cpu_s": round(time.process_time() - began, 1)}
        info = {k: v for k, v in models[key].items() if k not in ("coef", "intercept")}
        print(key, json.dumps(info), file=sys.stderr, flush=True)
    return {
        "features": list(FEATURES),
        "target": "own final total - 0.5 best other - 0.5 mean other (engine scores)",
        "policy": "greedy self-play",
        "seed": seed,
        "every": every,
        "ridge": RIDGE,
        "models": models,
    }


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help="self-play games per model")
    ap.add_argument("--keys", default=",".join(KEYS), help="models to fit: 2, 2x (expansion), ...")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--every", type=int, default=4, help="record one decision in this many")
    ap.add_argument("--out", type=Path, default=MODEL_PATH)
    args = ap.parse_args(argv)
    keys = [k.strip() for k in args.keys.split(",") if k.strip()]
    unknown = [k for k in keys if k not in KEYS]
    if unknown:
        ap.error(f"unknown model keys {unknown}: choose among {', '.join(KEYS)}")
    out = train(keys, args.games, args.seed, args.every)
    if args.out.exists():  # keep the models not fitted this time
        old = json.loads(args.out.read_text())
        if old.get("features") == out["features"]:
            out["models"] = {**old["models"], **out["models"]}
    args.out.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

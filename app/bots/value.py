"""A learned evaluation: the seat's final standing predicted from its own view (R-60).

The static evaluation (`evaluate.py`) adds up what each seat holds now with fixed weights. What it
holds is worth different amounts at different times: a realm lead early in the game is far from
safe, ships are worth more while Missions can still use them, Gold counts at face value, and the
heads a seat has left decide how much more it can take. The model learns those weights from
finished self-play games (tools/train_expert.py): for each component of the static evaluation,
the viewer's value minus the opponents' (half their best, half their mean, as the objective of
`Evaluator`), and the same times the game's progress, so each weight can change from the first
turn to the last. The target is the same difference of the engine's final scores. One linear
model per player count and game kind (base, expansion), stored as plain JSON (`expert_model.json`)
and read without numpy.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from app.engine import realm_vp

from .evaluate import DEFAULT, Evaluator, Weights
from .position import Position, position_from_view

Json = dict[str, Any]

MODEL_PATH = Path(__file__).with_name("expert_model.json")

# Per-seat components of the static evaluation; each becomes two features (plain, times progress).
COMPONENTS = (
    "gold",
    "missions",
    "most_missions",
    "ships",
    "blue_ships",
    "reefs",
    "realm_ranked",
    "realm_share",
    "reward",
    "heads",
    "static",
)
FEATURES = ("progress", "my_turn", *COMPONENTS, *(f"{c}*progress" for c in COMPONENTS))


def seat_components(ev: Evaluator, seat: int) -> list[float]:
    """One seat's components, in the order of COMPONENTS (all from the viewer's Position)."""
    pos = ev.pos
    p = pos.players[seat]
    n = pos.n
    ranked = 0.0
    share = 0.0
    for i in range(len(ev.counts)):
        counts, pieces, whirl = ev.counts[i], ev.pieces[i], ev.whirl[i]
        ranked += realm_vp(counts, pieces, whirl, n)[seat]
        total = sum(counts)
        if total:
            share += (2.0 if n == 2 else 4.5) * whirl * counts[seat] / total
    if p.reefs is not None:
        reefs = sum(ev.reef_value(seat, c) for c in p.reefs)
    else:
        reefs = ev.w.unknown_reef * p.reef_count
    most = ev.most_missions_bonus([q.missions for q in pos.players])[seat]
    reward = ev.reward.seat_value(seat) if ev.reward is not None else 0.0
    return [
        float(p.gold),
        ev.missions_vp(seat),
        most,
        float(sum(p.ships.values())),
        float(p.ships.get("blue", 0)),
        reefs,
        ranked,
        share,
        reward,
        float(p.heads),
        ev.base[seat],
    ]


def features(pos: Position, ev: Evaluator | None = None) -> list[float]:
    """The model's inputs for the viewer of `pos`, in the order of FEATURES."""
    ev = ev or Evaluator(pos)
    me = pos.me
    rows = [seat_components(ev, s) for s in range(pos.n)]
    mine = rows[me]
    others = [rows[s] for s in range(pos.n) if s != me]
    diff = []
    for k in range(len(COMPONENTS)):
        vals = [o[k] for o in others]
        diff.append(mine[k] - 0.5 * max(vals) - 0.5 * sum(vals) / len(vals))
    progress = pos.progress
    my_turn = 1.0 if pos.view["turn"]["seat"] == me else 0.0
    return [progress, my_turn, *diff, *(d * progress for d in diff)]


def model_key(players: int, expansion: bool) -> str:
    """The key of one fitted model in the file: "2", "2x" (expansion), ..."""
    return f"{players}{'x' if expansion else ''}"


@cache
def load_models(path: str = str(MODEL_PATH)) -> dict[str, tuple[float, tuple[float, ...]]]:
    """Every fitted model of the file as (intercept, coefficients); {} if there is no file."""
    file = Path(path)
    if not file.exists():
        return {}
    data = json.loads(file.read_text())
    if tuple(data["features"]) != FEATURES:
        raise ValueError(f"{path} was fitted on other features: run tools/train_expert.py again")
    return {k: (float(m["intercept"]), tuple(m["coef"])) for k, m in data["models"].items()}


class ValueModel:
    """Predicted final objective of the viewer; the static objective where no model is fitted."""

    def __init__(self, weights: Weights = DEFAULT, path: str = str(MODEL_PATH)) -> None:
        self.weights = weights
        self.models = load_models(path)

    def value(self, view: Json) -> float:
        """The viewer's predicted final VP minus the opponents' (half best, half mean)."""
        pos = position_from_view(view)
        ev = Evaluator(pos, self.weights)
        model = self.models.get(model_key(pos.n, bool(view.get("expansion"))))
        if model is None:
            return ev.objective0
        intercept, coef = model
        return intercept + sum(c * f for c, f in zip(coef, features(pos, ev), strict=True))

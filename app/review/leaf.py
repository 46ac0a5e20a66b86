"""A winning-chance model fitted to who won: the leaf of the review's short rollouts.

The static evaluation's softmax (`chance.softmax_chances`) reads one number per seat, its
expected final VP, at a temperature fitted for the whole game. What a seat holds is worth
different amounts at different times (a realm lead early on is far from safe, ships count for
more while Missions can still use them, the heads left decide how much more it can take), so a
leaf read that way needs long rollouts to be calibrated. This model gives each seat a utility,
a weighted sum of the static evaluation's components for that seat (`value.seat_components`:
Gold, Missions, ships, Reef cards, realm rankings and shares, Rewards, heads left, the total),
each plain and times the game's progress, all divided by the same temperature as the softmax,
plus whether the seat is the one to act; the chances are the softmax of the utilities. With
the weight of the total at 1 and the others at 0 it is the static softmax exactly.

The weights are fitted per player count and game kind by maximum likelihood of who won, on
greedy-bot games whose seeds are disjoint from the calibration games' (tools/fit_review_chance.py
writes `chance_model.json` and records the seeds). Every seat's components come from the
deciding seat's view only (R-60): other seats' unseen cards count at their usual worth.
"""

from __future__ import annotations

import json
import math
from functools import cache
from pathlib import Path
from typing import Any

from app.bots.evaluate import Evaluator
from app.bots.position import Position
from app.bots.value import COMPONENTS, model_key, seat_components

Json = dict[str, Any]

MODEL_PATH = Path(__file__).with_name("chance_model.json")

# Per-seat inputs of the utility, in the order of a model's coefficients.
SEAT_FEATURES = (
    *(f"{c}/temp" for c in COMPONENTS),
    *(f"{c}*progress/temp" for c in COMPONENTS),
    "to_act",
    "to_act*progress",
)
STATIC_AT = SEAT_FEATURES.index("static/temp")


def temperature(progress: float, end: float, span: float) -> float:
    """The softmax's temperature (VP) at a share of heads spent (`chance.softmax_chances`)."""
    return end + span * (1.0 - min(max(progress, 0.0), 1.0))


def seat_rows(pos: Position, ev: Evaluator, end: float, span: float) -> list[list[float]]:
    """Every seat's inputs, in the order of SEAT_FEATURES, from the viewer's Position."""
    p = min(max(pos.progress, 0.0), 1.0)
    temp = temperature(p, end, span)
    acting = pos.view["turn"]["seat"]
    rows = []
    for seat in range(pos.n):
        comps = [c / temp for c in seat_components(ev, seat)]
        to_act = 1.0 if seat == acting else 0.0
        rows.append([*comps, *(c * p for c in comps), to_act, to_act * p])
    return rows


def softmax(utilities: list[float]) -> tuple[float, ...]:
    """Chances from utilities (shifted by the largest, so no overflow)."""
    top = max(utilities)
    weights = [math.exp(u - top) for u in utilities]
    total = sum(weights)
    return tuple(w / total for w in weights)


def chances_of(rows: list[list[float]], coef: tuple[float, ...]) -> tuple[float, ...]:
    """Every seat's winning chance under the coefficients."""
    return softmax([sum(c * x for c, x in zip(coef, row, strict=True)) for row in rows])


def static_coef() -> tuple[float, ...]:
    """The coefficients that make this model the static softmax (where a fit starts from)."""
    return tuple(1.0 if i == STATIC_AT else 0.0 for i in range(len(SEAT_FEATURES)))


class LeafModel:
    """The fitted coefficients of every player count and game kind, and their temperature."""

    def __init__(self, data: Json) -> None:
        if tuple(data["features"]) != SEAT_FEATURES:
            raise ValueError("the leaf model was fitted on other inputs: fit it again")
        self.end = float(data["temp_end"])
        self.span = float(data["temp_span"])
        self.coefs = {k: tuple(float(c) for c in m["coef"]) for k, m in data["models"].items()}

    def covers(self, players: int, expansion: bool) -> bool:
        """Whether a model was fitted for this player count and game kind."""
        return model_key(players, expansion) in self.coefs

    def chances(self, pos: Position, ev: Evaluator) -> tuple[float, ...] | None:
        """Every seat's chance from the viewer's Position; None where no model was fitted."""
        coef = self.coefs.get(model_key(pos.n, bool(pos.view.get("expansion"))))
        if coef is None:
            return None
        return chances_of(seat_rows(pos, ev, self.end, self.span), coef)


@cache
def load_leaf_model(path: str = str(MODEL_PATH)) -> LeafModel | None:
    """The model file's contents (read once); None if there is no file."""
    file = Path(path)
    if not file.exists():
        return None
    return LeafModel(json.loads(file.read_text()))

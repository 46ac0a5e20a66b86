"""From a rollout's leaf to a winning chance and a margin, as the seat that decides sees it.

The expert's rollouts stop after the seat's own next placement and read the static evaluation:
each seat's expected final VP (`Evaluator.base`, from the deciding seat's view, so opponents'
unseen cards count at their usual worth). A winning chance is a softmax of those values whose
temperature shrinks as the game runs out of heads: early on a 10 VP lead is far from safe, at the
end it is decisive. A leaf where the game is over reads its final scores the same way, at the end
temperature: they are the scores of a sampled world.

TEMP_END and TEMP_SPAN were fitted by `bench/review.py fit` on recorded bot games whose seeds are
disjoint from the games the calibration in docs/benchmarks.md is measured on.

With a `LeafModel` (app/review/leaf.py) an unfinished leaf is read by that model instead: every
seat's components of the evaluation, weighted by what they turned out to be worth in who won,
so a rollout can stop after a few actions. The margin is the static evaluation's either way.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.bots.evaluate import DEFAULT, Evaluator, Weights
from app.bots.position import position_from_view
from app.engine import State, final_scores, view_for

from .leaf import LeafModel, softmax, temperature

# VP. Large, because the evaluation's estimates move a lot until the final scoring (realm
# majorities, Missions, Bonus tiles); fitted: docs/benchmarks.md, "Game review".
TEMP_END = 15.0  # the spread left when no head remains
TEMP_SPAN = 180.0  # the extra spread at the start of the game


@dataclass(frozen=True)
class Outcome:
    """One leaf, for the seat that decides: every seat's winning chance and its own margin."""

    chances: tuple[float, ...]
    margin: float  # own value minus the best other seat's


def softmax_chances(values: list[float], progress: float) -> tuple[float, ...]:
    """Each seat's chance to finish first given estimated final VP and the share of heads spent."""
    temp = temperature(progress, TEMP_END, TEMP_SPAN)
    return softmax([v / temp for v in values])


def margin_of(values: list[float], me: int) -> float:
    """Own value minus the best of the other seats."""
    return values[me] - max(v for s, v in enumerate(values) if s != me)


def outcome(
    leaf: State, me: int, weights: Weights = DEFAULT, model: LeafModel | None = None
) -> Outcome:
    """What `me` may expect from the leaf state of one rollout; with `model`, an unfinished
    leaf's chances are the fitted model's (the static softmax's where it has no fit)."""
    if leaf.over:
        # The final scores of a sampled world: still a guess at the real ones (the other seats'
        # cards were sampled), so they go through the end temperature, not a certain 0 or 1.
        scores = final_scores(leaf)
        totals = [float(p["total"]) for p in sorted(scores["players"], key=lambda p: p["seat"])]
        return Outcome(softmax_chances(totals, 1.0), margin_of(totals, me))
    pos = position_from_view(view_for(leaf, me))
    ev = Evaluator(pos, weights)
    values = ev.base
    fitted = model.chances(pos, ev) if model is not None else None
    chances = fitted if fitted is not None else softmax_chances(values, pos.progress)
    return Outcome(chances, margin_of(values, me))

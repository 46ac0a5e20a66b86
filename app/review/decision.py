"""The expert's evaluation of one decision, from the deciding seat's view and nothing else (R-60).

`analyse_decision` takes the seat's view, its legal actions and the action it played: it cannot
read the true hidden cards because it is never given the State. It searches as the expert does
(app/bots/expert.py): greedy shortlists the legal actions, the played one is added if greedy left
it out, and every candidate is played out on the same determinised worlds (common random numbers:
candidates are compared on equal luck), a fixed number of rounds so the result depends only on
the view and the seed, never on the machine's speed. A lead large enough for a label is
confirmed on fresh worlds (`analyse_decision`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from app.bots.determinise import determinise
from app.bots.expert import MAX_STEPS, candidates, playout
from app.bots.greedy import Scorer
from app.engine import EngineError, canonical_action

from .chance import outcome
from .leaf import LeafModel

Json = dict[str, Any]


@dataclass(frozen=True)
class Evaluation:
    """A candidate's mean over the rounds: the seat's winning chance, every seat's, the margin."""

    action: Json
    win: float
    margin: float
    chances: tuple[float, ...]


@dataclass(frozen=True)
class DecisionAnalysis:
    """The played move's evaluation and the best one found (the same when the move was best)."""

    played: Evaluation
    best: Evaluation
    candidates: int
    rounds: int

    @property
    def drop(self) -> float:
        """Percentage points of winning chance the played move gave away (never negative)."""
        return max(0.0, 100.0 * (self.best.win - self.played.win))


def index_of(legal: list[Json], action: Json) -> int:
    """Position of `action` in the legal list, compared in canonical form (raises ValueError).

    Pass the played move in its listed form (`app.engine.legal.listed_form`): a placement
    with its head on another square is listed once, under the list's own head."""
    wanted = canonical_action(action)
    for i, a in enumerate(legal):
        if canonical_action(a) == wanted:
            return i
    raise ValueError("the played action is not among the legal actions")


def _evaluate(
    view: Json,
    legal: list[Json],
    picks: list[int],
    rng: random.Random,
    rounds: int,
    plies: int = MAX_STEPS,
    prune_points: float = float("inf"),
    keep: int = 0,
    sample: int = 0,
    model: LeafModel | None = None,
    turns: int = 0,
) -> tuple[list[Evaluation], list[int]]:
    """Mean outcome of each picked action over the worlds drawn from `rng`, every pick played on
    the same worlds (common random numbers), rollouts cut after `plies` actions or once `turns`
    turns have begun (`playout`).

    After each round but the last, a pick whose mean winning chance is `prune_points` or more
    below the leader's is dropped (its verdict, not best, cannot change by another round at that
    gap): its mean is over the rounds it ran. `picks[keep]` is never dropped. The worlds drawn do
    not depend on what was dropped, so the result depends only on the view and the seed.
    `model` reads the leaves (`chance.outcome`). Returns the evaluations and the positions (in
    `picks`) still in the running at the end."""
    me = view["viewer"]
    n = len(picks)
    sums_win = [0.0] * n
    sums_margin = [0.0] * n
    sums_chances = [[0.0] * view["players_count"] for _ in picks]
    runs = [0] * n
    alive = list(range(n))
    for r in range(rounds):
        world_seed = rng.getrandbits(32)
        play_seed = rng.getrandbits(32)
        # One world for every candidate of the round: the engine never changes a State it is
        # given, so each rollout starts from the same sampled cards without sampling them again.
        world = determinise(view, random.Random(world_seed))
        for j in alive:
            try:
                leaf = outcome(
                    playout(
                        world,
                        legal[picks[j]],
                        me,
                        random.Random(play_seed),
                        plies=plies,
                        sample=sample,
                        turns=turns,
                    ),
                    me,
                    model=model,
                )
            except EngineError:
                # A sampled world refusing a legal action would be a determinisation defect;
                # count the candidate as the position stands rather than guess.
                leaf = outcome(world, me, model=model)
            runs[j] += 1
            sums_win[j] += leaf.chances[me]
            sums_margin[j] += leaf.margin
            for s, c in enumerate(leaf.chances):
                sums_chances[j][s] += c
        if r + 1 < rounds and len(alive) > 1:
            top = max(sums_win[j] / runs[j] for j in alive)
            alive = [
                j
                for j in alive
                if j == keep or 100.0 * (top - sums_win[j] / runs[j]) < prune_points
            ]
    evals = [
        Evaluation(
            action=legal[i],
            win=sums_win[j] / runs[j],
            margin=sums_margin[j] / runs[j],
            chances=tuple(c / runs[j] for c in sums_chances[j]),
        )
        for j, i in enumerate(picks)
    ]
    return evals, alive


def _best(evals: list[Evaluation], among: list[int] | None = None) -> int:
    """Best by winning chance, then margin, of `among` (default: all); ties go to the earlier
    (greedy's order)."""
    pool = range(len(evals)) if among is None else among
    return max(pool, key=lambda j: (evals[j].win, evals[j].margin, -j))


def analyse_decision(
    view: Json,
    legal: list[Json],
    played: Json,
    seed: int,
    rounds: int,
    confirm_from: float = float("inf"),
    plies: int = MAX_STEPS,
    prune_points: float = float("inf"),
    sample: int = 0,
    model: LeafModel | None = None,
    turns: int = 0,
) -> DecisionAnalysis:
    """Search the played action and the expert's shortlist for `rounds` rounds from `view`.

    The candidate found best is the largest of several noisy means, so its lead over the
    played move is biased upwards. When that lead is at least `confirm_from` points (a label
    is at stake), the two are evaluated again on `rounds` fresh worlds and those unbiased
    figures are reported; a lead that does not hold up there leaves the played move best.
    `plies` and `turns` cut every rollout, `prune_points` drops a candidate that far behind,
    `model` reads the leaves (`_evaluate`).
    """
    scores = Scorer(view).score_all(legal)
    shortlist = candidates(view, legal, scores)
    played_at = index_of(legal, played)
    if played_at not in shortlist:
        shortlist.append(played_at)
    rng = random.Random(seed)
    mine = shortlist.index(played_at)
    evals, alive = _evaluate(
        view,
        legal,
        shortlist,
        rng,
        rounds,
        plies,
        prune_points,
        keep=mine,
        sample=sample,
        model=model,
        turns=turns,
    )
    best = _best(evals, alive)
    played_eval, best_eval = evals[mine], evals[best]
    if best != mine and 100.0 * (best_eval.win - played_eval.win) >= confirm_from:
        (played_eval, best_eval), _ = _evaluate(
            view,
            legal,
            [played_at, shortlist[best]],
            rng,
            rounds,
            plies,
            sample=sample,
            model=model,
        )
        if _best([played_eval, best_eval]) == 0:
            best_eval = played_eval
    return DecisionAnalysis(
        played=played_eval, best=best_eval, candidates=len(shortlist), rounds=rounds
    )

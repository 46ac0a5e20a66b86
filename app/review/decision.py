"""The expert's evaluation of one decision, from the deciding seat's view and nothing else (R-60).

`analyse_decision` takes the seat's view, its legal actions and the action it played: it cannot
read the true hidden cards because it is never given the State. It searches as the expert does
(app/bots/expert.py): greedy shortlists the legal actions, the played one is added if greedy left
it out, and every candidate is played out on the same determinised worlds (common random numbers:
candidates are compared on equal luck), a fixed number of rounds so the result depends only on
the view and the seed, never on the machine's speed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from app.bots.determinise import determinise
from app.bots.expert import candidates, playout
from app.bots.greedy import Scorer
from app.engine import EngineError, canonical_action

from .chance import outcome

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
    """Position of `action` in the legal list, compared in canonical form (raises ValueError)."""
    wanted = canonical_action(action)
    for i, a in enumerate(legal):
        if canonical_action(a) == wanted:
            return i
    raise ValueError("the played action is not among the legal actions")


def analyse_decision(
    view: Json, legal: list[Json], played: Json, seed: int, rounds: int
) -> DecisionAnalysis:
    """Search the played action and the expert's shortlist for `rounds` rounds from `view`."""
    me = view["viewer"]
    scores = Scorer(view).score_all(legal)
    shortlist = candidates(view, legal, scores)
    played_at = index_of(legal, played)
    if played_at not in shortlist:
        shortlist.append(played_at)
    rng = random.Random(seed)
    sums_win = [0.0] * len(shortlist)
    sums_margin = [0.0] * len(shortlist)
    sums_chances = [[0.0] * view["players_count"] for _ in shortlist]
    for _ in range(rounds):
        world_seed = rng.getrandbits(32)
        play_seed = rng.getrandbits(32)
        for j, i in enumerate(shortlist):
            world = determinise(view, random.Random(world_seed))
            try:
                leaf = outcome(playout(world, legal[i], me, random.Random(play_seed)), me)
            except EngineError:
                # A sampled world refusing a legal action would be a determinisation defect;
                # count the candidate as the position stands rather than guess.
                leaf = outcome(world, me)
            sums_win[j] += leaf.chances[me]
            sums_margin[j] += leaf.margin
            for s, c in enumerate(leaf.chances):
                sums_chances[j][s] += c
    evals = [
        Evaluation(
            action=legal[i],
            win=sums_win[j] / rounds,
            margin=sums_margin[j] / rounds,
            chances=tuple(c / rounds for c in sums_chances[j]),
        )
        for j, i in enumerate(shortlist)
    ]
    # Best by winning chance, then margin; ties go to greedy's order (the shortlist's).
    best = max(range(len(evals)), key=lambda j: (evals[j].win, evals[j].margin, -j))
    return DecisionAnalysis(
        played=evals[shortlist.index(played_at)],
        best=evals[best],
        candidates=len(shortlist),
        rounds=rounds,
    )

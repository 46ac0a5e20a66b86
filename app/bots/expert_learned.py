"""The learned expert: the baseline's search, judged by a learned evaluation, spent where close.

Three changes to the baseline expert (`expert.py`, kept as it is under the level "expert_v1"):

1. The end of each rollout is judged by the learned evaluation (`value.py`): the viewer's final
   standing predicted from its own view, fitted on self-play outcomes, instead of the static sum
   of what each seat holds now.
2. The rollouts are spent by successive halving: every candidate gets a couple of rounds, the
   worse half is dropped, the rest get more rounds, until two are compared on many worlds. A
   decision whose leader is already far ahead after a stage stops there. The total number of
   rollouts never exceeds the baseline's (`rounds` x candidates), so the CPU stays at or below it.
3. One sampled world per round serves every candidate (the engine never changes a state it is
   given), instead of sampling the same world again for each one.

Rounds still compare candidates on equal luck (common random numbers): every candidate alive in
a stage is played out on the same worlds, and a round cut by the time budget is dropped whole.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from app.engine import EngineError

from .determinise import determinise
from .evaluate import DEFAULT, Weights
from .expert import DEFAULT_BUDGET_S, PRIOR, ExpertBot, OutOfTime, rollout_value
from .value import ValueModel

Json = dict[str, Any]

DEFAULT_ROUNDS = 6  # the baseline's rounds: the rollout budget is this times the candidates
CLEAR_LEAD = 10.0  # after a stage, a lead this large (VP of the objective) ends the search
MIN_STAGE_ROUNDS = 2


def schedule(k: int, rounds: int) -> list[tuple[int, int]]:
    """(candidates alive, rounds played by the stage) for each stage of successive halving.

    The budget is `rounds * k` rollouts, split evenly over the stages; each stage keeps the better
    half (at least two). E.g. k=6, rounds=6: (6, 2), (3, 4), (2, 6) = 12 + 12 + 12 rollouts. With
    too few rounds for every stage to give each candidate one, the last stages are left out (one
    stage is the baseline's flat search), so the rollouts never exceed `rounds * k`.
    """
    alive = [k]
    while alive[-1] > 2:
        alive.append(max(2, math.ceil(alive[-1] / 2)))
    while len(alive) > 1 and rounds * k // len(alive) < k:
        alive.pop()
    per_stage = rounds * k // len(alive)
    return [(a, per_stage // a) for a in alive]


class LearnedExpertBot(ExpertBot):
    """Searches up to `rounds` x candidates rollouts within `budget_s` seconds per decision: the
    expert's decision (`ExpertBot.choose`) with a successive-halving search and the learned
    value at the leaves."""

    def __init__(
        self,
        rng: random.Random,
        budget_s: float = DEFAULT_BUDGET_S,
        rounds: int | None = None,
        weights: Weights = DEFAULT,
        model: ValueModel | None = None,
    ) -> None:
        super().__init__(rng, budget_s, DEFAULT_ROUNDS if rounds is None else rounds, weights)
        self.model = model or ValueModel(weights)

    def _leaf(self, view: Json) -> float:
        """The learned value of a position, from `view`'s seat."""
        return self.model.value(view)

    def _search(
        self,
        view: Json,
        legal: list[Json],
        shortlist: list[int],
        scores: list[float],
        deadline: float,
        seeds: list[int],
    ) -> dict[int, float]:
        """Shrunk mean value of the candidates still alive at the end (index in `shortlist`)."""
        root = self._leaf(view)
        k = len(shortlist)
        sums = [0.0] * k
        played = 0  # rounds every alive candidate has completed
        alive = list(range(k))
        world_rng = random.Random(seeds[0])
        play_rng = random.Random(seeds[1])
        worlds: list[tuple[int, int]] = []  # (world seed, play seed) of each round, shared

        def shrunk(j: int) -> float:
            return (sums[j] + PRIOR * scores[shortlist[j]]) / (played + PRIOR)

        stopped = False
        for size, stage_rounds in schedule(k, self.rounds):
            if len(alive) > size:
                alive = sorted(alive, key=lambda j: -shrunk(j))[:size]
            for _ in range(stage_rounds):
                while len(worlds) <= played:
                    worlds.append((world_rng.getrandbits(32), play_rng.getrandbits(32)))
                results = self._round(view, legal, shortlist, alive, worlds[played], deadline)
                if results is None:
                    stopped = True
                    break
                for j, r in results.items():
                    # An action the sampled world refuses counts at its greedy score.
                    sums[j] += scores[shortlist[j]] if r is None else r - root
                played += 1
            if stopped:
                break
            if played >= MIN_STAGE_ROUNDS and len(alive) > 1:
                ranked = sorted((shrunk(j) for j in alive), reverse=True)
                if ranked[0] - ranked[1] > CLEAR_LEAD:
                    break
        self.last_stats = {"rounds": played, "candidates": k, "alive": len(alive)}
        return {j: shrunk(j) for j in alive}

    def _round(
        self,
        view: Json,
        legal: list[Json],
        shortlist: list[int],
        alive: list[int],
        seeds: tuple[int, int],
        deadline: float,
    ) -> dict[int, float | None] | None:
        """Every alive candidate played out on one world (None: the world refused it);
        None if the time ran out."""
        me = view["viewer"]
        world = determinise(view, random.Random(seeds[0]))
        out: dict[int, float | None] = {}
        for j in alive:
            if time.perf_counter() >= deadline:
                return None
            action = legal[shortlist[j]]
            try:
                out[j] = rollout_value(
                    world,
                    action,
                    me,
                    random.Random(seeds[1]),
                    self.weights,
                    deadline,
                    self._leaf,
                )
            except OutOfTime:
                return None
            except EngineError:
                out[j] = None
        return out

"""The expert bot: flat Monte Carlo over determinised hidden information, greedy-pruned.

For one decision: greedy scores every legal action and keeps the top few (placement lists run to
hundreds). Then, round after round until the time budget is spent, one determinisation of the
hidden cards is sampled (`determinise`, from the view only) and every candidate is played out on
that same world (common random numbers, so candidates are compared on equal luck): the candidate,
the rest of the turn, every opponent's turn and the bot's own next placement, all by fast greedy
policies; then the static evaluation is read. The mean result, shrunk towards the greedy score,
picks the move.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from app.engine import EngineError, apply, legal_actions, view_for
from app.engine.state import State

from .determinise import determinise
from .evaluate import DEFAULT, Evaluator, Weights
from .greedy import GreedyBot, Scorer
from .position import position_from_view

Json = dict[str, Any]

DEFAULT_BUDGET_S = 0.5
TOP_K_PLACE = 6  # candidates kept in the place step (placements and passes)
TOP_K_OTHER = 4  # candidates kept for draws, missions, Reef choices
MAX_PASSES = 2  # passes differ only by the cards swapped: keep the best two
PRIOR = 1.0  # weight of the greedy score, in rollouts' worth
CLEAR_GAP = 12.0  # a greedy lead this large (VP) is not worth searching
MAX_STEPS = 80  # a rollout never runs longer than this many actions


class OutOfTime(Exception):
    """The budget ran out inside a rollout; its round is dropped."""


def candidates(view: Json, legal: list[Json], scores: list[float]) -> list[int]:
    """Indices of the actions worth searching, best greedy score first."""
    order = sorted(range(len(legal)), key=lambda i: -scores[i])
    k = TOP_K_PLACE if view["turn"]["phase"] == "place" else TOP_K_OTHER
    out: list[int] = []
    passes = 0
    for i in order:
        if scores[i] <= -1e8:
            break
        if legal[i].get("type") == "pass":
            passes += 1
            if passes > MAX_PASSES:
                continue
        if out and scores[out[0]] - scores[i] > CLEAR_GAP:
            break
        out.append(i)
        if len(out) >= k:
            break
    return out or [order[0]]


def playout(
    world: State,
    action: Json,
    me: int,
    rng: random.Random,
    weights: Weights = DEFAULT,
    deadline: float = float("inf"),
    plies: int = MAX_STEPS,
    sample: int = 0,
    turns: int = 0,
) -> State:
    """Play `action`, then fast greedy for every seat until after `me`'s own next placement,
    or after `plies` actions if that comes first (the review's cheaper rollouts; the leaf is
    read by the static evaluation either way). With `sample`, each step's policy chooses among
    that many of the legal actions drawn by `rng` (a cheaper policy: scoring is most of a
    rollout's cost); 0 scores them all, as the expert does. With `turns`, the rollout also
    stops as soon as that many turns have begun since `world`'s (1: at the start of the next
    seat's turn), so every candidate's leaf is read at the same point of a turn.

    Raises OutOfTime once `deadline` (perf_counter seconds) has passed.
    """
    state, _ = apply(world, action, me)
    policy = GreedyBot(rng, weights, fast=True)
    left = state.turn.seat != me
    last_turn = world.turn.number + turns if turns > 0 else None
    for _ in range(min(plies, MAX_STEPS)):
        if state.over or (last_turn is not None and state.turn.number >= last_turn):
            break
        if time.perf_counter() >= deadline:
            # Some steps are slow (Mission payments with many ships): overshoot one step,
            # never a whole rollout.
            raise OutOfTime
        seat = state.turn.seat
        if seat != me:
            left = True
        mine_again = left and seat == me and state.turn.phase == "place" and not state.pending
        view = view_for(state, seat)
        legal = legal_actions(state, seat)
        if 0 < sample < len(legal):
            legal = rng.sample(legal, sample)
        choice = policy.choose(view, legal)
        state, _ = apply(state, choice, seat)
        if mine_again and choice.get("type") in ("place", "pass"):
            break
    return state


def rollout_value(
    world: State,
    action: Json,
    me: int,
    rng: random.Random,
    weights: Weights,
    deadline: float,
    leaf: Callable[[Json], float],
) -> float:
    """Play `action` and the rollout after it (`playout`); `leaf` values the end from `me`'s
    view (the static evaluation, or the learned value)."""
    state = playout(world, action, me, rng, weights, deadline)
    return leaf(view_for(state, me))


class ExpertBot:
    """Searches within `budget_s` seconds per decision; `rounds` caps the search (determinism)."""

    level = "expert"

    def __init__(
        self,
        rng: random.Random,
        budget_s: float = DEFAULT_BUDGET_S,
        rounds: int | None = None,
        weights: Weights = DEFAULT,
    ) -> None:
        self.rng = rng
        self.budget_s = budget_s
        self.rounds = rounds
        self.weights = weights
        self.greedy = GreedyBot(rng, weights)
        self.last_stats: dict[str, Any] = {}

    def choose(self, view: Json, legal: list[Json]) -> Json:
        """Pick one element of `legal`: greedy scores every legal action, the few worth it are
        searched within the budget (`_search`), and the best value wins (the first, on a tie);
        an only action, or a shortlist of one, is played without a search."""
        start = time.perf_counter()
        if len(legal) == 1:
            return legal[0]
        scores = Scorer(view, self.weights).score_all(legal)
        self.greedy._guard_unknown(view, legal, scores)
        shortlist = candidates(view, legal, scores)
        if len(shortlist) < 2:
            return legal[shortlist[0]]
        seeds = [self.rng.getrandbits(32) for _ in range(2)]
        values = self._search(view, legal, shortlist, scores, start + self.budget_s, seeds)
        best = max(values, key=lambda j: values[j])
        return legal[shortlist[best]]

    def _leaf(self, view: Json) -> float:
        """The static evaluation of a position, from `view`'s seat."""
        return Evaluator(position_from_view(view), self.weights).objective0

    def _search(
        self,
        view: Json,
        legal: list[Json],
        candidates: list[int],
        scores: list[float],
        deadline: float,
        seeds: list[int],
    ) -> dict[int, float]:
        """Shrunk mean rollout value of each candidate (complete rounds only), by its index in
        `candidates`: a flat search, every candidate every round."""
        me = view["viewer"]
        root = self._leaf(view)
        sums = [0.0] * len(candidates)
        rounds = 0
        world_rng = random.Random(seeds[0])
        play_rng = random.Random(seeds[1])
        while self.rounds is None or rounds < self.rounds:
            world_seed = world_rng.getrandbits(32)
            play_seed = play_rng.getrandbits(32)
            results = []
            for i in candidates:
                if time.perf_counter() >= deadline:
                    break
                world = determinise(view, random.Random(world_seed))
                try:
                    leaf = rollout_value(
                        world,
                        legal[i],
                        me,
                        random.Random(play_seed),
                        self.weights,
                        deadline,
                        self._leaf,
                    )
                    leaf -= root
                except OutOfTime:
                    break
                except EngineError:
                    # An action the sampled world refuses (an unknown expansion type, say):
                    # count it at its greedy score rather than guess.
                    leaf = scores[i]
                results.append(leaf)
            if len(results) < len(candidates):
                break  # an unfinished round would compare candidates on unequal luck
            sums = [s + r for s, r in zip(sums, results, strict=True)]
            rounds += 1
        self.last_stats = {"rounds": rounds, "candidates": len(candidates)}
        return {
            j: (sums[j] + PRIOR * scores[i]) / (rounds + PRIOR) for j, i in enumerate(candidates)
        }

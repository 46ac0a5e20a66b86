"""The review's cheaper budget: rollouts cut after a number of actions, candidates left far
behind after a round not played out further, and the same analysis for the same seed."""

from __future__ import annotations

import random

import pytest

from app.bots import expert
from app.bots.determinise import determinise
from app.bots.greedy import Scorer
from app.engine import apply, legal_actions, new_game, view_for
from app.review import ReviewSettings, analyse_game
from app.review import decision as decision_module
from app.review.decision import _evaluate, analyse_decision, index_of
from app.review.source import review_settings
from app.settings import Settings

from .conftest import greedy_game


def _decisions(players: int = 4, seed: int = 3, limit: int = 40):  # type: ignore[no-untyped-def]
    record = greedy_game(players, seed)
    state = new_game(record.options, record.seed)
    for seat, action in record.moves[:limit]:
        legal = legal_actions(state, seat)
        if len(legal) > 1:
            yield state, seat, legal, action
        state, _ = apply(state, action, seat)


def _counting(monkeypatch: pytest.MonkeyPatch, module: object, name: str) -> list[int]:
    """Count the calls of `module.name` (the count in a one-element list the test may reset)."""
    calls = [0]
    real = getattr(module, name)

    def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        calls[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)
    return calls


def test_a_cut_rollout_stops_after_that_many_actions(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _counting(monkeypatch, expert, "apply")
    checked = 0
    for state, seat, legal, _ in _decisions():
        view = view_for(state, seat)
        world = determinise(view, random.Random(1))
        calls[0] = 0
        full = expert.playout(world, legal[0], seat, random.Random(2))
        full_steps = calls[0]
        if full.over or full_steps <= 4:
            continue
        calls[0] = 0
        cut = expert.playout(world, legal[0], seat, random.Random(2), plies=3)
        # The candidate's own action, then exactly 3 actions of the rollout policy.
        assert calls[0] == 1 + 3 < full_steps
        assert cut != full
        checked += 1
        if checked >= 3:
            break
    assert checked >= 2


def test_a_rollout_cut_by_turns_stops_at_the_start_of_a_turn() -> None:
    checked = 0
    for state, seat, legal, _ in _decisions():
        view = view_for(state, seat)
        world = determinise(view, random.Random(1))
        full = expert.playout(world, legal[0], seat, random.Random(2))
        for turns in (1, 2):
            cut = expert.playout(world, legal[0], seat, random.Random(2), turns=turns)
            if cut.over:
                continue
            # At the first state of the turn `turns` after the decision's: its first step.
            assert cut.turn.number == world.turn.number + turns
            assert cut.turn.phase == "place" and not cut.turn.undo
            assert full.turn.number >= cut.turn.number
        checked += 1
        if checked >= 4:
            break
    assert checked >= 3


def test_a_candidate_far_behind_after_a_round_is_not_played_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rollouts = _counting(monkeypatch, decision_module, "playout")
    checked = 0
    for state, seat, legal, _ in _decisions():
        view = view_for(state, seat)
        picks = expert.candidates(view, legal, Scorer(view).score_all(legal))
        if len(picks) < 3:
            continue
        keep = len(picks) - 1  # stands for the played move: never dropped
        one, _ = _evaluate(view, legal, picks, random.Random(9), 1, plies=4)
        lead = max(e.win for e in one)
        gaps = [100.0 * (lead - e.win) for j, e in enumerate(one) if j != keep and e.win < lead]
        if not gaps:
            continue
        gap = min(gaps)
        rollouts[0] = 0
        full, alive_full = _evaluate(view, legal, picks, random.Random(9), 2, plies=4)
        assert rollouts[0] == 2 * len(picks) and alive_full == list(range(len(picks)))
        rollouts[0] = 0
        pruned, alive = _evaluate(
            view, legal, picks, random.Random(9), 2, plies=4, prune_points=gap, keep=keep
        )
        behind = [j for j, e in enumerate(one) if j != keep and 100.0 * (lead - e.win) >= gap]
        assert behind and keep in alive
        assert alive == [j for j in range(len(picks)) if j not in behind]
        assert rollouts[0] == len(picks) + len(alive)
        # The same worlds: a survivor's figures are those of the unpruned search; a dropped
        # candidate keeps its first round's.
        for j in range(len(picks)):
            assert pruned[j] == (full[j] if j in alive else one[j])
        checked += 1
        if checked >= 3:
            break
    assert checked >= 1


def test_a_clear_best_stops_the_search_early(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a gap no candidate can keep up with, one round decides: only the played move
    (whose own chance is reported) runs the remaining rounds."""
    rollouts = _counting(monkeypatch, decision_module, "playout")
    for state, seat, legal, played in _decisions():
        view = view_for(state, seat)
        rollouts[0] = 0
        wide = analyse_decision(view, legal, played, 5, 3, plies=4)
        many = rollouts[0]
        if wide.candidates < 3:
            continue
        rollouts[0] = 0
        tight = analyse_decision(view, legal, played, 5, 3, plies=4, prune_points=1e-9)
        # Round 1: every candidate; rounds 2 and 3: the leader and the played move at most.
        assert rollouts[0] <= wide.candidates + 2 * 2 < many == 3 * wide.candidates
        assert tight.played.action == legal[index_of(legal, played)]
        return
    pytest.fail("no decision with 3 candidates")


@pytest.mark.slow  # analyses a whole game twice
def test_the_same_game_seed_and_budget_give_the_same_analysis() -> None:
    budget = ReviewSettings(rounds=2, plies=30, prune_points=3.0, sample=10)
    first = analyse_game(greedy_game(2, 6), budget)
    assert analyse_game(greedy_game(2, 6), budget) == first
    assert first["settings"]["plies"] == 30 and first["settings"]["prune_points"] == 3.0
    judged = [m for m in first["moves"] if not m["forced"]]
    assert judged
    # A different budget is a different analysis (the knobs reach the search).
    other = analyse_game(greedy_game(2, 6), ReviewSettings(rounds=2, plies=40))
    assert [m["win"] for m in other["moves"] if not m["forced"]] != [m["win"] for m in judged]


def test_the_knobs_are_settings() -> None:
    budget = review_settings(
        Settings(
            review_rollout_plies=3,
            review_prune_points=2.5,
            review_rollout_sample=7,
            review_rollout_turns=2,
            review_leaf="static",
        )
    )
    assert (budget.plies, budget.prune_points, budget.sample) == (3, 2.5, 7)
    assert (budget.turns, budget.leaf) == (2, "static")
    with pytest.raises(ValueError):
        ReviewSettings(turns=-1)
    with pytest.raises(ValueError):
        ReviewSettings(sample=-1)
    with pytest.raises(ValueError):
        ReviewSettings(plies=0)
    with pytest.raises(ValueError):
        ReviewSettings(prune_points=0)


def test_a_sampled_rollout_scores_only_that_many_actions_per_step(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[int] = []
    real = expert.GreedyBot.choose

    def counted(self, view, legal):  # type: ignore[no-untyped-def]
        seen.append(len(legal))
        return real(self, view, legal)

    monkeypatch.setattr(expert.GreedyBot, "choose", counted)
    for state, seat, legal, _ in _decisions():
        view = view_for(state, seat)
        world = determinise(view, random.Random(1))
        seen.clear()
        expert.playout(world, legal[0], seat, random.Random(2))
        widest = max(seen, default=0)
        if widest <= 6:
            continue
        seen.clear()
        expert.playout(world, legal[0], seat, random.Random(2), sample=6)
        assert seen and max(seen) == 6
        return
    pytest.fail("no rollout with more than 6 legal actions at a step")

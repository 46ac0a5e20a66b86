"""Greedy beats random; `simulate --bots` reports win rates by level."""

from __future__ import annotations

import random

import pytest

from app.bots import make_bot
from app.engine import GameOptions, new_game, to_act, view_for
from app.simulate import simulate

from .conftest import mid_game


@pytest.mark.slow  # many whole bot games
def test_greedy_beats_random_in_most_two_player_games() -> None:
    summary = simulate(players=2, games=20, seed=1, levels=["greedy", "random"])
    assert summary["win_rate"]["greedy"] >= 0.7


def test_simulate_reports_win_rate_per_level() -> None:
    summary = simulate(players=3, games=2, seed=2, levels=["greedy", "random", "random"])
    assert set(summary["win_rate"]) == {"greedy", "random"}
    assert abs(sum(summary["win_rate"].values()) - 1.0) < 1e-6


def test_unknown_action_types_are_neutral_and_never_loop() -> None:
    state = mid_game(2, 3, 6)
    seat = to_act(state)
    view = view_for(state, seat)
    mystery = [{"type": "mystery_free_action"}]
    for level in ("greedy", "expert"):
        bot = make_bot(level, random.Random(0), budget_s=0.05)
        assert bot.choose(view, mystery) == mystery[0]
        legal = [{"type": "end_turn"}, {"type": "mystery_free_action"}]
        picks = [bot.choose(view, legal)["type"] for _ in range(6)]
        assert "end_turn" in picks  # the guard stops repeating an unknown free action


def test_greedy_is_fast_on_long_placement_lists() -> None:
    import time

    from app.engine import legal_actions

    bot = make_bot("greedy", random.Random(0))
    state = new_game(GameOptions(players=5), 9)
    state = mid_game(5, 9, 40)
    seat = to_act(state)
    view, legal = view_for(state, seat), legal_actions(state, seat)
    t0 = time.perf_counter()
    bot.choose(view, legal)
    assert time.perf_counter() - t0 < 0.5  # generous for CI; typically a few milliseconds


def test_expert_stops_near_its_budget() -> None:
    import time

    from app.engine import legal_actions

    state = mid_game(4, 17, 30)
    seat = to_act(state)
    view, legal = view_for(state, seat), legal_actions(state, seat)
    bot = make_bot("expert", random.Random(0), budget_s=0.1)
    t0 = time.perf_counter()
    assert bot.choose(view, legal) in legal
    # It starts no rollout past the budget: the overshoot is one rollout (generous bound for CI).
    assert time.perf_counter() - t0 < 1.0

"""make_bot, LEVELS, and every level playing whole games with legal actions only."""

from __future__ import annotations

import random

import pytest

from app.bots import BENCH_LEVELS, LEVELS, make_bot
from app.engine import GameOptions, final_scores, new_game

from .conftest import play_out


def test_levels_are_the_three_named() -> None:
    assert LEVELS == ("random", "greedy", "expert")
    for level in LEVELS:
        assert make_bot(level, random.Random(0)).level == level


def test_benchmark_levels_are_made_but_not_offered_to_players() -> None:
    assert set(BENCH_LEVELS).isdisjoint(LEVELS)
    for level in BENCH_LEVELS:
        bot = make_bot(level, random.Random(0), budget_s=0.2, rounds=2)
        assert bot.level == level
        assert bot.budget_s == 0.2  # type: ignore[attr-defined]


def test_baseline_expert_is_todays_expert() -> None:
    from app.bots.expert import ExpertBot

    assert type(make_bot("expert_v1", random.Random(0))) is ExpertBot


def test_unknown_level_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="grandmaster"):
        make_bot("grandmaster", random.Random(0))


def test_expert_takes_a_budget() -> None:
    bot = make_bot("expert", random.Random(0), budget_s=0.2)
    assert bot.budget_s == 0.2  # type: ignore[attr-defined]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_and_greedy_play_only_legal_actions(players: int) -> None:
    levels = ["greedy", "random"] * 3
    bots = [make_bot(levels[s], random.Random(s)) for s in range(players)]
    state = play_out(new_game(GameOptions(players=players), 40 + players), bots)
    assert len(final_scores(state)["players"]) == players


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_expert_plays_only_legal_actions(players: int) -> None:
    # A tiny time budget: this checks legality over a whole game, not strength.
    levels = ["expert", "greedy", "random", "greedy", "random"]
    bots = [make_bot(levels[s], random.Random(s), budget_s=0.02) for s in range(players)]
    state = play_out(new_game(GameOptions(players=players), 50 + players), bots)
    assert state.over


def test_all_greedy_table_of_five_finishes() -> None:
    bots = [make_bot("greedy", random.Random(s)) for s in range(5)]
    state = play_out(new_game(GameOptions(players=5), 3), bots)
    scores = final_scores(state)
    assert scores["winners"]


@pytest.mark.parametrize("players", [2, 4])
def test_bots_play_expansion_games_with_legal_actions(players: int) -> None:
    # Expansion actions are unknown to the evaluation: they must be handled as neutral choices.
    levels = ["greedy", "expert", "random", "greedy"]
    bots = [make_bot(levels[s], random.Random(s), budget_s=0.02) for s in range(players)]
    state = play_out(new_game(GameOptions(players=players, expansion=True), 70 + players), bots)
    assert state.over


def test_seats_refuse_the_benchmark_levels() -> None:
    from app.services.tables.seats import check_level
    from app.shared.errors import ServiceError

    assert check_level("expert") == "expert"
    for level in BENCH_LEVELS:
        with pytest.raises(ServiceError):
            check_level(level)

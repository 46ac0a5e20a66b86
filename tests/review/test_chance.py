"""Winning chances from a rollout's leaf."""

from __future__ import annotations

import pytest

from app.engine import final_scores, replay
from app.review.chance import margin_of, outcome, softmax_chances

from .conftest import greedy_game


def test_chances_sum_to_one_and_follow_the_values() -> None:
    chances = softmax_chances([30.0, 20.0, 25.0], 0.5)
    assert sum(chances) == pytest.approx(1.0)
    assert chances[0] > chances[2] > chances[1]


def test_the_same_lead_is_worth_more_at_the_end_than_at_the_start() -> None:
    early = softmax_chances([30.0, 20.0], 0.0)
    late = softmax_chances([30.0, 20.0], 1.0)
    assert 0.5 < early[0] < late[0] < 1.0


def test_margin_is_own_value_minus_the_best_other() -> None:
    assert margin_of([10.0, 14.0, 12.0], 0) == -4.0
    assert margin_of([10.0, 14.0, 12.0], 1) == 2.0


def test_a_finished_leaf_reads_its_final_scores_at_the_end_temperature() -> None:
    record = greedy_game()
    final = replay(record.options, record.seed, record.moves)
    scores = final_scores(final)
    totals = [float(p["total"]) for p in sorted(scores["players"], key=lambda p: p["seat"])]
    for seat in range(2):
        got = outcome(final, seat)
        assert got.chances == softmax_chances(totals, 1.0)
        assert got.margin == totals[seat] - totals[1 - seat]
    winner = scores["winners"][0]
    assert outcome(final, winner).chances[winner] > 0.5


def test_an_unfinished_leaf_reads_the_seats_own_view() -> None:
    record = greedy_game()
    state = replay(record.options, record.seed, record.moves[:20])
    got = outcome(state, 0)
    assert sum(got.chances) == pytest.approx(1.0)
    assert 0.0 < got.chances[0] < 1.0

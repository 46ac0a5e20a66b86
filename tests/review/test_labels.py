"""Labels by the drop in winning chance, and the accuracy per player."""

from __future__ import annotations

import pytest

from app.review.labels import Thresholds, accuracy, label, move_accuracy

DEFAULT = Thresholds()


@pytest.mark.parametrize(
    ("drop", "expected"),
    [
        (0.0, None),
        (4.99, None),
        (5.0, "inaccuracy"),
        (9.99, "inaccuracy"),
        (10.0, "mistake"),
        (14.99, "mistake"),
        (15.0, "blunder"),
        (80.0, "blunder"),
    ],
)
def test_labels_at_the_default_thresholds(drop: float, expected: str | None) -> None:
    assert label(drop, DEFAULT) == expected


def test_thresholds_are_settable() -> None:
    strict = Thresholds(inaccuracy=1, mistake=2, blunder=3)
    assert [label(d, strict) for d in (0.5, 1, 2, 3)] == [None, "inaccuracy", "mistake", "blunder"]


@pytest.mark.parametrize(("i", "m", "b"), [(0, 10, 15), (5, 4, 15), (5, 10, 9), (-1, 10, 15)])
def test_thresholds_out_of_order_are_refused(i: float, m: float, b: float) -> None:
    with pytest.raises(ValueError, match="thresholds"):
        Thresholds(inaccuracy=i, mistake=m, blunder=b)


def test_a_perfect_move_is_100_and_accuracy_falls_with_the_drop() -> None:
    assert move_accuracy(0.0) == pytest.approx(100.0, abs=1e-3)
    values = [move_accuracy(d) for d in (0, 5, 10, 15, 30, 60, 100)]
    assert values == sorted(values, reverse=True)
    assert len(set(values)) == len(values)
    assert move_accuracy(100.0) >= 0.0
    assert move_accuracy(-3.0) == move_accuracy(0.0)  # a negative drop is no drop


def test_accuracy_is_the_mean_of_the_moves() -> None:
    assert accuracy([]) is None
    assert accuracy([0.0, 0.0]) == pytest.approx(100.0, abs=1e-3)
    assert accuracy([0.0, 20.0]) == pytest.approx((move_accuracy(0) + move_accuracy(20)) / 2)

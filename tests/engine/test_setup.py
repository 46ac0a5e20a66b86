"""Setup steps A-I (R-05, R-10, R-15, R-20)."""

from __future__ import annotations

from collections import Counter

import pytest

from app.engine import GameOptions, new_game, state_to_json


@pytest.mark.parametrize(("players", "heads"), [(2, 14), (3, 11), (4, 8), (5, 7)])
def test_setup_for_each_player_count(players, heads):
    s = new_game(GameOptions(players=players), seed=3)
    assert [p.colour for p in s.players] == ["orange", "green", "purple", "pink", "yellow"][
        :players
    ]
    assert all(p.heads == heads and p.gold == 4 for p in s.players)
    assert all(len(p.hand) == 2 and all(c.startswith("M") for c in p.hand) for p in s.players)
    assert {k: len(v) for k, v in s.market.items()} == {"S": 2, "M": 2, "L": 2, "missions": 4}
    assert len(s.decks["M"]) == 36 - 2 - 2 * players
    assert Counter(s.ships_on_board.values()) == {"green": 12, "purple": 11, "red": 11, "blue": 10}
    assert len(s.decks["reefs"]) == 24 and len(s.decks["missions"]) == 29
    boards = sorted(layout[0] for layout in s.layouts)
    assert boards == ["1", "2", "3", "4"]


def test_same_seed_same_game_other_seed_other_game():
    a = state_to_json(new_game(GameOptions(players=4), seed=11))
    b = state_to_json(new_game(GameOptions(players=4), seed=11))
    c = state_to_json(new_game(GameOptions(players=4), seed=12))
    assert a == b and a != c


def test_first_player_random_or_fixed_R20():
    firsts = {new_game(GameOptions(players=5), seed=s).turn.seat for s in range(40)}
    assert firsts == {0, 1, 2, 3, 4}
    assert new_game(GameOptions(players=3, first_player=2), seed=1).turn.seat == 2


def test_layout_order_and_sides_vary_R05():
    seen = {new_game(GameOptions(players=2), seed=s).layouts for s in range(30)}
    assert len(seen) > 20
    fixed = GameOptions(players=2, layouts=("4B", "3A", "2B", "1A"))
    assert new_game(fixed, 1).layouts == ("4B", "3A", "2B", "1A")


def test_bad_options_are_refused():
    for bad in [
        dict(players=1),
        dict(players=6),
        dict(players=2, layouts=("1A", "1B", "2A", "3A")),
        dict(players=2, layouts=("",)),  # an empty id is refused, not an IndexError
        dict(players=2, layouts=("", "2A", "3A", "4A")),
        dict(players=2, layouts=("1Z", "2A", "3A", "4A")),  # no such side
    ]:
        with pytest.raises(ValueError):
            GameOptions(**bad)

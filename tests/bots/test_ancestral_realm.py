"""R-56: bots choose the realm of the Ancestral head where counting twice is worth more."""

from __future__ import annotations

import random

import pytest

from app.bots import make_bot
from app.engine import State, apply, legal_actions, view_for
from tests.engine.helpers import card_of_shape, game, put

from .conftest import expert

ACROSS = [(4, 3), (5, 3), (6, 3), (7, 3), (8, 3)]  # Starfish, a Sea Current, then Turtle
KEY = sorted([r, c] for r, c in ACROSS)


def _position() -> State:
    """Seat 1 holds Turtle with one Dragon of two pieces; Starfish is empty.

    An I5 from Starfish across the current into Turtle: with the Ancestral head in Turtle seat 0
    counts two Dragons there and takes the realm; with the head in Starfish it ties on Dragons
    in Turtle and loses on pieces, and gains nothing in Starfish, which it leads alone anyway.
    """
    s = game(players=2, first=0, expansion=True)
    put(s, 1, [(9, 3), (10, 3)])
    s.players[0].hand = [card_of_shape("I5"), card_of_shape("I3")]
    s.players[0].gold = 30
    s.players[0].heads = 2  # no later turn to keep the head for
    return s


def _across(legal: list[dict]) -> list[dict]:
    return [a for a in legal if a["type"] == "place" and sorted(a["cells"]) == KEY]


@pytest.mark.parametrize("level", ["greedy", "expert"])
def test_bots_put_the_head_where_it_takes_the_realm_R56(level: str) -> None:
    s, _ = apply(_position(), {"type": "use_ancestral"}, 0)
    legal = _across(legal_actions(s, 0))
    assert [a["head"] for a in legal] == [[4, 3], [8, 3]]
    bot = expert(3, rounds=2) if level == "expert" else make_bot(level, random.Random(3))
    assert bot.choose(view_for(s, 0), legal)["head"] == [8, 3]


def test_the_ancestral_lookahead_counts_the_best_realm_of_the_head_R56() -> None:
    """Declaring the head is worth it here only because its realm can be Turtle."""
    s = _position()
    legal = [a for a in legal_actions(s, 0) if a["type"] == "use_ancestral"]
    legal += _across(legal_actions(s, 0))  # the plain placement, head on (4, 3) in Starfish
    assert len(legal) == 2
    from app.bots.greedy import Scorer

    use, plain = Scorer(view_for(s, 0)).score_all(legal)
    assert use > plain + 10
    assert make_bot("greedy", random.Random(0)).choose(view_for(s, 0), legal) == legal[0]


def test_the_lookahead_weighs_exactly_the_heads_the_engine_lists_R56() -> None:
    """The bots take the Ancestral head's choices from the engine (one head per realm the
    squares cover, R-56), so they weigh the very placements the legal actions will offer once
    the head is declared, a Dragon lying only on Sea Currents included."""
    from app.engine import realm_head_bits
    from app.engine.board import bit, mask_of

    s, _ = apply(_position(), {"type": "use_ancestral"}, 0)
    listed: dict[int, set[int]] = {}
    for a in legal_actions(s, 0):
        if a["type"] == "place":
            listed.setdefault(mask_of(map(tuple, a["cells"])), set()).add(bit(*a["head"]))
    assert any(len(heads) == 2 for heads in listed.values())
    for mask, heads in listed.items():
        assert set(realm_head_bits(mask)) == heads
    current = mask_of([(7, 0), (7, 1), (7, 2)])  # a Sea Current only: the head counts nowhere
    assert realm_head_bits(current) == (bit(7, 0),)

"""R-22: the contact treasure's Gold pays for its own placement; Reward Board Gold never does."""

from __future__ import annotations

from app.engine import apply, legal_actions
from app.engine.board import mask_of, squares_of
from tests.engine.helpers import (
    card_of_shape,
    find_placement,
    game,
    place_action,
    put,
    refused,
    ring,
)
from tests.engine.test_expansion import _plain_reward

CONTACT = "HT19"  # 2 Gold for each other Dragon in contact
ISSUE_CELLS = [(3, 9), (3, 10), (4, 8), (4, 9)]  # one Whirlpool: costs 2 Gold


def _issue_position(gold: int = 0, reefs: tuple[str, ...] = ()):
    """The issue's example: M21 (an S) on one Whirlpool, touching one other Dragon."""
    s = game(players=3, first=0, expansion=True)
    put(s, 1, [(2, 9)])  # touches (3, 9)
    s.players[0].hand = ["M21", "M05"]
    s.players[0].gold = gold
    s.players[0].reefs = list(reefs)
    s.players[0].treasures = [CONTACT]
    return s, place_action("M21", mask_of(ISSUE_CELLS))


def _places(s):
    return [a for a in legal_actions(s, 0) if a["type"] == "place"]


def test_contact_gold_pays_the_cost_of_its_own_placement_R22():
    s, act = _issue_position(gold=0)
    assert act not in _places(s)  # without the treasure: 0 Gold, cost 2
    refused(s, act, 0, "cannot_afford")
    s, _ = apply(s, {"type": "use_treasure", "card": CONTACT}, 0)
    assert act in _places(s)
    s, events = apply(s, act, 0)
    placed = next(e for e in events if e["type"] == "placed")
    assert placed["cost"] == 2 and placed["gold_gained"] == 2 and placed["cashed"] == []
    assert placed["neighbour_gold"] == {"1": 1}  # the touched Dragon's owner still gets 1
    assert s.players[0].gold == 0 and s.players[1].gold == 4 + 1


def test_contact_gold_comes_before_cashing_a_gold_card_R22():
    """Rewards first, then the cost: the contact Gold spares the Gold card."""
    s, act = _issue_position(gold=0, reefs=("RF21",))
    s, _ = apply(s, {"type": "use_treasure", "card": CONTACT}, 0)
    s, events = apply(s, act, 0)
    placed = next(e for e in events if e["type"] == "placed")
    assert placed["cashed"] == [] and s.players[0].reefs == ["RF21"] and s.players[0].gold == 0


def test_contact_gold_counts_only_dragons_that_touch_R22():
    """Two Whirlpools need 4 Gold: one touching Dragon gives 2, two give 4."""
    s = game(players=3, first=0, expansion=True)
    mask = find_placement(
        s, "I3", lambda sym, m: sym["W"] == 2 and sym["G"] + sym["~"] + sym["S"] + sym["R"] == 0
    )
    around = ring(mask)
    put(s, 1, [around[0]])
    card = card_of_shape("I3")
    s.players[0].hand = [card, "M05"]
    s.players[0].gold = 0
    s.players[0].treasures = [CONTACT]
    s, _ = apply(s, {"type": "use_treasure", "card": CONTACT}, 0)
    act = place_action(card, mask)
    assert act not in _places(s)
    refused(s, act, 0, "cannot_afford")
    far = next(sq for sq in around[1:] if abs(sq[0] - around[0][0]) + abs(sq[1] - around[0][1]) > 1)
    put(s, 2, [far])
    assert act in _places(s)
    s, _ = apply(s, act, 0)
    assert s.players[0].gold == 0


def test_reward_board_gold_does_not_pay_the_cost_R22():
    """A ship whose tail step lands on 3 Gold still leaves a 0-Gold player unable to pay 2."""
    s = game(players=2, first=0, expansion=True)
    _plain_reward(s)
    s.reward["spaces"]["green"][0] = "g3"
    mask = find_placement(
        s, "I3", lambda sym, m: sym["W"] == 1 and sym["S"] == 1 and sym["G"] + sym["~"] == 0
    )
    (ship,) = squares_of(mask & s.board.ship_spaces)
    s.ships_on_board[ship] = "green"
    put(s, 1, [ring(mask)[0]])
    card = card_of_shape("I3")
    s.players[0].hand = [card, "M05"]
    s.players[0].gold = 0
    act = place_action(card, mask)
    assert act not in _places(s)
    refused(s, act, 0, "cannot_afford")
    s.players[0].gold = 2
    s, _ = apply(s, act, 0)
    assert s.players[0].tails["green"] == 1 and s.players[0].gold == 0 + 3  # paid, then the tail

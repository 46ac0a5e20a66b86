"""Bots at the neutral steps of R-58 and with the contact Gold of R-22."""

from __future__ import annotations

import random

import pytest

from app.bots import make_bot
from app.bots.determinise import determinise
from app.bots.greedy import Scorer
from app.engine import State, apply, legal_actions, view_for
from app.engine.board import mask_of
from tests.engine.helpers import game, place_action, put
from tests.engine.test_expansion import _plain_reward, _ship_placement, xgame

ANY_TAIL = "HT25"


def _at_advance_step(held: list[str], heads: int = 8) -> State:
    """Seat 0 has just taken two green ships and waits at the `advance` step."""
    s = xgame(first=0)
    _plain_reward(s)
    s.reward["spaces"]["purple"][0] = "g3"  # the step a steered ship could take
    action = _ship_placement(s, ["green", "green"])
    for card in s.players[0].hand:  # the test hand: take its cards out of the decks
        for pile in (*s.decks.values(), *s.market.values(), s.players[1].hand):
            if card in pile:
                pile.remove(card)
    for card in held:
        s.decks["treasures"].remove(card)
    s.players[0].treasures = list(held)
    s.players[0].heads = heads
    s, _ = apply(s, action, 0)
    assert s.pending[0]["kind"] == "advance"
    return s


def test_greedy_steers_ships_with_any_tail_when_it_pays_R58() -> None:
    """The step lists the ships, so the gain is measured: 3 Gold on purple beats keeping it."""
    s = _at_advance_step([ANY_TAIL])
    legal = legal_actions(s, 0)
    assert legal == [{"type": "use_treasure", "card": ANY_TAIL}, {"type": "decline"}]
    assert make_bot("greedy", random.Random(0)).choose(view_for(s, 0), legal) == legal[0]
    s, _ = apply(s, legal[0], 0)
    choice = make_bot("greedy", random.Random(0)).choose(view_for(s, 0), legal_actions(s, 0))
    assert choice == {"type": "choose_tail", "track": "purple"}


def test_greedy_keeps_any_tail_when_the_ships_own_track_is_as_good_R58() -> None:
    s = _at_advance_step([ANY_TAIL])
    s.reward["spaces"]["purple"][0] = ""  # nothing to steer towards
    legal = legal_actions(s, 0)
    assert make_bot("greedy", random.Random(0)).choose(view_for(s, 0), legal) == legal[1]


@pytest.mark.parametrize("held", [[ANY_TAIL], ["HT04"]])
def test_determinise_keeps_the_neutral_step_and_its_answers_R58(held: list[str]) -> None:
    """Opponents' sampled treasures cannot change the step; the bot's own card decides answers."""
    s = _at_advance_step(held)
    s.players[1].treasures = ["HT26"]  # an opponent's any-tail card, which the bot cannot see
    s.decks["treasures"].remove("HT26")
    view = view_for(s, 0)
    for k in range(5):
        world = determinise(view, random.Random(k))
        assert view_for(world, 0) == view
        assert legal_actions(world, 0) == legal_actions(s, 0)
        after, _ = apply(world, {"type": "decline"}, 0)
        assert after.players[0].tails["green"] == 2


def test_greedy_sees_that_contact_gold_pays_the_cost_R22() -> None:
    """The lookahead's affordability counts the contact treasure's Gold (the issue's example)."""
    from app.bots.expansion_moves import _fits

    s = game(players=3, first=0, expansion=True)
    put(s, 1, [(2, 9)])
    s.players[0].hand = ["M21", "M05"]
    s.players[0].gold = 0
    s.players[0].treasures = ["HT19"]
    sc = Scorer(view_for(s, 0))
    mask = mask_of([(3, 9), (3, 10), (4, 8), (4, 9)])  # one Whirlpool, touching seat 1
    assert not _fits(sc, mask, frozenset())
    assert _fits(sc, mask, frozenset({"contact_gold"}))
    s2, _ = apply(s, {"type": "use_treasure", "card": "HT19"}, 0)
    assert place_action("M21", mask) in legal_actions(s2, 0)

"""`take_back`: undo the Ancestral head declared (R-56) or a before-placing treasure used (R-54)
until the placement, never across anything else (a revealed card, another action, another
player's move). Taking back gives exactly the state before the switch."""

from __future__ import annotations

import random

import pytest

from app.engine import (
    EngineError,
    GameOptions,
    apply,
    describe,
    legal_actions,
    new_game,
    state_to_json,
    to_act,
    view_for,
)
from app.engine.content import content, expansion_content
from app.engine.expansion import BEFORE_PLACING
from tests.engine.helpers import game

XC = expansion_content()
TAKE_BACK = {"type": "take_back"}


def _card(effect: str) -> str:
    return next(c for c, e in sorted(XC.treasures.items()) if e == effect)


def _refused(s, action, code="not_allowed"):
    with pytest.raises(EngineError) as err:
        apply(s, action, s.turn.seat)
    assert err.value.code == code


def test_the_ancestral_head_taken_back_is_still_in_supply_R56():
    s = game(players=3, expansion=True)
    declared, _ = apply(s, {"type": "use_ancestral"}, 0)
    assert view_for(declared, 1)["turn"]["take_back"] == {"kind": "ancestral"}
    back, events = apply(declared, TAKE_BACK, 0)
    assert state_to_json(back) == state_to_json(s)
    assert describe(events[0]) == "Orange took back the Ancestral Dragon head"
    assert view_for(back, 0)["turn"]["take_back"] is None
    again, _ = apply(back, {"type": "use_ancestral"}, 0)  # still once per game, not spent
    assert again.turn.ancestral


@pytest.mark.parametrize("effect", BEFORE_PLACING)
def test_a_before_placing_treasure_taken_back_returns_to_the_hand_R54(effect):
    s = game(players=3, expansion=True)
    card = _card(effect)
    other = _card("convert")
    s.players[0].treasures = [other, card, _card("reef4")]  # its place in the hand is kept
    used, _ = apply(s, {"type": "use_treasure", "card": card}, 0)
    seen = view_for(used, None)["turn"]["take_back"]
    assert seen == {"kind": "treasure", "card": card, "effect": effect}
    back, events = apply(used, TAKE_BACK, 0)
    assert state_to_json(back) == state_to_json(s)
    assert events == [{"type": "taken_back", "seat": 0, "what": "treasure", "card": card}]
    # At most one treasure per turn: the one taken back does not count.
    assert not back.turn.treasure_used and effect not in back.turn.effects
    again, _ = apply(back, {"type": "use_treasure", "card": card}, 0)
    assert again.turn.treasure_used


def test_both_switches_are_taken_back_newest_first():
    s = game(players=3, expansion=True)
    card = _card("triple_gold")
    s.players[0].treasures = [card]
    one, _ = apply(s, {"type": "use_treasure", "card": card}, 0)
    two, _ = apply(one, {"type": "use_ancestral"}, 0)
    back1, _ = apply(two, TAKE_BACK, 0)
    assert state_to_json(back1) == state_to_json(one)
    back2, _ = apply(back1, TAKE_BACK, 0)
    assert state_to_json(back2) == state_to_json(s)
    _refused(back2, TAKE_BACK)  # nothing more


def test_never_across_another_action():
    s = game(players=3, expansion=True)
    card = _card("extra_body")
    gold = next(c for c, r in sorted(content().reefs.items()) if r.kind == "gold")
    coral = next(c for c, r in sorted(content().reefs.items()) if r.tracks)
    s.players[0].treasures = [card]
    s.players[0].reefs = [gold, coral]
    used, _ = apply(s, {"type": "use_treasure", "card": card}, 0)
    cashed, _ = apply(used, {"type": "cash_gold", "card": gold}, 0)
    _refused(cashed, TAKE_BACK)  # a free action came between
    assert view_for(cashed, 0)["turn"]["take_back"] is None
    played, _ = apply(used, {"type": "play_reef", "card": coral}, 0)
    _refused(played, TAKE_BACK)  # tails moved, perhaps a treasure drawn: revealed
    place = next(a for a in legal_actions(used, 0) if a["type"] == "place")
    placed, _ = apply(used, place, 0)
    while placed.pending:
        placed, _ = apply(placed, legal_actions(placed, 0)[-1], 0)
    _refused(placed, TAKE_BACK)  # after the placement


def test_never_across_another_players_move_nor_for_other_treasures():
    s = game(players=3, expansion=True)
    _refused(s, TAKE_BACK)  # nothing switched on
    place = next(a for a in legal_actions(s, 0) if a["type"] == "place")
    s, _ = apply(s, place, 0)
    while s.pending:
        s, _ = apply(s, legal_actions(s, 0)[-1], 0)
    card = _card("two_missions")
    s.players[0].treasures = [card]
    s2, _ = apply(s, {"type": "use_treasure", "card": card}, 0)
    _refused(s2, TAKE_BACK)  # a mission-step treasure is not a placement switch
    draw = next(a for a in legal_actions(s2, 0) if a["type"] == "draw")
    s3, _ = apply(s2, draw, 0)
    assert s3.turn.seat == 1 and s3.turn.undo == []
    _refused(s3, TAKE_BACK)


def test_base_games_have_nothing_to_take_back():
    s = game(players=2)
    _refused(s, TAKE_BACK)


def test_take_back_is_not_a_legal_move_bots_or_playouts_would_pick():
    """An undo, not a move: listing it would let random playouts loop; the view offers it."""
    s = game(players=3, expansion=True)
    declared, _ = apply(s, {"type": "use_ancestral"}, 0)
    assert TAKE_BACK not in legal_actions(declared, 0)
    assert view_for(declared, 0)["turn"]["take_back"] is not None


@pytest.mark.parametrize(("players", "seed"), [(2, 11), (3, 12), (4, 13), (5, 14)])
def test_every_switch_in_random_games_is_undone_exactly(players, seed):
    rng = random.Random(seed)
    s = new_game(GameOptions(players=players, expansion=True), seed)
    undone = 0
    while not s.over:
        seat = to_act(s)
        legal = legal_actions(s, seat)
        switches = [a for a in legal if a["type"] in ("use_ancestral", "use_treasure")]
        # Random play rarely picks a switch among hundreds of placements: favour them.
        action = rng.choice(switches if switches and rng.random() < 0.3 else legal)
        after, _ = apply(s, action, seat)
        if after.turn.undo:
            back, _ = apply(after, TAKE_BACK, seat)
            assert state_to_json(back) == state_to_json(s)
            undone += 1
        s = after
    assert undone  # each of these games switches something on at least once

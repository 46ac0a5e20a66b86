"""R-56: where the Ancestral head goes is the player's choice of realm."""

from __future__ import annotations

from app.engine import apply, legal_actions
from app.engine.board import REALM_MASKS, bit, mask_of, realm_of
from app.engine.scoring import realm_presence
from tests.engine.helpers import card_of_shape, game, place_action, put

ACROSS = [(4, 3), (5, 3), (6, 3), (7, 3), (8, 3)]  # Starfish, a Sea Current, then Turtle


def _position(declare: bool = True):
    """Seat 0 to place an I5 that may cross from Starfish to Turtle, next to seat 1's Dragon."""
    s = game(players=2, first=0, expansion=True)
    put(s, 1, [(4, 2)])
    card = card_of_shape("I5")
    s.players[0].hand = [card, "M05"]
    s.players[0].gold = 30
    if declare:
        s, _ = apply(s, {"type": "use_ancestral"}, 0)
    return s, card


def _heads(s, card, cells):
    key = sorted(list(c) for c in cells)
    return [
        a["head"]
        for a in legal_actions(s, 0)
        if a["type"] == "place" and a["card"] == card and sorted(a["cells"]) == key
    ]


def test_one_placement_per_realm_of_the_ancestral_head_R56():
    s, card = _position()
    assert _heads(s, card, ACROSS) == [[4, 3], [8, 3]]  # never the current square (7, 3)
    for head, realm, other in (((4, 3), "starfish", "turtle"), ((8, 3), "turtle", "starfish")):
        action = {**place_action(card, mask_of(ACROSS)), "head": list(head)}
        after, events = apply(s, action, 0)
        assert next(e for e in events if e["type"] == "placed")["ancestral"]
        assert realm_presence(after, realm)[0][0] == 2  # counts twice where the head is
        assert realm_presence(after, other)[0][0] == 1


def test_every_listed_ancestral_placement_puts_the_head_in_a_distinct_realm_R56():
    s, _ = _position()
    seen: dict[tuple, list] = {}
    for a in legal_actions(s, 0):
        if a["type"] == "place":
            key = (a["card"], tuple(map(tuple, a["cells"])))
            seen.setdefault(key, []).append(tuple(a["head"]))
    spanning = 0
    for (_, cells), heads in seen.items():
        realms = {realm_of(*sq) for sq in cells} - {None}
        head_realms = [realm_of(*h) for h in heads]
        assert all(h in cells for h in heads)
        assert len(set(head_realms)) == len(heads)  # one per realm
        assert set(head_realms) == (realms or {None})  # every realm covered, currents only alone
        spanning += len(realms) > 1
    assert spanning > 0


def test_a_plain_head_gets_one_placement_per_set_of_squares_R56():
    s, card = _position(declare=False)
    assert _heads(s, card, ACROSS) == [[4, 3]]


def test_the_last_head_is_the_ancestral_one_and_gets_the_choice_too_R56():
    s, card = _position(declare=False)
    s.players[0].heads = 1
    assert _heads(s, card, ACROSS) == [[4, 3], [8, 3]]
    after, _ = apply(s, {**place_action(card, mask_of(ACROSS)), "head": [8, 3]}, 0)
    assert after.dragons[-1].ancestral and after.dragons[-1].head == (8, 3)


def test_a_head_on_the_current_stays_legal_and_counts_nowhere_twice_R56():
    s, card = _position()
    after, _ = apply(s, {**place_action(card, mask_of(ACROSS)), "head": [7, 3]}, 0)
    assert after.dragons[-1].ancestral
    assert not bit(7, 3) & (REALM_MASKS["starfish"] | REALM_MASKS["turtle"])
    assert realm_presence(after, "starfish")[0][0] == realm_presence(after, "turtle")[0][0] == 1


def test_a_dragon_all_on_a_current_keeps_its_first_square_as_head_R56():
    s = game(players=2, first=0, expansion=True)
    card = card_of_shape("I3")
    s.players[0].hand = [card, "M05"]
    s.players[0].gold = 30
    s, _ = apply(s, {"type": "use_ancestral"}, 0)
    assert _heads(s, card, [(7, 3), (7, 4), (7, 5)]) == [[7, 3]]

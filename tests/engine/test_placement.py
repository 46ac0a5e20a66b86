"""Placing a Dragon: R-21 (legality), R-22 (cost), R-23 (rewards), R-24 (neighbour Gold)."""

from __future__ import annotations

from app.engine import apply, legal_actions
from app.engine.board import ISLAND_ADJACENT, mask_of, neighbours, squares_of
from tests.engine.helpers import (
    card_of_shape,
    find_placement,
    game,
    place_action,
    put,
    refused,
    ring,
)


def test_rulebook_smaug_example():
    """Rulebook example (R-22/R-23/R-24): Purple covers a whirlpool, a Gold symbol and two ships
    next to a Pink and a Green Dragon: takes red and green ships, +1 Gold, pays 2; Pink and
    Green get 1 Gold each."""
    s = game(players=4, first=2)  # seats: 0 orange, 1 green (Haku), 2 purple (Smaug), 3 pink
    mask = find_placement(s, "P5", lambda sym, m: sym == {"W": 1, "S": 2, "G": 1, "R": 0, "~": 0})
    around = ring(mask)
    pink_sq = around[0]
    green_sq = next(
        sq for sq in around if sq != pink_sq and not mask_of([sq]) & neighbours(mask_of([pink_sq]))
    )
    put(s, 3, [pink_sq])
    put(s, 1, [green_sq])
    ship_squares = [sq for sq in squares_of(mask & s.board.ship_spaces)]
    s.ships_on_board[ship_squares[0]] = "red"
    s.ships_on_board[ship_squares[1]] = "green"
    card = card_of_shape("P5")
    s.players[2].hand = [card, "M05"]
    gold = {p.seat: p.gold for p in s.players}

    new, events = apply(s, place_action(card, mask), 2)

    smaug = new.players[2]
    assert smaug.ships["red"] == 1 and smaug.ships["green"] == 1
    assert smaug.gold == gold[2] + 1 - 2
    assert new.players[3].gold == gold[3] + 1  # Mushu (Pink)
    assert new.players[1].gold == gold[1] + 1  # Haku (Green)
    assert new.players[0].gold == gold[0]
    assert smaug.heads == s.players[2].heads - 1
    assert card in smaug.played and card not in smaug.hand
    placed = events[0]
    assert placed["type"] == "placed" and placed["cost"] == 2 and placed["gold_gained"] == 1
    assert sorted(placed["ships"]) == ["green", "red"]
    assert new.turn.phase == "mission"


def test_neighbour_gold_counts_each_dragon_once_R24():
    """A Dragon touching the new one in several places pays its owner once; two Dragons twice."""
    s = game(players=3, first=0)
    mask = mask_of([(2, 2), (2, 3), (2, 4)])
    put(s, 1, [(1, 2), (1, 3), (1, 4)])  # Dragon A runs alongside all three squares
    put(s, 1, [(2, 5)])  # Dragon B touches the end
    s.players[0].gold = 20
    card = card_of_shape("I3")
    s.players[0].hand = [card, "M05"]
    before = s.players[1].gold
    new, events = apply(s, place_action(card, mask), 0)
    assert new.players[1].gold == before + 2
    assert events[0]["neighbour_gold"] == {"1": 2}


def test_never_touch_own_dragon_R21():
    s = game(players=2, first=0)
    card = card_of_shape("I3")
    s.players[0].hand = [card, "M05"]
    put(s, 0, [(6, 6)])
    put(s, 1, [(8, 8)])
    for a in legal_actions(s, 0):
        if a["type"] == "place":
            m = mask_of(tuple(x) for x in a["cells"])
            assert not m & neighbours(s.players[0].pieces)
    # Touches the island at (5, 7) but also the own Dragon at (6, 6) through (5, 6).
    refused(s, place_action(card, mask_of([(5, 5), (5, 6), (5, 7)])), 0, "illegal_placement")
    s.players[0].gold = 10
    new, _ = apply(s, place_action(card, mask_of([(4, 8), (5, 8), (6, 8)])), 0)
    assert len(new.dragons) == 3


def test_must_touch_island_or_another_players_dragon_R21():
    s = game(players=2, first=0)
    card = card_of_shape("I3")
    s.players[0].hand = [card, "M05"]
    far = mask_of([(0, 0), (0, 1), (0, 2)])
    refused(s, place_action(card, far), 0, "illegal_placement")
    put(s, 1, [(1, 1)])
    new, _ = apply(s, place_action(card, far), 0)  # now it touches seat 1's Dragon
    assert new.players[0].pieces == far


def test_first_placements_touch_the_island_R21():
    s = game(players=2, first=0)
    for a in legal_actions(s, 0):
        if a["type"] == "place":
            m = mask_of(tuple(x) for x in a["cells"])
            assert m & ISLAND_ADJACENT


def test_island_and_occupied_squares_refused_R02():
    s = game(players=2, first=0)
    card = card_of_shape("I3")
    s.players[0].hand = [card, "M05"]
    on_island = {"type": "place", "card": card, "cells": [[7, 5], [7, 6], [7, 7]], "head": [7, 5]}
    refused(s, on_island, 0, "illegal_placement")
    put(s, 1, [(5, 6)])
    overlap = place_action(card, mask_of([(5, 5), (5, 6), (5, 7)]))
    refused(s, overlap, 0, "illegal_placement")


def test_shape_may_rotate_and_mirror_but_must_match_R21():
    s = game(players=2, first=0)
    card = card_of_shape("L4")
    s.players[0].hand = [card, "M05"]
    # An L mirrored and turned, touching the island at (6, 6).
    mirrored = mask_of([(4, 6), (5, 6), (6, 6), (6, 5)])
    new, _ = apply(s, place_action(card, mirrored), 0)
    assert new.players[0].pieces == mirrored
    square = mask_of([(5, 5), (5, 6), (6, 5), (6, 6)])
    refused(s, place_action(card, square), 0, "illegal_placement")


def test_head_may_be_any_square_of_the_dragon():
    s = game(players=2, first=0)
    card = card_of_shape("I3")
    s.players[0].hand = [card, "M05"]
    action = place_action(card, mask_of([(4, 6), (5, 6), (6, 6)]))
    action["head"] = [5, 6]
    new, _ = apply(s, action, 0)
    assert new.dragons[-1].head == (5, 6)
    action["head"] = [3, 6]
    refused(s, action, 0, "illegal_placement")


def _whirlpool_and_gold(s):
    return find_placement(
        s,
        "I3",
        lambda sym, m: (
            sym["W"] == 1 and sym["G"] == 1 and sym["S"] == 0 and sym["R"] == 0 and sym["~"] == 0
        ),
    )


def test_gold_from_this_placement_pays_its_own_cost_R22():
    s = game(players=2, first=0)
    mask = _whirlpool_and_gold(s)
    put(s, 1, [ring(mask)[0]])
    card = card_of_shape("I3")
    s.players[0].hand = [card, "M05"]
    s.players[0].gold = 1  # 1 held + 1 from the Gold symbol pays the 2 for the whirlpool
    new, _events = apply(s, place_action(card, mask), 0)
    assert new.players[0].gold == 0
    s.players[0].gold = 0
    err = refused(s, place_action(card, mask), 0, "cannot_afford")
    assert "costs 2 Gold" in err.message
    assert not any(
        a["type"] == "place" and mask_of(tuple(x) for x in a["cells"]) == mask
        for a in legal_actions(s, 0)
    )


def test_gold_cards_count_and_are_cashed_when_needed_R22():
    s = game(players=2, first=0)
    mask = _whirlpool_and_gold(s)
    put(s, 1, [ring(mask)[0]])
    card = card_of_shape("I3")
    s.players[0].hand = [card, "M05"]
    s.players[0].gold = 0
    s.players[0].reefs = ["RF21"]  # a Gold card: worth 4
    new, events = apply(s, place_action(card, mask), 0)
    assert new.players[0].reefs == []
    assert new.players[0].gold == 0 + 1 + 4 - 2
    assert events[0]["cashed"] == ["RF21"]


def test_sea_current_costs_two_R03():
    s = game(players=2, first=0)
    card = card_of_shape("I3")
    s.players[0].hand = [card, "M05"]
    on_current = mask_of([(7, 3), (7, 4), (7, 5)])  # row 7 west of the island
    s.players[0].gold = gold = 6
    new, events = apply(s, place_action(card, on_current), 0)
    assert events[0]["cost"] == 6
    assert new.players[0].gold == gold - 6 + 0


def test_fast_affordability_filter_agrees_with_the_rule_R22():
    import random

    from app.engine import GameOptions, new_game, to_act
    from app.engine.placement import affordable, affordable_masks
    from app.engine.shapes import placements

    rng = random.Random(4)
    for seed in range(8):
        s = new_game(GameOptions(players=3), seed)
        for _ in range(rng.randint(5, 40)):
            s, _ = apply(s, rng.choice(legal_actions(s, to_act(s))), to_act(s))
            if s.over:
                break
        if s.over:
            continue
        seat = to_act(s)
        for gold in (0, 1, 3, 6, 13):
            s.players[seat].gold = gold
            masks = list(placements("P5"))
            want = [m for m in masks if affordable(s, seat, m)]
            assert affordable_masks(s, seat, masks) == want

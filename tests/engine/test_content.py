"""The game content meets every constraint of the rulings (R-05, R-06, R-10, R-12..R-16, R-55)."""

from __future__ import annotations

from collections import Counter

import pytest

from app.engine.board import CURRENTS, ISLAND, REALM_MASKS, REALMS, build_board
from app.engine.content import content
from app.engine.shapes import orientations

C = content()


def test_eight_layouts_two_sides_of_four_boards_R05():
    assert sorted(C.layouts) == ["1A", "1B", "2A", "2B", "3A", "3B", "4A", "4B"]
    for rows in C.layouts.values():
        assert len(rows) == 7 and all(len(r) == 7 and set(r) <= set(".WSGR") for r in rows)


@pytest.mark.parametrize("layout", sorted(C.layouts))
def test_layout_symbol_counts_R06(layout):
    text = "".join(C.layouts[layout])
    n = Counter(text)
    assert n["S"] == 11
    assert 7 <= n["W"] <= 10
    assert 3 <= n["G"] <= 5
    assert 2 <= n["R"] <= 3
    assert C.layouts[layout][6][6] == "."  # nothing on the inner corner


def test_sides_play_differently_R06():
    for board in "1234":
        a, b = ("".join(C.layouts[board + s]) for s in "AB")
        assert a != b
        assert Counter(b)["W"] > Counter(a)["W"]  # side B is the stormier one


def test_assembled_board_has_44_ship_spaces_and_24_currents_R03_R06():
    board = build_board(("1A", "2B", "3A", "4B"), C.layouts)
    assert board.ship_spaces.bit_count() == 44
    assert CURRENTS.bit_count() == 24 and not CURRENTS & ISLAND
    for realm in REALMS:
        assert (board.ship_spaces & REALM_MASKS[realm]).bit_count() == 11
    # Inner corners (touching the island's neighbours) carry no symbol, whatever the rotation.
    symbols = board.whirlpools | board.ship_spaces | board.gold_spaces | board.reef_spaces
    for sq in [(6, 6), (6, 8), (8, 8), (8, 6)]:
        assert not symbols & (1 << (sq[0] * 15 + sq[1]))


def test_pattern_cards_R12():
    decks = {d: [C.pattern_shape[c] for c in C.deck_cards[d]] for d in "SML"}
    assert Counter(decks["S"]) == {"I3": 13, "L3": 13}
    assert Counter(decks["M"]) == {"I4": 6, "O4": 6, "T4": 8, "S4": 8, "L4": 8}
    twice = {s: 2 for s in ["L5", "N5", "P5", "T5", "U5", "Y5"]}
    once = {s: 1 for s in ["F5", "I5", "V5", "W5", "X5", "Z5"]}
    assert Counter(decks["L"]) == twice | once
    sizes = {"S": 3, "M": 4, "L": 5}
    for d, shapes in decks.items():
        assert all(len(C.shapes[s]) == sizes[d] for s in shapes)
    # The 12 pentominoes are all distinct free shapes.
    canon = {min(orientations(C.shapes[s])) for s in set(decks["L"])}
    assert len(canon) == 12


def test_card_ids_R16():
    assert list(C.deck_cards["S"]) == [f"S{i:02d}" for i in range(1, 27)]
    assert list(C.deck_cards["M"]) == [f"M{i:02d}" for i in range(1, 37)]
    assert list(C.deck_cards["L"]) == [f"L{i:02d}" for i in range(1, 19)]
    assert list(C.missions) == [f"MS{i:02d}" for i in range(1, 34)]
    assert list(C.base_reef_ids) == [f"RF{i:02d}" for i in range(1, 25)]
    assert list(C.coral_reef_ids) == [f"RF{i:02d}" for i in range(25, 32)]


def test_missions_R13():
    ms = list(C.missions.values())
    assert len(ms) == 33
    for m in ms:
        assert 2 <= sum(m.ships.values()) <= 5
        assert set(m.ships) <= {"green", "purple", "red", "blue", "any"}
        assert m.reef in (0, 1) and m.vp > 0
    assert 9 <= sum(m.reef for m in ms) <= 13  # about a third give a Reef draw
    # VP grows with the number of ships, and dark blue is worth more than another colour.
    by_size = {n: [m.vp for m in ms if sum(m.ships.values()) == n] for n in range(2, 6)}
    means = [sum(v) / len(v) for v in by_size.values()]
    assert means == sorted(means)
    assert C.missions["MS04"].vp > C.missions["MS01"].vp  # blue+blue beats green+green


def test_reef_cards_R14_R55():
    base = Counter(C.reefs[r].kind for r in C.base_reef_ids)
    assert base == {"two_ships": 8, "wild_ship": 4, "hidden_dragon": 8, "gold": 4}
    realms = Counter(
        C.reefs[r].realm for r in C.base_reef_ids if C.reefs[r].kind == "hidden_dragon"
    )
    assert realms == {realm: 2 for realm in REALMS}
    assert all(C.reefs[r].gold == 4 for r in C.base_reef_ids if C.reefs[r].kind == "gold")
    coral = [C.reefs[r] for r in C.coral_reef_ids]
    assert Counter(c.kind for c in coral) == {"advance_tails": 4, "advance_tail_gold": 3}
    assert sorted(sorted(c.tracks) for c in coral if c.kind == "advance_tails") == sorted(
        [["green", "purple"], ["purple", "red"], ["green", "red"], ["green", "purple", "red"]]
    )

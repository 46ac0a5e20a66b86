"""Treasures of the Deep (R-50..R-56)."""

from __future__ import annotations

import json

import pytest

from app.engine import apply, final_scores, legal_actions, view_for
from app.engine.board import mask_of
from app.engine.bonus import tail_score
from app.engine.content import expansion_content
from app.engine.expansion import TRACK_LENGTH, advance_tail
from tests.engine.helpers import (
    card_of_shape,
    find_placement,
    game,
    place_action,
    put,
    refused,
    ring,
)

XC = expansion_content()


def xgame(players=2, **kw):
    return game(players=players, expansion=True, **kw)


def _hold(s, seat, effect):
    card = next(c for c, e in XC.treasures.items() if e == effect)
    s.players[seat].treasures = [card]
    return card


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_setup_R50_R52_R53_R56(players):
    s = xgame(players)
    length = TRACK_LENGTH[players]
    assert s.reward["length"] == length == {2: 9, 3: 8, 4: 7, 5: 6}[players]
    assert s.reward["milestone"] == -(-length // 2) + 1
    slots = sum(sp == "A" for t in s.reward["spaces"].values() for sp in t)
    assert sum(len(a) for a in s.reward["arrows"].values()) == min(slots, 9)
    for _track, spaces in s.reward["spaces"].items():
        assert len(spaces) == length and "T" in spaces and "A" in spaces
    assert len(set(s.reward["bonus"].values())) == 3
    assert len(s.decks["treasures"]) == 30 and len(s.decks["reefs"]) == 31
    assert all(p.ancestral and p.tails == {"green": 0, "purple": 0, "red": 0} for p in s.players)


def _ship_placement(s, colours, seat=0):
    """Place an I3 over exactly len(colours) ship spaces holding those colours."""
    k = len(colours)
    mask = find_placement(
        s,
        "I3",
        lambda sym, m: (
            sym["S"] == k and sym["W"] == 0 and sym["~"] == 0 and sym["R"] == 0 and sym["G"] == 0
        ),
    )
    put(s, 1 - seat, [ring(mask)[0]])
    from app.engine.board import squares_of

    for sq, col in zip(squares_of(mask & s.board.ship_spaces), colours, strict=True):
        s.ships_on_board[sq] = col
    card = card_of_shape("I3")
    s.players[seat].hand = [card, "M05"]
    return place_action(card, mask)


def _plain_reward(s):
    """A Reward Board with no rewards, so tail moves are easy to follow."""
    s.reward = {
        **s.reward,
        "spaces": {t: [""] * s.reward["length"] for t in ("green", "purple", "red")},
        "arrows": {"green": {}, "purple": {}, "red": {}},
    }


def test_ships_advance_their_tails_and_blue_asks_R50():
    s = xgame(first=0)
    _plain_reward(s)
    s, _events = apply(s, _ship_placement(s, ["green", "blue"]), 0)
    assert s.players[0].tails["green"] == 1
    assert [a["type"] for a in legal_actions(s, 0)] == ["choose_tail"] * 3
    refused(s, {"type": "draw", "source": "deck", "deck": "L"}, 0, "decision_pending")
    s, _ = apply(s, {"type": "choose_tail", "track": "red"}, 0)
    assert s.players[0].tails == {"green": 1, "purple": 0, "red": 1} and not s.pending


def test_arrows_chain_R52():
    s = xgame(first=0)
    _plain_reward(s)
    s.reward["spaces"]["green"][0] = "A"
    s.reward["spaces"]["red"][0] = "A"
    s.reward["arrows"] = {"green": {"1": "red"}, "purple": {}, "red": {"1": "purple"}}
    events = []
    advance_tail(s, 0, "green", events)
    assert s.players[0].tails == {"green": 1, "purple": 1, "red": 1}
    assert [e["track"] for e in events] == ["green", "red", "purple"]


def test_gold_and_treasure_spaces_R51():
    s = xgame(first=0)
    _plain_reward(s)
    s.reward["spaces"]["green"][:2] = ["g3", "T"]
    events = []
    gold = s.players[0].gold
    advance_tail(s, 0, "green", events)
    assert s.players[0].gold == gold + 3
    advance_tail(s, 0, "green", events)
    assert s.pending == [{"kind": "treasure"}]
    # A second tail reaching the same space gets it too: rewards are not used up.
    s.players[1].tails["green"] = 0
    advance_tail(s, 1, "green", [])
    assert s.players[1].gold == gold + 3


def test_treasure_space_draw_two_keep_one_R51():
    s = xgame(first=0)
    _plain_reward(s)
    s.reward["spaces"]["green"][0] = "T"
    top2 = s.decks["treasures"][:2]
    s, _ = apply(s, _ship_placement(s, ["green"]), 0)
    assert legal_actions(s, 0) == [{"type": "keep_treasure", "card": c} for c in top2]
    s, _ = apply(s, {"type": "keep_treasure", "card": top2[0]}, 0)
    p = s.players[0]
    assert p.treasures == [top2[0]] and p.treasures_acquired == 1
    assert s.decks["treasures"][-1] == top2[1]


def test_tail_never_moves_past_A_R50():
    s = xgame(first=0)
    s.players[0].tails["red"] = s.reward["length"]
    events = []
    advance_tail(s, 0, "red", events)
    assert s.players[0].tails["red"] == s.reward["length"] and events[0]["type"] == "tail_blocked"


def _tile_on(s, track, tile_id):
    s.reward = {**s.reward, "bonus": {**s.reward["bonus"], track: tile_id}}


def test_bonus_full_at_A_half_from_B_rounded_down_R53():
    s = xgame(players=2)
    _tile_on(s, "green", "BT8")  # 3 VP per Reef card acquired with 2-3 players
    s.players[0].reefs_acquired = 3  # 9 VP
    length, milestone = s.reward["length"], s.reward["milestone"]
    for pos, want in [(0, 0), (milestone - 1, 0), (milestone, 4), (length - 1, 4), (length, 9)]:
        s.players[0].tails["green"] = pos
        assert tail_score(s, 0, "green") == want, pos


def test_bonus_caps_at_20_and_uses_the_4_5_player_value_R53():
    s = xgame(players=4)
    _tile_on(s, "purple", "BT8")  # 4 VP per Reef with 4-5 players
    s.players[0].tails["purple"] = s.reward["length"]
    s.players[0].reefs_acquired = 3
    assert tail_score(s, 0, "purple") == 12
    s.players[0].reefs_acquired = 9
    assert tail_score(s, 0, "purple") == 20


@pytest.mark.parametrize(
    ("tile", "setup", "want"),
    [
        ("BT1", lambda s, p: setattr(p, "treasures_acquired", 2), 6),
        ("BT2", lambda s, p: setattr(p, "missions", ["MS04", "MS01"]), 5),  # (6 + 4) // 2
        ("BT3", lambda s, p: put(s, 0, [(3, 6), (3, 7), (3, 8)]), 3),
        ("BT4", lambda s, p: setattr(p, "played", ["S01", "M01", "L01", "M02"]), 5),
        ("BT5", lambda s, p: [put(s, 0, [sq]) for sq in [(1, 1), (1, 13), (13, 13), (13, 1)]], 5),
        ("BT6", lambda s, p: setattr(p, "gold", 9), 4),
        ("BT7", lambda s, p: put(s, 0, [(0, 3), (1, 3)]), 4),
        ("BT8", lambda s, p: setattr(p, "reefs_acquired", 1), 3),
    ],
)
def test_each_bonus_tile_R53(tile, setup, want):
    s = xgame(players=3)
    _tile_on(s, "red", tile)
    p = s.players[0]
    p.tails["red"] = s.reward["length"]
    setup(s, p)
    assert tail_score(s, 0, "red") == want


def test_rulebook_ancestral_example_R56():
    """Pink has 3 Dragons in Conch and 3 in Starfish, one with the Ancestral head: 3 and 4."""
    from app.engine.scoring import realm_presence
    from app.engine.state import Dragon

    s = xgame(players=4)
    for sq in [(1, 9), (3, 9), (5, 9)]:
        put(s, 3, [sq])
    for sq in [(1, 1), (3, 1)]:
        put(s, 3, [sq])
    s.add_dragon(Dragon(3, ((5, 1), (5, 2)), (5, 2), "M01", ancestral=True))
    assert realm_presence(s, "conch")[3][0] == 3
    assert realm_presence(s, "starfish")[3][0] == 4


def test_ancestral_head_once_per_game_R56():
    s = xgame(first=0)
    assert {"type": "use_ancestral"} in legal_actions(s, 0)
    s, _ = apply(s, {"type": "use_ancestral"}, 0)
    assert {"type": "use_ancestral"} not in legal_actions(s, 0)
    card = card_of_shape("I3")
    s.players[0].hand = [card, "M05"]
    s, _ = apply(s, place_action(card, mask_of([(4, 8), (5, 8), (6, 8)])), 0)
    assert s.dragons[-1].ancestral and not s.players[0].ancestral
    s, _ = apply(s, {"type": "draw", "source": "deck", "deck": "M"}, 0)
    s, _ = apply(s, legal_actions(s, 1)[0], 1)
    while s.turn.seat != 0:
        s, _ = apply(s, legal_actions(s, s.turn.seat)[-1], s.turn.seat)
    refused(s, {"type": "use_ancestral"}, 0, "not_allowed")


def test_treasure_no_cost_R54():
    s = xgame(first=0)
    card = _hold(s, 0, "no_cost")
    s, _ = apply(s, {"type": "use_treasure", "card": card}, 0)
    assert s.players[0].used == [card] and "no_cost" in s.turn.effects
    shape = card_of_shape("I3")
    s.players[0].hand = [shape, "M05"]
    s.players[0].gold = 0
    s, events = apply(s, place_action(shape, mask_of([(7, 3), (7, 4), (7, 5)])), 0)
    placed = next(e for e in events if e["type"] == "placed")
    assert placed["cost"] == 0 and s.players[0].gold == 0  # three current squares, no Gold paid


def test_treasure_triple_gold_R54():
    s = xgame(first=0)
    mask = find_placement(
        s,
        "I3",
        lambda sym, m: (
            sym["G"] == 1 and sym["W"] == 0 and sym["S"] == 0 and sym["R"] == 0 and sym["~"] == 0
        ),
    )
    put(s, 1, [ring(mask)[0]])
    card = _hold(s, 0, "triple_gold")
    s, _ = apply(s, {"type": "use_treasure", "card": card}, 0)
    shape = card_of_shape("I3")
    s.players[0].hand = [shape, "M05"]
    gold = s.players[0].gold
    s, _ = apply(s, place_action(shape, mask), 0)
    assert s.players[0].gold == gold + 3


def test_treasure_extra_body_R54():
    s = xgame(first=0)
    card = _hold(s, 0, "extra_body")
    s.players[0].hand = [card_of_shape("I3"), card_of_shape("I3")]
    s.players[0].gold = 30
    plain = {len(a["cells"]) for a in legal_actions(s, 0) if a["type"] == "place"}
    assert plain == {3}
    s, _ = apply(s, {"type": "use_treasure", "card": card}, 0)
    sizes = {len(a["cells"]) for a in legal_actions(s, 0) if a["type"] == "place"}
    assert sizes == {3, 4}
    bent = place_action(s.players[0].hand[0], mask_of([(4, 8), (5, 8), (6, 8), (4, 9)]))
    s2, _ = apply(s, bent, 0)
    assert len(s2.dragons[-1].cells) == 4
    detached = place_action(s.players[0].hand[0], mask_of([(4, 8), (5, 8), (6, 8), (2, 9)]))
    refused(s, detached, 0, "illegal_placement")


def test_treasure_free_shape_R54():
    s = xgame(first=0)
    card = _hold(s, 0, "free_shape")
    s.players[0].hand = [card_of_shape("I3"), "M05"]
    s.players[0].gold = 30
    corner = place_action(s.players[0].hand[0], mask_of([(5, 8), (6, 8), (6, 9)]))  # an L, not an I
    refused(s, corner, 0, "illegal_placement")
    s, _ = apply(s, {"type": "use_treasure", "card": card}, 0)
    s2, _ = apply(s, corner, 0)
    assert len(s2.dragons) == 1
    apart = place_action(s.players[0].hand[0], mask_of([(5, 8), (6, 8), (6, 10)]))
    refused(s, apart, 0, "illegal_placement")


def _mission_step(s):
    shape = card_of_shape("I3")
    s.players[0].hand = [shape, "M05"]
    s.players[0].gold = 30
    s, _ = apply(s, place_action(shape, mask_of([(4, 8), (5, 8), (6, 8)])), 0)
    return s


def test_treasure_convert_ship_R54():
    s = xgame(first=0)
    card = _hold(s, 0, "convert")
    s.players[0].ships = {"green": 1, "purple": 0, "red": 1, "blue": 0}
    s.market["missions"][0] = "MS04"  # blue + blue
    s = _mission_step(s)
    action = {"type": "use_treasure", "card": card, "convert": ["green", "blue"]}
    assert action in legal_actions(s, 0)
    s, _ = apply(s, action, 0)
    assert s.players[0].ships == {"green": 0, "purple": 0, "red": 1, "blue": 1}


def test_treasure_two_missions_R54():
    s = xgame(first=0)
    card = _hold(s, 0, "two_missions")
    s.players[0].ships = {"green": 2, "purple": 2, "red": 0, "blue": 0}
    s.market["missions"][:2] = ["MS01", "MS02"]
    s = _mission_step(s)
    s, _ = apply(s, {"type": "use_treasure", "card": card}, 0)
    s, _ = apply(s, {"type": "mission", "mission": "MS01", "tokens": {"green": 2}, "cards": []}, 0)
    while s.pending:
        s, _ = apply(s, legal_actions(s, 0)[-1], 0)
    assert s.turn.phase == "mission"
    s, _ = apply(s, {"type": "mission", "mission": "MS02", "tokens": {"purple": 2}, "cards": []}, 0)
    assert s.players[0].missions == ["MS01", "MS02"]


def test_two_missions_is_played_before_the_first_mission_R57():
    s = xgame(first=0)
    card = _hold(s, 0, "two_missions")
    s.players[0].ships = {"green": 2, "purple": 2, "red": 0, "blue": 0}
    s.market["missions"][:2] = ["MS01", "MS02"]
    err = refused(s, {"type": "use_treasure", "card": card}, 0, "wrong_phase")  # before placing
    assert "before the first Mission of the turn (R-57)" in err.message
    s = _mission_step(s)
    assert {"type": "use_treasure", "card": card} in legal_actions(s, 0)
    s, _ = apply(s, {"type": "mission", "mission": "MS01", "tokens": {"green": 2}, "cards": []}, 0)
    while s.pending:
        s, _ = apply(s, legal_actions(s, 0)[-1], 0)
    assert {"type": "use_treasure", "card": card} not in legal_actions(s, 0)
    err = refused(s, {"type": "use_treasure", "card": card}, 0, "wrong_phase")
    assert "before the first Mission of the turn (R-57)" in err.message


def test_treasure_contact_gold_R54():
    s = xgame(players=3, first=0)
    put(s, 1, [(3, 8)])
    put(s, 2, [(5, 9)])
    card = _hold(s, 0, "contact_gold")
    s, _ = apply(s, {"type": "use_treasure", "card": card}, 0)
    shape = card_of_shape("I3")
    s.players[0].hand = [shape, "M05"]
    s.players[0].gold = 10
    before = s.players[0].gold
    s, events = apply(s, place_action(shape, mask_of([(4, 8), (5, 8), (6, 8)])), 0)
    placed = next(e for e in events if e["type"] == "placed")
    symbols = (mask_of([(4, 8), (5, 8), (6, 8)]) & s.board.gold_spaces).bit_count()
    assert placed["gold_gained"] == symbols + 4  # 2 Gold for each of the two Dragons in contact
    assert s.players[0].gold == before - placed["cost"] + symbols + 4
    assert placed["neighbour_gold"] == {"1": 1, "2": 1}  # the owners still get their 1


def test_treasure_same_deck_draw_R54():
    s = xgame(first=0)
    card = _hold(s, 0, "same_deck")
    s = _mission_step(s)
    refused(s, {"type": "draw", "source": "deck", "deck": "S"}, 0, "wrong_deck")
    s, _ = apply(s, {"type": "use_treasure", "card": card}, 0)
    s, _ = apply(s, {"type": "draw", "source": "deck", "deck": "S"}, 0)
    assert s.turn.seat == 1


def test_treasure_any_tail_R54():
    s = xgame(first=0)
    _plain_reward(s)
    card = _hold(s, 0, "any_tail")
    s, _ = apply(s, _ship_placement(s, ["green", "green"]), 0)
    assert s.players[0].tails["green"] == 0 and s.pending[0]["kind"] == "advance"
    assert legal_actions(s, 0) == [{"type": "use_treasure", "card": card}, {"type": "decline"}]
    s, _ = apply(s, {"type": "use_treasure", "card": card}, 0)
    s, _ = apply(s, {"type": "choose_tail", "track": "red"}, 0)
    s, _ = apply(s, {"type": "choose_tail", "track": "purple"}, 0)
    assert s.players[0].tails == {"green": 0, "purple": 1, "red": 1}


def test_treasure_reef_draw_four_R54():
    s = xgame(first=0)
    card = _hold(s, 0, "reef4")
    mask = find_placement(
        s, "I3", lambda sym, m: sym["R"] == 1 and sym["W"] == 0 and sym["~"] == 0 and sym["S"] == 0
    )
    put(s, 1, [ring(mask)[0]])
    shape = card_of_shape("I3")
    s.players[0].hand = [shape, "M05"]
    top4 = s.decks["reefs"][:4]
    s, _ = apply(s, place_action(shape, mask), 0)
    assert legal_actions(s, 0) == [{"type": "use_treasure", "card": card}, {"type": "decline"}]
    s, _ = apply(s, {"type": "use_treasure", "card": card}, 0)
    assert s.pending[0]["cards"] == top4
    s, _ = apply(s, {"type": "keep_reef", "card": top4[2]}, 0)
    assert s.players[0].reefs == [top4[2]] and s.decks["reefs"][-3:] == [top4[0], top4[1], top4[3]]


def test_only_one_treasure_per_turn_R54():
    s = xgame(first=0)
    a = next(c for c, e in XC.treasures.items() if e == "no_cost")
    b = next(c for c, e in XC.treasures.items() if e == "triple_gold")
    s.players[0].treasures = [a, b]
    s, _ = apply(s, {"type": "use_treasure", "card": a}, 0)
    assert not [x for x in legal_actions(s, 0) if x["type"] == "use_treasure"]
    refused(s, {"type": "use_treasure", "card": b}, 0, "not_allowed")


def test_treasure_at_the_wrong_moment_is_refused_R54():
    s = xgame(first=0)
    card = _hold(s, 0, "two_missions")
    refused(s, {"type": "use_treasure", "card": card}, 0, "wrong_phase")


def test_coral_reef_cards_R55():
    s = xgame(first=0)
    _plain_reward(s)
    s.players[0].reefs = ["RF28", "RF29"]  # all three tails; green + 2 Gold
    gold = s.players[0].gold
    s, _ = apply(s, {"type": "play_reef", "card": "RF28"}, 0)
    s, _ = apply(s, {"type": "play_reef", "card": "RF29"}, 0)
    p = s.players[0]
    assert p.tails == {"green": 2, "purple": 1, "red": 1} and p.gold == gold + 2
    assert p.used == ["RF28", "RF29"] and p.reefs == []


def test_hidden_treasures_are_secret_R60():
    s = xgame(first=0)
    s.players[1].treasures = ["HT05"]
    assert '"HT05"' not in json.dumps(view_for(s, 0))
    assert '"HT05"' not in json.dumps(view_for(s, None))
    assert view_for(s, 1)["players"][1]["treasures"] == ["HT05"]
    assert view_for(s, 0)["players"][1]["treasure_count"] == 1


def test_tails_are_a_category_and_break_ties_R44():
    s = xgame(players=2)
    _tile_on(s, "green", "BT6")  # half the Gold VP
    s.players[0].gold, s.players[1].gold = 10, 15
    s.players[0].tails["green"] = s.reward["length"]  # 5 VP from the tail
    result = final_scores(s)
    assert [p["categories"]["tails"] for p in result["players"]] == [5, 0]
    assert [p["total"] for p in result["players"]] == [15, 15]
    assert result["winners"] == [0]


def test_views_do_not_alias_the_state_and_show_ships_to_place_on_tails():
    s = xgame(first=0)
    view = view_for(s, None)
    view["reward"]["length"] = 0
    view["reward"]["spaces"]["green"][0] = "g3"
    assert s.reward["length"] == TRACK_LENGTH[2] and s.reward["spaces"]["green"][0] != "g3"
    _hold(s, 0, "any_tail")
    s, _ = apply(s, _ship_placement(s, ["green", "red"]), 0)
    assert view_for(s, 1)["pending"][0] == {"kind": "advance", "seat": 0, "ships": ["green", "red"]}

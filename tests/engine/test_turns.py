"""Turn flow: draw (R-27), pass (R-28), pending choices (R-25), free actions (R-29), end (R-30),
empty decks (R-31)."""

from __future__ import annotations

import pytest

from app.engine import EngineError, apply, legal_actions, to_act
from app.engine.board import mask_of
from app.engine.content import content
from tests.engine.helpers import card_of_shape, game, place_action, put, refused


def _placed(s, seat=0, shape="I3"):
    """Play a Small card touching the island and return the state in the mission step."""
    card = card_of_shape(shape)
    s.players[seat].hand = [card, s.players[seat].hand[0]]
    s.players[seat].gold = 20
    s, _ = apply(s, place_action(card, mask_of([(4, 8), (5, 8), (6, 8)])), seat)
    return s


def test_out_of_turn_isrefused():
    s = game(players=3, first=1)
    action = legal_actions(s, 1)[0]
    refused(s, action, 0, "not_your_turn")
    assert legal_actions(s, 0) == [] and legal_actions(s, None) == []


def test_malformed_actions_are_bad_action():
    s = game(players=2, first=0)
    for bad in [
        None,
        {},
        {"type": "teleport"},
        {"type": "place", "card": "S01"},
        {"type": "place", "card": "S01", "cells": [[0, 0], [0, 99]]},
        {"type": "draw", "source": "attic"},
        {"type": "mission", "mission": 5},
    ]:
        refused(s, bad, 0, "bad_action")


def test_draw_must_come_from_another_deck_R27():
    s = _placed(game(players=2, first=0))
    assert s.turn.played_deck == "S"
    draws = [a for a in legal_actions(s, 0) if a["type"] == "draw"]
    assert draws and all(
        a.get("deck") != "S" and content().pattern_deck.get(a.get("card"), "") != "S" for a in draws
    )
    refused(s, {"type": "draw", "source": "deck", "deck": "S"}, 0, "wrong_deck")
    face_up_small = s.market["S"][0]
    refused(s, {"type": "draw", "source": "market", "card": face_up_small}, 0, "wrong_deck")
    taken = s.market["L"][0]
    top_l = s.decks["L"][0]
    new, _events = apply(s, {"type": "draw", "source": "market", "card": taken}, 0)
    assert taken in new.players[0].hand and len(new.players[0].hand) == 2
    assert new.market["L"] == [s.market["L"][1], top_l]  # the market is refilled from its deck
    assert to_act(new) == 1 and new.turn.phase == "place"


def test_drawing_skips_the_optional_mission_and_ends_the_turn():
    s = _placed(game(players=2, first=0))
    new, events = apply(s, {"type": "draw", "source": "deck", "deck": "M"}, 0)
    assert [e["type"] for e in events][-2:] == ["turn_ended", "turn_started"]
    assert new.turn.seat == 1


def test_pass_returns_a_head_discards_draws_and_takes_two_gold_R28():
    s = game(players=2, first=0)
    p = s.players[0]
    discard = p.hand[0]
    draw = s.market["S"][0]
    new, _ = apply(
        s, {"type": "pass", "discard": discard, "draw": {"source": "market", "card": draw}}, 0
    )
    q = new.players[0]
    assert q.heads == p.heads - 1 and q.gold == p.gold + 2
    assert discard in q.discarded and discard not in q.hand and draw in q.hand
    assert q.played == []  # a discard is not a played card
    assert new.turn.seat == 1
    # A pass may draw from any deck, the discarded card's deck included.
    assert any(
        a["draw"] == {"source": "deck", "deck": "M"}
        for a in legal_actions(s, 0)
        if a["type"] == "pass"
    )


def test_pass_with_an_empty_hand_R28():
    s = game(players=2, first=0)
    s.players[0].hand = []
    passes = [a for a in legal_actions(s, 0) if a["type"] == "pass"]
    assert passes and all(a["discard"] is None for a in passes)
    assert not [a for a in legal_actions(s, 0) if a["type"] == "place"]
    new, _ = apply(s, passes[0], 0)
    assert len(new.players[0].hand) == 1


def test_no_second_placement_in_a_turn():
    s = _placed(game(players=2, first=0))
    refused(s, legal_actions(game(players=2, first=0), 0)[0], 0, "wrong_phase")


def test_players_without_heads_are_skipped_and_the_game_ends_R30():
    s = game(players=3, first=0)
    s.players[1].heads = 0
    new, _ = apply(s, next(a for a in legal_actions(s, 0) if a["type"] == "pass"), 0)
    assert new.turn.seat == 2
    s = game(players=2, first=0)
    s.players[0].heads = 1
    s.players[1].heads = 0
    new, events = apply(s, next(a for a in legal_actions(s, 0) if a["type"] == "pass"), 0)
    assert new.over and events[-1]["type"] == "game_over"
    assert legal_actions(new, 0) == [] and to_act(new) is None
    refused(new, {"type": "end_turn"}, 0, "game_over")


def test_last_head_still_finishes_the_turn():
    s = game(players=2, first=0)
    s.players[0].heads = 1
    s.players[1].heads = 0
    s = _placed(s)
    assert not s.over and s.turn.phase == "mission"
    s, _ = apply(s, {"type": "draw", "source": "deck", "deck": "M"}, 0)
    assert s.over


def _reef_placement(s, seat=0):
    """Place over one Reef symbol; returns the new state."""
    from tests.engine.helpers import find_placement, ring

    mask = find_placement(s, "I3", lambda sym, m: sym["R"] == 1 and sym["W"] == 0 and sym["~"] == 0)
    put(s, 1 - seat, [ring(mask)[0]])
    card = card_of_shape("I3")
    s.players[seat].hand = [card, "M05"]
    new, _ = apply(s, place_action(card, mask), seat)
    return new


def test_reef_symbol_draws_two_keeps_one_other_to_bottom_R23_R25():
    s = game(players=2, first=0)
    top2 = s.decks["reefs"][:2]
    s = _reef_placement(s)
    assert s.pending[0]["cards"] == top2
    assert [a["type"] for a in legal_actions(s, 0)] == ["keep_reef", "keep_reef"]
    # Nothing else is accepted until the choice is made.
    refused(s, {"type": "draw", "source": "deck", "deck": "M"}, 0, "decision_pending")
    refused(s, {"type": "keep_reef", "card": "RF99"}, 0, "no_such_card")
    new, _ = apply(s, {"type": "keep_reef", "card": top2[1]}, 0)
    assert new.players[0].reefs == [top2[1]]
    assert new.decks["reefs"][-1] == top2[0] and not new.pending


def test_reef_deck_with_one_card_gives_it_without_a_choice_R31():
    s = game(players=2, first=0)
    s.decks["reefs"] = ["RF09"]
    s = _reef_placement(s)
    assert not s.pending and s.players[0].reefs == ["RF09"]
    s2 = game(players=2, first=0)
    s2.decks["reefs"] = []
    s2 = _reef_placement(s2)
    assert not s2.pending and s2.players[0].reefs == []


def test_cash_gold_card_is_a_free_action_R29():
    s = game(players=2, first=0)
    s.players[0].reefs = ["RF22"]
    assert {"type": "cash_gold", "card": "RF22"} in legal_actions(s, 0)
    new, _ = apply(s, {"type": "cash_gold", "card": "RF22"}, 0)
    assert new.players[0].gold == s.players[0].gold + 4 and new.turn.phase == "place"
    refused(s, {"type": "cash_gold", "card": "RF01"}, 0, "no_such_card")


def test_empty_pattern_decks_mean_no_draw_R27():
    s = _placed(game(players=2, first=0))
    for deck in ("M", "L"):
        s.decks[deck] = []
        s.market[deck] = []
    assert legal_actions(s, 0)[-1] == {"type": "end_turn"} or {"type": "end_turn"} in legal_actions(
        s, 0
    )
    new, _ = apply(s, {"type": "end_turn"}, 0)
    assert new.turn.seat == 1 and len(new.players[0].hand) == 1


def test_canonical_action_drops_unknown_fields_and_replays_the_same():
    from app.engine import canonical_action

    s = game(players=2, first=0)
    for action in [*legal_actions(s, 0)[:5], legal_actions(s, 0)[-1]]:
        noisy = {**action, "junk": "x" * 100}
        clean = canonical_action(noisy)
        assert "junk" not in clean
        assert apply(s, clean, 0)[0].players == apply(s, noisy, 0)[0].players
    with pytest.raises(EngineError):
        canonical_action({"type": "nope"})

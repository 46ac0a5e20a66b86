"""What the log, the final scores and the view say, so a client never works a rule out itself.

Reward Board Gold in the log (R-50, R-51), Reef draw wording, the tails' and realms' detail in
the final scores (R-53, R-42), and the view's own answers to "which deck may I draw from",
"which Mission can I complete", "which tail can move" (R-27, R-26, R-50), each pinned to the
engine's legal actions over random games.
"""

from __future__ import annotations

import random

import pytest

from app.engine import (
    GameOptions,
    apply,
    describe,
    final_scores,
    legal_actions,
    new_game,
    to_act,
    view_for,
)
from app.engine.board import REALMS
from app.engine.bonus import tail_score
from app.engine.content import content, expansion_content
from app.engine.scoring import realm_presence
from tests.engine.helpers import game

XC = expansion_content()


def _tail_position(space_kind: str):
    """A 3-player expansion game where seat 0's next step on some track lands on `space_kind`
    (a Gold space "g..", or "T"), with a Coral Reef advancing that one track in hand."""
    s = game(players=3, expansion=True)
    one_track = {c.tracks[0]: cid for cid, c in content().reefs.items() if len(c.tracks) == 1}
    for track, spaces in s.reward["spaces"].items():
        for i, sp in enumerate(spaces):
            if sp.startswith(space_kind) and track in one_track:
                s.players[0].tails[track] = i  # the next step lands on space i + 1
                s.players[0].reefs = [one_track[track]]
                return s, track, i + 1, sp
    raise AssertionError("no such space")


def test_tail_on_a_gold_space_logs_the_gold_R51():
    s, track, to, space = _tail_position("g")
    card = s.players[0].reefs[0]
    before = s.players[0].gold
    s2, events = apply(s, {"type": "play_reef", "card": card}, 0)
    tail = next(e for e in events if e["type"] == "tail_advanced")
    reef_gold = content().reefs[card].gold
    assert tail["track"] == track and tail["to"] == to
    assert tail["gold"] == int(space[1:]) and tail["treasure"] is False
    assert s2.players[0].gold == before + reef_gold + tail["gold"]
    assert describe(tail) == (f"Orange's {track} tail advanced to space {to}, +{tail['gold']} Gold")


def test_tail_on_a_treasure_space_logs_the_treasure_R51():
    s, _, _, _ = _tail_position("T")
    _, events = apply(s, {"type": "play_reef", "card": s.players[0].reefs[0]}, 0)
    tail = next(e for e in events if e["type"] == "tail_advanced")
    assert tail["treasure"] is True and tail["gold"] == 0
    assert describe(tail).endswith(", a Hidden Treasure draw")


def test_old_tail_events_without_the_fields_still_read():
    e = {"type": "tail_advanced", "seat": 1, "track": "red", "to": 3}
    assert describe(e) == "Green's red tail advanced to space 3"


@pytest.mark.parametrize(("n", "words"), [(1, "earned 1 Reef draw,"), (2, "earned 2 Reef draws,")])
def test_reef_draw_wording(n, words):
    e = {
        "type": "placed",
        "seat": 0,
        "card": "M01",
        "cells": [[0, 0]] * 4,
        "ships": [],
        "gold_gained": 0,
        "reef_draws": n,
        "cost": 2,
    }
    assert words in describe(e) and "(s)" not in describe(e)


def _random_game(options: GameOptions, seed: int, step=None):
    rng = random.Random(seed)
    s = new_game(options, seed)
    while not s.over:
        seat = to_act(s)
        actions = legal_actions(s, seat)
        if step:
            step(s, seat, actions)
        s, _ = apply(s, rng.choice(actions), seat)
    return s


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 4), (4, 9), (5, 2)])
def test_final_tails_and_realm_detail_R53_R42(players, seed):
    s = _random_game(GameOptions(players=players, expansion=True), seed)
    scores = final_scores(s)
    reefs = content().reefs
    for p in scores["players"]:
        seat = p["seat"]
        detail = p["tails_detail"]
        assert [d["track"] for d in detail] == ["green", "purple", "red"]
        assert sum(d["vp"] for d in detail) == p["categories"]["tails"]
        for d in detail:
            assert d["bonus"] == s.reward["bonus"][d["track"]] and d["bonus"] in XC.bonus_tiles
            assert d["vp"] == tail_score(s, seat, d["track"])
            assert d["vp"] == (d["tile"] if d["full"] else d["tile"] // 2 if d["half"] else 0)
            assert not (d["full"] and d["half"]) and 0 <= d["tile"] <= 20
        for realm in REALMS:
            cell = p["realm_detail"][realm]
            hidden = sum(
                1
                for c in s.players[seat].reefs
                if reefs[c].kind == "hidden_dragon" and reefs[c].realm == realm
            )
            assert cell["hidden"] == hidden and cell["hidden_included"] is True
            assert cell["count"] == realm_presence(s, realm).get(seat, (0, 0))[0]
            assert cell["count"] >= hidden


def test_base_game_scores_have_no_tails_detail():
    s = _random_game(GameOptions(players=3), 5)
    assert all("tails_detail" not in p and "realm_detail" in p for p in final_scores(s)["players"])


def _check_view_answers(s, seat, actions):
    """The view's answers equal what the legal actions allow (the engine's own rules)."""
    view = view_for(s, seat)
    draws = [a for a in actions if a["type"] == "draw"]
    for a in draws:
        deck = a.get("deck") or content().pattern_deck[a["card"]]
        assert deck in view["turn"]["draw_decks"]
    if s.turn.phase in ("mission", "draw") and not s.pending:
        missing = set("SML") - set(view["turn"]["draw_decks"])
        assert missing == ({s.turn.played_deck} if "same_deck" not in s.turn.effects else set())
    missions = {a["mission"] for a in actions if a["type"] == "mission"}
    assert set(view["missions_open"]) == missions
    for other in [None, *(x for x in range(len(s.players)) if x != seat)]:
        assert view_for(s, other)["missions_open"] is None  # depends on secret Reef cards
    for item in view["pending"][:1]:
        if item["kind"] == "tail":
            assert item["tracks"] == [a["track"] for a in actions if a["type"] == "choose_tail"]


@pytest.mark.parametrize(("players", "seed"), [(2, 3), (3, 8), (4, 6), (5, 1)])
def test_view_answers_match_the_legal_actions_R26_R27_R50(players, seed):
    _random_game(GameOptions(players=players, expansion=True), seed, _check_view_answers)


def test_same_deck_treasure_opens_the_played_deck_in_the_view_R54():
    s = game(players=2, expansion=True)
    card = next(c for c, e in XC.treasures.items() if e == "same_deck")
    s.players[0].treasures = [card]
    place = next(a for a in legal_actions(s, 0) if a["type"] == "place")
    s, _ = apply(s, place, 0)
    while s.pending:
        s, _ = apply(s, legal_actions(s, 0)[-1], 0)
    played = s.turn.played_deck
    assert played not in view_for(s, 0)["turn"]["draw_decks"]
    s, _ = apply(s, {"type": "use_treasure", "card": card}, 0)
    assert view_for(s, 0)["turn"]["draw_decks"] == ["S", "M", "L"]
    assert view_for(s, None)["turn"]["draw_decks"] == ["S", "M", "L"]

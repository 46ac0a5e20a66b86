"""Live realm majorities in the view (R-42, R-43, R-56) and their secrecy (R-60)."""

from __future__ import annotations

import random

import pytest

from app.engine import GameOptions, apply, final_scores, legal_actions, new_game, to_act, view_for
from app.engine.board import REALM_MASKS, REALMS, squares_of
from app.engine.content import content
from app.engine.majorities import realm_standings, standings
from app.engine.scoring import realm_majority, uncovered_whirlpools
from app.engine.state import Dragon
from tests.engine.helpers import game, put

HIDDEN = sorted(c for c, r in content().reefs.items() if r.kind == "hidden_dragon")
OTHER_REEFS = sorted(c for c, r in content().reefs.items() if r.kind != "hidden_dragon")


def _dry(s, realm):
    return list(squares_of(REALM_MASKS[realm] & ~s.board.whirlpools & ~s.occupied))


def _dragons(s, seat, realm, sizes):
    free = _dry(s, realm)
    for n in sizes:
        put(s, seat, free[:n])
        free = free[n:]


def _by_realm(view_realms):
    return {r["realm"]: r for r in view_realms}


def _play(seed, players, steps, expansion=False):
    """A position after `steps` random legal actions (placements preferred)."""
    rng = random.Random(seed)
    s = new_game(GameOptions(players=players, expansion=expansion), seed)
    for _ in range(steps):
        if s.over:
            break
        seat = to_act(s)
        acts = legal_actions(s, seat)
        places = [a for a in acts if a["type"] == "place"]
        s, _ = apply(s, rng.choice(places if places and rng.random() < 0.8 else acts), seat)
    return s


def _with_reefs(s, seat, reefs):
    """A copy of `s` where `seat` holds exactly `reefs` (same count keeps the view's counts)."""
    t = s.clone()
    t.players[seat].reefs = list(reefs)
    return t


def test_rulebook_starfish_example_seen_by_each_viewer_R43_R60():
    s = game(players=4)
    _dragons(s, 1, "starfish", [2, 2, 2, 2])  # 4 Dragons, 8 pieces
    _dragons(s, 2, "starfish", [1, 1, 1])  # 3 Dragons + a hidden one in Starfish
    s.players[2].reefs = ["RF13"]
    _dragons(s, 0, "starfish", [1, 1])
    _dragons(s, 3, "starfish", [1, 1])
    own = _by_realm(realm_standings(s, 2))["starfish"]
    assert own["whirlpools"] == 7 and own["leaders"] == [1]
    assert [x["dragons"] for x in own["seats"]] == [2, 4, 4, 2]
    assert [x["hidden"] for x in own["seats"]] == [0, 0, 1, 0]
    assert {x["seat"]: x["vp"] for x in own["seats"] if x["vp"]} == {1: 21, 2: 10}
    # Seat 2's Hidden Dragon is secret: others count 3 Dragons for it (R-60).
    for viewer in (None, 0, 1, 3):
        seen = _by_realm(realm_standings(s, viewer))["starfish"]
        assert [x["dragons"] for x in seen["seats"]] == [2, 4, 3, 2]
        assert all(x["hidden"] == 0 for x in seen["seats"])
    assert realm_majority(s, "starfish") == {1: 21, 2: 10}


def test_ancestral_head_counts_double_where_its_head_lies_R56():
    s = game(players=3)
    # A Dragon across the vertical current between Starfish and Conch, its head in Conch.
    cells = ((2, 6), (2, 7), (2, 8))
    s.add_dragon(Dragon(0, cells, (2, 8), "S01", ancestral=True))
    put(s, 1, _dry(s, "conch")[:1])
    put(s, 1, _dry(s, "conch")[:1])
    realms = _by_realm(realm_standings(s, None))
    assert realms["conch"]["seats"][0]["dragons"] == 2  # one Dragon, counted twice
    assert realms["starfish"]["seats"][0]["dragons"] == 1
    assert realms["conch"]["seats"][1]["dragons"] == 2
    # 2 vs 2 Dragons: pieces break the tie (seat 0 has one piece in Conch, seat 1 two).
    assert realms["conch"]["leaders"] == [1]
    w = uncovered_whirlpools(s, "conch")
    vp = {x["seat"]: x["vp"] for x in realms["conch"]["seats"] if x["vp"]}
    assert vp == realm_majority(s, "conch") == {1: 3 * w, 0: 3 * w // 2}


def test_two_player_tie_scores_nothing_and_has_two_leaders_R43():
    s = game(players=2)
    _dragons(s, 0, "turtle", [1])
    _dragons(s, 1, "turtle", [1])
    turtle = _by_realm(realm_standings(s, 0))["turtle"]
    assert sorted(turtle["leaders"]) == [0, 1]
    assert all(x["vp"] == 0 for x in turtle["seats"])
    assert _by_realm(realm_standings(s, 0))["conch"]["leaders"] == []


@pytest.mark.parametrize("expansion", [False, True])
@pytest.mark.parametrize("players", [2, 3, 5])
def test_opponents_view_never_depends_on_hidden_dragon_cards_R60(players, expansion):
    """Swapping a player's Reef cards for Hidden Dragons (same count) changes no other view."""
    rng = random.Random(players * 10 + expansion)
    changed_own = 0
    for seed in range(8):
        s = _play(seed, players, rng.randrange(10, 80), expansion)
        if s.over:
            continue
        for seat in range(players):
            k = rng.randrange(1, 4)
            a = _with_reefs(s, seat, rng.sample(OTHER_REEFS, k))
            b = _with_reefs(s, seat, rng.sample(HIDDEN, k))  # 3 Hidden Dragon cards exist
            for viewer in [None, *range(players)]:
                if viewer == seat:
                    continue
                assert view_for(a, viewer) == view_for(b, viewer), (seed, seat, viewer)
            own_a, own_b = view_for(a, seat)["realms"], view_for(b, seat)["realms"]
            changed_own += own_a != own_b
    # The check above is not vacuous: the holder's own view did count the cards.
    assert changed_own > 0


def test_live_figures_follow_final_scoring_rules_mid_game_R43():
    """With every Hidden Dragon revealed, each realm's VP is scoring.realm_majority's."""
    rng = random.Random(5)
    for seed in range(12):
        players = 2 + seed % 4
        s = _play(seed, players, rng.randrange(20, 90), expansion=seed % 2 == 1)
        for seat in range(players):
            s.players[seat].reefs = rng.sample(HIDDEN, rng.randrange(0, 3))
        for realm in standings(s, lambda _seat: True):
            vp = {x["seat"]: x["vp"] for x in realm["seats"] if x["vp"]}
            assert vp == realm_majority(s, realm["realm"]), (seed, realm)


def _finish(seed, players, expansion):
    rng = random.Random(seed)
    s = new_game(GameOptions(players=players, expansion=expansion), seed)
    while not s.over:
        seat = to_act(s)
        acts = legal_actions(s, seat)
        places = [a for a in acts if a["type"] == "place"]
        s, _ = apply(s, rng.choice(places if places and rng.random() < 0.85 else acts), seat)
    return s


@pytest.mark.parametrize(
    ("players", "expansion"), [(2, False), (3, False), (4, True), (5, False), (3, True)]
)
def test_at_the_end_every_view_equals_final_scores_R60(players, expansion):
    """Once over, everything counts for everyone, and the figures are final_scores' realms."""
    s = _finish(players * 3 + expansion, players, expansion)
    variants = [s, _with_reefs(s, 0, [*s.players[0].reefs, HIDDEN[0], HIDDEN[1]])]
    for t in variants:
        scores = final_scores(t)
        for viewer in [None, *range(players)]:
            view = view_for(t, viewer)
            assert view["over"]
            for realm in view["realms"]:
                name = realm["realm"]
                assert realm["whirlpools"] == scores["realm_whirlpools"][name]
                for x in realm["seats"]:
                    assert x["vp"] == scores["players"][x["seat"]]["realms"][name], (viewer, name)
    own = _by_realm(view_for(variants[1], None)["realms"])
    hidden_realms = {content().reefs[c].realm for c in HIDDEN[:2]}
    assert all(own[r]["seats"][0]["hidden"] >= 1 for r in hidden_realms)


def test_realms_listed_in_board_order_with_every_seat():
    s = _play(3, 4, 30)
    realms = view_for(s, None)["realms"]
    assert [r["realm"] for r in realms] == list(REALMS)
    for r in realms:
        assert [x["seat"] for x in r["seats"]] == [0, 1, 2, 3]
        assert set(r["seats"][0]) == {"seat", "dragons", "pieces", "hidden", "vp"}

"""R-58: no pending step may show that a player holds the draw-four or the any-tail treasure.

The property is tested directly on twin games. From a random expansion position, world A gives
one seat a secret-flow treasure (draw four Reef cards, or ships advance any tail) and world B
gives the same seat another Hidden Treasure instead: B is A with the two card ids exchanged. Both
worlds then play the same actions (neither card is ever used). Every view and every event that
a seat not holding either card, or a spectator, receives must be identical in both worlds.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.engine import (
    GameOptions,
    State,
    apply,
    event_for,
    legal_actions,
    new_game,
    to_act,
    view_for,
)
from app.engine.content import expansion_content
from tests.tiers import examples

XC = expansion_content()
SECRET_FLOW = sorted(c for c, e in XC.treasures.items() if e in ("reef4", "any_tail"))
PLAIN = sorted(c for c, e in XC.treasures.items() if e not in ("reef4", "any_tail"))


def _swap(obj: Any, a: str, b: str) -> Any:
    """`obj` with the strings `a` and `b` exchanged everywhere (actions, card lists)."""
    if obj == a:
        return b
    if obj == b:
        return a
    if isinstance(obj, list):
        return [_swap(x, a, b) for x in obj]
    if isinstance(obj, dict):
        return {k: _swap(v, a, b) for k, v in obj.items()}
    return obj


def _random_position(players: int, seed: int, moves: int) -> State:
    rng = random.Random(seed)
    s = new_game(GameOptions(players=players, expansion=True), seed)
    for _ in range(moves):
        if s.over:
            break
        seat = to_act(s)
        s, _ = apply(s, rng.choice(legal_actions(s, seat)), seat)
    return s


def twins(players: int, seed: int, moves: int, seat: int, secret: str, other: str):
    """(A, B): A's `seat` holds `secret`, B's holds `other`; otherwise B is A with them swapped.

    None when either card has left the treasure deck by then (both must be unseen).
    """
    a = _random_position(players, seed, moves)
    deck = a.decks["treasures"]
    if a.over or secret not in deck or other not in deck:
        return None
    b = a.clone()
    b.decks["treasures"] = _swap(b.decks["treasures"], secret, other)
    i = deck.index(secret)
    for world in (a, b):
        card = world.decks["treasures"].pop(i)
        world.players[seat % players].treasures.append(card)
    return a, b


def _knows(s: State, card: str) -> set[int]:
    """Seats that see `card` now: its holder, or the chooser of a pending draw showing it."""
    seats = {p.seat for p in s.players if card in p.treasures}
    if s.pending and card in s.pending[0].get("cards", ()):
        seats.add(s.turn.seat)
    return seats


def _insiders(a: State, b: State, secret: str, other: str) -> set[int]:
    """Seats that see either swapped card in either world (the rest must see no difference)."""
    return _knows(a, secret) | _knows(a, other) | _knows(b, secret) | _knows(b, other)


def _uses(action: dict, card: str) -> bool:
    return action.get("type") == "use_treasure" and action.get("card") == card


def lockstep(a: State, b: State, secret: str, other: str, rng: random.Random) -> dict[str, int]:
    """Play A and B side by side; assert what outsiders receive is the same. Returns counts."""
    counts = {"steps": 0, "secret_moments": 0}
    n = len(a.players)
    while not a.over:
        assert not b.over and to_act(a) == to_act(b)
        seat = to_act(a)
        front = a.pending[0] if a.pending else {}
        if seat in _knows(a, secret) and front.get("kind") in ("reef", "advance"):
            counts["secret_moments"] += "cards" not in front
        legal_b = legal_actions(b, seat)
        common = [
            x
            for x in legal_actions(a, seat)
            if not _uses(x, secret) and not _uses(x, other) and _swap(x, secret, other) in legal_b
        ]
        assert common, f"the flows diverged: seat {seat} has no action open in both worlds"
        action = rng.choice(common)
        before = _insiders(a, b, secret, other)
        a, events_a = apply(a, action, seat)
        b, events_b = apply(b, _swap(action, secret, other), seat)
        counts["steps"] += 1
        if a.over:
            break  # after the end every hand is shown
        insiders = before | _insiders(a, b, secret, other)
        for v in [None, *(v for v in range(n) if v not in insiders)]:
            assert view_for(a, v) == view_for(b, v), (counts["steps"], v, action)
            shown_a = [event_for(e, v) for e in events_a]
            shown_b = [event_for(e, v) for e in events_b]
            assert shown_a == shown_b, (counts["steps"], v, action)
    assert b.over
    return counts


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(2, 5),
    seed=st.integers(0, 2**32 - 1),
    moves=st.integers(0, 60),
    seat=st.integers(0, 4),
    secret=st.sampled_from(SECRET_FLOW),
    other=st.sampled_from(PLAIN),
)
def test_secret_flow_treasures_change_nothing_others_see_R58(
    players, seed, moves, seat, secret, other
):
    pair = twins(players, seed, moves, seat, secret, other)
    if pair is None:
        return
    lockstep(*pair, secret, other, random.Random(seed))


@pytest.mark.slow  # searches games for rare moments
def test_the_twin_games_reach_the_moments_that_used_to_give_the_card_away_R58():
    """Seeded twins: the holder meets Reef draws and ship gains, and outsiders see no change."""
    moments = {"reef4": 0, "any_tail": 0}
    games = 0
    for k in range(40):
        secret, other = SECRET_FLOW[k % len(SECRET_FLOW)], PLAIN[k % len(PLAIN)]
        pair = twins(2 + k % 4, 100 + k, 10 + 3 * (k % 12), k, secret, other)
        if pair is None:
            continue  # a card already drawn by then
        counts = lockstep(*pair, secret, other, random.Random(k))
        moments[XC.treasures[secret]] += counts["secret_moments"]
        games += 1
        if games == 12:
            break
    assert games == 12
    assert moments["reef4"] >= 3 and moments["any_tail"] >= 3, moments


def test_the_twins_differ_only_in_the_swapped_card():
    """The harness compares like with like: B is A with the two ids exchanged."""
    pair = twins(3, 7, 20, 1, "HT01", "HT04")
    assert pair is not None
    a, b = pair
    assert a.players[1].treasures[-1] == "HT01" and b.players[1].treasures[-1] == "HT04"
    from app.engine import state_to_json

    assert json.dumps(_swap(state_to_json(b), "HT01", "HT04")) == json.dumps(state_to_json(a))


# --- The steps themselves: what the holder, a non-holder and everyone else see -----------------


def _reef_position(held: list[str]):
    """An expansion game where seat 0, holding `held`, is about to cover one Reef symbol."""
    from tests.engine.helpers import card_of_shape, find_placement, game, place_action, put, ring

    s = game(players=2, first=0, expansion=True)
    mask = find_placement(
        s, "I3", lambda sym, m: sym["R"] == 1 and sym["W"] + sym["~"] + sym["S"] == 0
    )
    put(s, 1, [ring(mask)[0]])
    card = card_of_shape("I3")
    s.players[0].hand = [card, "M05"]
    s.players[0].treasures = list(held)
    return s, place_action(card, mask)


def _ships_position(held: list[str], colours=("green", "red")):
    """An expansion game where seat 0, holding `held`, is about to take ships of `colours`."""
    from tests.engine.test_expansion import _plain_reward, _ship_placement, xgame

    s = xgame(first=0)
    _plain_reward(s)
    action = _ship_placement(s, list(colours))
    s.players[0].treasures = list(held)
    return s, action


def test_a_reef_draw_waits_at_the_same_step_for_holder_and_non_holder_R58():
    holder, act = _reef_position(["HT01"])  # draw four Reef cards
    other, _ = _reef_position(["HT04"])  # no cost: nothing to do with Reef draws
    top4 = holder.decks["reefs"][:4]
    holder, events_h = apply(holder, act, 0)
    other, events_o = apply(other, act, 0)
    for viewer in (None, 1):
        assert view_for(holder, viewer) == view_for(other, viewer)
        assert [event_for(e, viewer) for e in events_h] == [event_for(e, viewer) for e in events_o]
    assert view_for(other, None)["pending"] == [{"kind": "reef", "seat": 0, "count": 2}]
    # The holder may widen the draw; the other only goes on ("decline": use no treasure).
    assert legal_actions(holder, 0) == [
        {"type": "use_treasure", "card": "HT01"},
        {"type": "decline"},
    ]
    assert legal_actions(other, 0) == [{"type": "decline"}]
    other2, _ = apply(other, {"type": "decline"}, 0)
    holder2, _ = apply(holder, {"type": "decline"}, 0)
    assert other2.pending[0]["cards"] == holder2.pending[0]["cards"] == top4[:2]
    assert view_for(other2, 1) == view_for(holder2, 1)
    # The holder's own flow still works: four cards, keep one, three to the bottom.
    used, events = apply(holder, {"type": "use_treasure", "card": "HT01"}, 0)
    assert used.pending[0]["cards"] == top4
    assert [e["type"] for e in events] == ["treasure_used"]  # from here on the card is public
    kept, _ = apply(used, {"type": "keep_reef", "card": top4[3]}, 0)
    assert kept.players[0].reefs == [top4[3]] and kept.decks["reefs"][-3:] == top4[:3]


def test_ships_wait_at_the_same_advance_step_for_holder_and_non_holder_R58():
    holder, act = _ships_position(["HT25"])  # ships advance any tail
    other, _ = _ships_position(["HT16"])  # convert a ship
    holder, events_h = apply(holder, act, 0)
    other, events_o = apply(other, act, 0)
    for viewer in (None, 1):
        assert view_for(holder, viewer) == view_for(other, viewer)
        assert [event_for(e, viewer) for e in events_h] == [event_for(e, viewer) for e in events_o]
    assert view_for(other, 1)["pending"] == [
        {"kind": "advance", "seat": 0, "ships": ["green", "red"]}
    ]
    assert holder.players[0].tails == other.players[0].tails == {"green": 0, "purple": 0, "red": 0}
    assert legal_actions(other, 0) == [{"type": "decline"}]
    other, events = apply(other, {"type": "decline"}, 0)
    assert other.players[0].tails == {"green": 1, "purple": 0, "red": 1}
    assert [e["type"] for e in events] == ["tail_advanced", "tail_advanced"]
    # The holder steers each ship's step instead.
    holder, _ = apply(holder, {"type": "use_treasure", "card": "HT25"}, 0)
    for track in ("purple", "purple"):
        holder, _ = apply(holder, {"type": "choose_tail", "track": track}, 0)
    assert holder.players[0].tails == {"green": 0, "purple": 2, "red": 0}


def test_no_step_for_a_player_without_hidden_treasures_R58():
    """The treasure count is public: with none held, nothing can be hidden, so no step."""
    s, act = _reef_position([])
    top2 = s.decks["reefs"][:2]
    s, _ = apply(s, act, 0)
    assert s.pending[0]["cards"] == top2
    s, act = _ships_position([])
    s, _ = apply(s, act, 0)
    assert not s.pending and s.players[0].tails["green"] == 1


def test_no_step_once_a_treasure_was_used_this_turn_R58():
    """One Hidden Treasure per turn (R-54), and using one is public: no step after it."""
    s, act = _reef_position(["HT01", "HT04"])
    s, _ = apply(s, {"type": "use_treasure", "card": "HT04"}, 0)
    s, _ = apply(s, act, 0)
    assert "cards" in s.pending[0]
    assert [a["type"] for a in legal_actions(s, 0)] == ["keep_reef", "keep_reef"]


def test_no_step_once_every_such_card_is_in_a_discard_pile_R58():
    """Discard piles are public: when all three cards of the effect are used, none can be held."""
    s, act = _reef_position(["HT04"])
    s.players[1].used = ["HT01", "HT02", "HT03"]
    for c in ("HT01", "HT02", "HT03"):
        s.decks["treasures"].remove(c)
    s, _ = apply(s, act, 0)
    assert "cards" in s.pending[0]
    s, act = _ships_position(["HT04"])
    s.players[1].used = ["HT25", "HT26"]
    s2, _ = apply(s, act, 0)
    assert s2.pending[0]["kind"] == "advance"  # HT27 is still unseen
    s.players[1].used.append("HT27")
    s3, _ = apply(s, act, 0)
    assert not s3.pending and s3.players[0].tails["green"] == 1


def test_no_reef_step_when_the_deck_cannot_give_more_than_two_R58():
    s, act = _reef_position(["HT01"])
    s.decks["reefs"] = s.decks["reefs"][:2]
    s, _ = apply(s, act, 0)
    assert len(s.pending[0]["cards"]) == 2
    assert {"type": "use_treasure", "card": "HT01"} not in legal_actions(s, 0)

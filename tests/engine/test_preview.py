"""Placement previews (`app.engine.preview`) equal what playing the placement then gives.

Random positions of random 2-5 player games, base and expansion, with every treasure that
changes a placement switched on (R-54: triple Gold, 2 Gold per Dragon in contact, the extra
body, the free shape, no cost), the Ancestral head (R-56), and Reward Board Gold from tails
(R-50, R-51). For each previewed placement the test plays it through the legal flow (keeping
Reef and treasure cards, declining the any-tail step) and compares every number the preview
states with the state reached, and the Gold rules with their rulings (R-22..R-24).
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.engine import (
    EngineError,
    GameOptions,
    apply,
    expand_legal,
    legal_actions,
    new_game,
    pack_legal,
    to_act,
)
from app.engine.content import content, expansion_content
from app.engine.preview import outcomes
from app.engine.shapes import same_shape
from tests.engine.helpers import game
from tests.tiers import examples

XC = expansion_content()
EFFECTS = (None, "triple_gold", "contact_gold", "extra_body", "free_shape", "no_cost")


def _position(players: int, expansion: bool, seed: int, steps: int):
    """A random position where the seat to act is about to place, or None."""
    rng = random.Random(seed)
    s = new_game(GameOptions(players=players, expansion=expansion), seed)
    moves = 0
    while not s.over:
        seat = to_act(s)
        if moves >= steps and s.turn.phase == "place" and not s.pending:
            return s
        s, _ = apply(s, rng.choice(legal_actions(s, seat)), seat)
        moves += 1
    return None


def _switch_on(s, effect: str | None, ancestral: bool):
    seat = s.turn.seat
    if effect is not None:
        if s.turn.treasure_used:
            return None
        card = next(c for c, e in sorted(XC.treasures.items()) if e == effect)
        s = s.clone()
        s.players[seat].treasures.append(card)
        s, _ = apply(s, {"type": "use_treasure", "card": card}, seat)
    if ancestral:
        if not s.players[seat].ancestral or s.turn.ancestral:
            return None
        s, _ = apply(s, {"type": "use_ancestral"}, seat)
    return s


def _play_out(s, action, seat):
    """Apply the placement, then answer the steps that follow as a player could, up to a dark
    blue ship's tail choice (the player's own later decision): the state then."""
    s, _ = apply(s, action, seat)
    while s.pending and s.pending[0]["kind"] != "tail":
        kind = s.pending[0]["kind"]
        legal = legal_actions(s, seat)
        answer = {"type": "decline"} if kind in ("reef", "advance") else legal[0]
        if kind == "reef" and "cards" in s.pending[0]:
            answer = legal[0]
        s, _ = apply(s, answer, seat)
    return s


def _check(before, seat, out, effect):
    action = out["action"]
    after = _play_out(before, action, seat)
    me0, me1 = before.players[seat], after.players[seat]
    mask_cells = [tuple(c) for c in action["cells"]]
    board = before.board
    gold_squares = sum(1 for r, c in mask_cells if board.gold_spaces >> (r * 15 + c) & 1)
    turbulent = sum(1 for r, c in mask_cells if board.turbulent >> (r * 15 + c) & 1)
    # 2 Gold per Whirlpool or Sea Current square, none with the no-cost treasure.
    assert out["cost"] == (0 if effect == "no_cost" else 2 * turbulent)
    assert out["gold"]["squares"] == gold_squares
    touching = sum(n["gold"] for n in out["neighbours_gold"])
    if effect == "triple_gold":
        assert out["gold"]["treasures"] == 2 * gold_squares  # tripled
    elif effect == "contact_gold":
        assert out["gold"]["treasures"] == 2 * touching  # 2 per Dragon in contact
    else:
        assert out["gold"]["treasures"] == 0
    # Reward Board Gold: what the spaces reached print, and the tails where they land.
    for t in out["tails"]:
        space = before.reward["spaces"][t["track"]][t["to"] - 1]
        assert t["gold"] == (int(space[1:]) if space.startswith("g") else 0)
        assert t["treasure"] == (space == "T")
    assert out["gold"]["rewards"] == sum(t["gold"] for t in out["tails"])
    total = out["gold"]["total"]
    assert total == sum(out["gold"][k] for k in ("squares", "treasures", "rewards"))
    cashed = 4 * len(out["cashed"])
    assert me1.gold == me0.gold + total - out["cost"] + cashed == out["gold_after"]
    assert out["gold_change"] == me1.gold - me0.gold
    # every other player +1 per distinct Dragon touching.
    by_seat = {n["seat"]: n["gold"] for n in out["neighbours_gold"]}
    for other in range(len(before.players)):
        if other != seat:
            gained = after.players[other].gold - before.players[other].gold
            assert gained == by_seat.get(other, 0)
    assert sum(me1.ships.values()) - sum(me0.ships.values()) == out["ships"]
    assert out["reef_draws"] == sum(
        1 for sq in mask_cells if board.reef_spaces >> (sq[0] * 15 + sq[1]) & 1
    )
    if before.options.expansion:
        moved = {t: me1.tails[t] - me0.tails[t] for t in me1.tails}
        previewed = {t: sum(1 for x in out["tails"] if x["track"] == t) for t in me1.tails}
        assert moved == previewed
        assert out["treasure_draws"] == sum(1 for t in out["tails"] if t["treasure"])
    placed = after.dragons[-1]
    assert placed.owner == seat and sorted(placed.cells) == sorted(mask_cells)
    assert placed.ancestral == out["ancestral"]


@settings(
    max_examples=examples(60),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(
    players=st.integers(2, 5),
    expansion=st.booleans(),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 90),
    effect=st.sampled_from(EFFECTS),
    ancestral=st.booleans(),
    pick=st.randoms(use_true_random=False),
)
def test_preview_equals_the_outcome_R22_R24_R50_R54_R56(
    players, expansion, seed, steps, effect, ancestral, pick
):
    s = _position(players, expansion, seed, steps)
    if s is None:
        return
    if not expansion:
        effect, ancestral = None, False
    s = _switch_on(s, effect, ancestral)
    if s is None:
        return
    seat = s.turn.seat
    for card in dict.fromkeys(s.players[seat].hand):
        outs = outcomes(s, seat, card)
        legal = [a for a in legal_actions(s, seat) if a["type"] == "place" and a["card"] == card]
        assert [o["action"] for o in outs] == legal  # each legal placement, once, in order
        for out in pick.sample(outs, min(8, len(outs))):
            _check(s, seat, out, effect)


def _with_treasure(effect, hand):
    s = game(players=3, expansion=True)
    card = next(c for c, e in sorted(XC.treasures.items()) if e == effect)
    s.players[0].treasures = [card]
    s.players[0].hand = list(hand)
    s, _ = apply(s, {"type": "use_treasure", "card": card}, 0)
    return s


def _with_card(treasure, hand):
    s = game(players=3, expansion=True)
    s.players[0].treasures = [treasure]
    s.players[0].hand = list(hand)
    s, _ = apply(s, {"type": "use_treasure", "card": treasure}, 0)
    return s


def test_extra_body_outcomes_carry_the_fifth_square_R54():
    """HT12 with M16: the legal list and the outcomes hold placements of 5 squares, and the
    socket's compact form of the legal list keeps them (the fifth square is the server's)."""
    assert XC.treasures["HT12"] == "extra_body"
    s = _with_card("HT12", ["M16"])
    outs = outcomes(s, 0, "M16")
    legal = legal_actions(s, 0)
    assert sorted(map(json.dumps, expand_legal(pack_legal(legal)))) == sorted(
        map(json.dumps, legal)
    )
    assert sum(1 for a in legal if a["type"] == "place" and len(a["cells"]) == 5) > 0
    shape = content().shapes[content().pattern_shape["M16"]]
    five = [o for o in outs if len(o["action"]["cells"]) == 5]
    four = [o for o in outs if len(o["action"]["cells"]) == 4]
    assert five and four  # the plain shape stays legal (the extra body is optional)
    assert all(same_shape([tuple(c) for c in o["action"]["cells"]], shape) for o in four)
    s2, events = apply(s, five[0]["action"], 0)
    assert len(s2.dragons[-1].cells) == 5
    assert "placed M16 (5 squares)" in five[0]["events"][0]
    assert events[0]["cells"] == sorted(five[0]["action"]["cells"])


def test_free_shape_outcomes_include_other_shapes_R54():
    s = _with_treasure("free_shape", ["M16"])
    shape = content().shapes[content().pattern_shape["M16"]]
    outs = outcomes(s, 0, "M16")
    other = [o for o in outs if not same_shape([tuple(c) for c in o["action"]["cells"]], shape)]
    assert other and all(len(o["action"]["cells"]) == 4 for o in outs)


@pytest.mark.parametrize(
    "bad",
    [
        lambda s: outcomes(s, 1, s.players[1].hand[0]),  # not this seat's turn
        lambda s: outcomes(s, 0, "M99"),  # no such card
        lambda s: outcomes(
            s, 0, next(c for c in content().pattern_shape if c not in s.players[0].hand)
        ),
    ],
)
def test_outcomes_only_for_the_seat_placing_its_own_card(bad):
    s = game(players=3)
    with pytest.raises(EngineError) as err:
        bad(s)
    assert err.value.code == "bad_action"


def test_no_outcomes_after_the_placement():
    s = game(players=3)
    s, _ = apply(s, legal_actions(s, 0)[0], 0)
    with pytest.raises(EngineError):
        outcomes(s, 0, s.players[0].hand[0])


def test_outcome_lines_name_no_card_drawn_R60():
    """A Reef card kept because the deck held only one is not named before the move is made."""
    s = game(players=3)
    s.decks["reefs"] = s.decks["reefs"][:1]
    secret = s.decks["reefs"][0]
    seat = s.turn.seat
    found = []
    for card in dict.fromkeys(s.players[seat].hand):
        found += [o for o in outcomes(s, seat, card) if o["reef_draws"] == 1]
    assert found, "no placement of this position covers a Reef space"
    for o in found:
        assert any("kept a Reef card" in line for line in o["events"])
        assert not any(secret in line for line in o["events"])
        assert secret not in json.dumps(o)

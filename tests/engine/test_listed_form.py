"""A played placement is found in the legal list whatever square its head is on (R-12: the head
may go on any square; R-56: with the Ancestral head only its realm matters)."""

from __future__ import annotations

import random

import pytest

from app.engine import apply, legal_actions, listed_form, state_to_json
from app.engine.board import realm_of
from app.engine.expansion_cards import ancestral_placement
from tests.engine.test_ancestral_head import ACROSS, _position


def _key(a: dict) -> str:
    return repr(sorted(a.items()))


def _moved_heads(action: dict, rng: random.Random) -> list[dict]:
    """The action with its head on each of its squares and its squares shuffled."""
    out = []
    for head in action["cells"]:
        cells = [list(c) for c in action["cells"]]
        rng.shuffle(cells)
        out.append({**action, "cells": cells, "head": list(head)})
    return out


@pytest.mark.parametrize("expansion", [False, True])
def test_every_head_square_is_the_listed_placement_R12(expansion: bool) -> None:
    from app.engine import GameOptions, new_game, to_act

    rng = random.Random(3)
    state = new_game(GameOptions(players=3, expansion=expansion), 11)
    checked = 0
    while not state.over and checked < 400:
        seat = to_act(state)
        legal = legal_actions(state, seat)
        listed = {_key(a) for a in legal}
        places = [a for a in legal if a["type"] == "place"]
        for action in rng.sample(places, min(4, len(places))):
            for played in _moved_heads(action, rng):
                form = listed_form(state, played)
                if _ancestral_on_current(state, played):
                    assert _key(form) not in listed and form["head"] == played["head"]
                    continue
                assert _key(form) in listed
                # The same move: the state it leads to is the listed one's.
                after, _ = apply(state, played, seat)
                listed_after, _ = apply(state, form, seat)
                assert _drop_heads(after) == _drop_heads(listed_after)
                checked += 1
        state, _ = apply(state, rng.choice(legal), seat)
    assert checked > 100


def _ancestral_on_current(state, played: dict) -> bool:
    """The Ancestral head on a Sea Current of a Dragon that covers a realm too (R-42)."""
    cells = [tuple(c) for c in played["cells"]]
    return (
        ancestral_placement(state)
        and realm_of(*played["head"]) is None
        and any(realm_of(*c) is not None for c in cells)
    )


def _drop_heads(state) -> dict:
    """A state's JSON without where each Dragon's head is (R-12: it changes nothing else)."""
    data = state_to_json(state)
    for d in data["dragons"]:
        d.pop("head", None)
    return data


def test_the_ancestral_head_keeps_its_realm_R56() -> None:
    s, card = _position()
    legal = {_key(a) for a in legal_actions(s, 0)}
    base = {"type": "place", "card": card, "cells": [list(c) for c in reversed(ACROSS)]}
    for head, listed_head in (((5, 3), [4, 3]), ((6, 3), [4, 3]), ((8, 3), [8, 3])):
        form = listed_form(s, {**base, "head": list(head)})
        assert form["head"] == listed_head
        assert form["cells"] == [list(c) for c in ACROSS]
        assert _key(form) in legal


def test_the_ancestral_head_on_a_current_stays_as_played_R42() -> None:
    s, card = _position()
    played = {"type": "place", "card": card, "cells": [list(c) for c in ACROSS], "head": [7, 3]}
    assert realm_of(7, 3) is None
    form = listed_form(s, played)
    assert form["head"] == [7, 3]
    assert _key(form) not in {_key(a) for a in legal_actions(s, 0)}
    apply(s, played, 0)  # legal all the same


def test_other_actions_are_their_canonical_form() -> None:
    s, _ = _position(declare=False)
    for a in legal_actions(s, 0):
        if a["type"] != "place":
            assert listed_form(s, a) == a

"""Determinisation: a full State consistent with one seat's view, never with the real secrets."""

from __future__ import annotations

import random

import pytest

from app.bots.determinise import determinise
from app.engine import apply, is_over, legal_actions, to_act, view_for

from .conftest import mid_game


@pytest.mark.parametrize("expansion", [False, True])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_view_and_legal_actions_are_preserved(players: int, expansion: bool) -> None:
    state = mid_game(players, 60 + players, 0, expansion=expansion)
    rng = random.Random(players)
    steps = 0
    while not is_over(state) and steps < 120:
        seat = to_act(state)
        view = view_for(state, seat)
        world = determinise(view, random.Random(steps))
        assert view_for(world, seat) == view
        assert legal_actions(world, seat) == legal_actions(state, seat)
        state, _ = apply(state, rng.choice(legal_actions(state, seat)), seat)
        steps += 1


def test_samples_differ_but_keep_every_card_once() -> None:
    state = mid_game(3, 5, 25)
    seat = to_act(state)
    view = view_for(state, seat)
    a, b = determinise(view, random.Random(1)), determinise(view, random.Random(2))
    assert (a.decks, [p.hand for p in a.players]) != (b.decks, [p.hand for p in b.players])
    for world in (a, b):
        cards = [c for d in ("S", "M", "L") for c in world.decks[d] + world.market[d]]
        for p in world.players:
            cards += p.hand + p.played + p.discarded
        assert len(cards) == len(set(cards)) == 26 + 36 + 18


def test_expansion_samples_keep_every_treasure_once() -> None:
    state = mid_game(3, 9, 60, expansion=True)
    seat = to_act(state)
    view = view_for(state, seat)
    for k in range(3):
        world = determinise(view, random.Random(k))
        cards = list(world.decks["treasures"])
        for p in world.players:
            cards += p.treasures + [c for c in p.used if c.startswith("HT")]
        for d in world.pending:
            cards += d.get("cards", []) if d["kind"] == "treasure" else []
        assert sorted(cards) == sorted(set(cards)) and len(cards) == 30
        for p, real in zip(world.players, state.players, strict=True):
            assert len(p.treasures) == len(real.treasures)

"""Bots decide from the view alone: hidden cards changed, same choice (R-60); determinism."""

from __future__ import annotations

import random

import pytest

from app.bots import make_bot
from app.engine import State, apply, legal_actions, to_act, view_for
from app.engine.content import content

from .conftest import mid_game, searcher


def _at_placement(players: int, seed: int, moves: int) -> State:
    """A mid-game state where the seat to act is choosing its placement."""
    state = mid_game(players, seed, moves)
    bot = make_bot("greedy", random.Random(seed))
    while state.turn.phase != "place" or state.pending:
        seat = to_act(state)
        state, _ = apply(state, bot.choose(view_for(state, seat), legal_actions(state, seat)), seat)
    return state


def _scramble(state: State, seed: int) -> State:
    """Swap every opponent's hand and Reef cards with deck cards, and reorder every deck."""
    rng = random.Random(seed)
    new = state.clone()
    me = to_act(state)
    deck_of = content().pattern_deck
    for p in new.players:
        if p.seat == me:
            continue
        for i, cid in enumerate(p.hand):
            deck = new.decks[deck_of[cid]]
            if deck:
                j = rng.randrange(len(deck))
                p.hand[i], deck[j] = deck[j], cid
        for i, cid in enumerate(p.reefs):
            deck = new.decks["reefs"]
            if deck:
                j = rng.randrange(len(deck))
                p.reefs[i], deck[j] = deck[j], cid
    for cards in new.decks.values():
        rng.shuffle(cards)
    return new


CASES = [(2, 11, 14), (2, 12, 30), (3, 13, 20), (4, 14, 16), (5, 15, 24)]


@pytest.mark.parametrize(("players", "seed", "moves"), CASES)
@pytest.mark.parametrize("level", ["random", "greedy", "expert", "expert_learned"])
def test_choice_ignores_other_players_hidden_cards(
    level: str, players: int, seed: int, moves: int
) -> None:
    state = _at_placement(players, seed, moves)
    other = _scramble(state, seed)
    seat = to_act(state)
    hidden = [(p.hand, p.reefs) for p in state.players if p.seat != seat]
    assert hidden != [(p.hand, p.reefs) for p in other.players if p.seat != seat]
    assert state.decks != other.decks
    assert view_for(state, seat) == view_for(other, seat)  # the engine's R-60 choke point

    def choice(s: State) -> dict:
        return searcher(level, seed).choose(view_for(s, seat), legal_actions(s, seat))

    assert choice(state) == choice(other)


@pytest.mark.parametrize("level", ["random", "greedy", "expert", "expert_learned"])
def test_same_seed_same_choices(level: str) -> None:
    state = _at_placement(2, 21, 10)
    seat = to_act(state)
    view, legal = view_for(state, seat), legal_actions(state, seat)

    def run(seed: int) -> list[dict]:
        bot = searcher(level, seed)
        return [bot.choose(view, legal) for _ in range(3)]

    assert run(5) == run(5)


def test_greedy_games_replay_identically() -> None:
    def moves() -> list:
        state = mid_game(3, 8, 10_000)
        return [(p.played, p.missions, p.gold) for p in state.players]

    assert moves() == moves()

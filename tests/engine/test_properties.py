"""Invariants over random legal games, 2-5 players (Hypothesis)."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.engine import (
    GameOptions,
    apply,
    final_scores,
    legal_actions,
    new_game,
    replay,
    state_from_json,
    state_to_json,
    to_act,
)
from app.engine.board import ISLAND, neighbours
from app.engine.setup import SHIP_TOKENS
from app.engine.state import HEADS_BY_PLAYERS
from tests.tiers import examples


def _check_invariants(s, paid_ships: Counter) -> None:
    union = 0
    for d in s.dragons:
        assert not union & d.mask, "a space holds two pieces"
        assert not d.mask & ISLAND
        union |= d.mask
    for d in s.dragons:
        own_others = 0
        for e in s.dragons:
            if e is not d and e.owner == d.owner:
                own_others |= e.mask
        assert not neighbours(d.mask) & own_others, "a Dragon touches another of its owner"
    for p in s.players:
        assert p.gold >= 0
    # Heads: each is on the board, in a supply, or returned to the box by a pass.
    n = len(s.players)
    for p in s.players:
        placed = sum(1 for d in s.dragons if d.owner == p.seat)
        assert placed + p.heads + len(p.discarded) <= HEADS_BY_PLAYERS[n]
    # Ship tokens: on the board, held, or paid for missions; each counted once.
    held = Counter()
    for p in s.players:
        held.update(p.ships)
    # `paid_ships` also nets out conversions by the Hidden Treasure (one colour becomes another).
    board = Counter(s.ships_on_board.values())
    total = {c: board[c] + held[c] + paid_ships[c] for c in SHIP_TOKENS}
    assert total == SHIP_TOKENS
    # Reef and Hidden Treasure cards: in the deck, drawn for a choice, held, or used; once each.
    pending = [c for d in s.pending for c in d.get("cards", [])]
    for deck, prefix, size in (
        ("reefs", "RF", 31 if s.options.expansion else 24),
        ("treasures", "HT", 30),
    ):
        if deck not in s.decks:
            continue
        held = [c for p in s.players for c in p.reefs + p.treasures + p.used]
        every = s.decks[deck] + [c for c in pending + held if c.startswith(prefix)]
        assert len(every) == len(set(every)) == size, deck
    if s.options.expansion:
        for p in s.players:
            assert all(0 <= v <= s.reward["length"] for v in p.tails.values())


@settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 5), seed=st.integers(0, 2**32 - 1), expansion=st.booleans())
def test_random_games_keep_every_invariant(players, seed, expansion):
    rng = random.Random(seed)
    s = new_game(GameOptions(players=players, expansion=expansion), seed)
    moves = []
    paid = Counter()
    passes = Counter()
    for _ in range(3000):
        seat = to_act(s)
        acts = legal_actions(s, seat)
        assert bool(acts) == (not s.over)
        if s.over:
            break
        for other in range(players):
            if other != seat:
                assert legal_actions(s, other) == []
        a = rng.choice(acts)
        s, _ = apply(s, a, seat)
        moves.append((seat, a))
        if a["type"] == "mission":
            paid.update(a["tokens"])
        if a.get("convert"):
            paid[a["convert"][0]] += 1
            paid[a["convert"][1]] -= 1
        if a["type"] == "pass":
            passes[seat] += 1
        _check_invariants(s, paid)
    assert s.over, "the game always ends"
    assert legal_actions(s, to_act(s)) == []
    n = len(s.players)
    for p in s.players:
        placed = sum(1 for d in s.dragons if d.owner == p.seat)
        assert placed + passes[p.seat] == HEADS_BY_PLAYERS[n] and p.heads == 0
    data = state_to_json(s)
    assert state_to_json(state_from_json(json.loads(json.dumps(data)))) == data
    assert state_to_json(replay(s.options, seed, moves)) == data
    scores = final_scores(s)
    assert scores["winners"]


def test_round_trip_mid_game_is_exact():
    rng = random.Random(9)
    s = new_game(GameOptions(players=4), 9)
    for _ in range(50):
        seat = to_act(s)
        s, _ = apply(s, rng.choice(legal_actions(s, seat)), seat)
        data = state_to_json(s)
        back = state_from_json(json.loads(json.dumps(data)))
        assert state_to_json(back) == data
        assert legal_actions(back, to_act(back)) == legal_actions(s, to_act(s))

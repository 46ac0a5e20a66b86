"""The realm ranking (R-43) has one definition in the engine and a fast form of it,
`app.engine.realm_vp` (per-seat lists), which the live standings and the bots' evaluation use.
The fast form is held equal to the full rule (`scoring.majority_vp`, what final scoring uses)
on every small realm and over the realms of whole random games: any divergence fails here."""

from __future__ import annotations

import itertools
import random

import pytest

from app.engine import GameOptions, apply, legal_actions, new_game, realm_vp, to_act
from app.engine.board import REALMS
from app.engine.scoring import majority_vp, realm_presence, uncovered_whirlpools


def _full_rule(counts: list[int], pieces: list[int], whirl: int, n: int) -> list[int]:
    presence = {s: (counts[s], pieces[s]) for s in range(n) if counts[s]}
    scores = majority_vp(presence, whirl, n)
    return [scores.get(s, 0) for s in range(n)]


@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_fast_form_is_the_full_rule_for_every_small_realm_R43(n: int) -> None:
    values = range(3)
    for counts in itertools.product(values, repeat=n):
        for pieces in itertools.product(values, repeat=n):
            for whirl in range(4):
                got = realm_vp(list(counts), list(pieces), whirl, n)
                assert got == _full_rule(list(counts), list(pieces), whirl, n), (
                    counts,
                    pieces,
                    whirl,
                )


def test_the_fast_form_is_the_full_rule_for_five_seats_R43() -> None:
    rng = random.Random(5)
    for _ in range(20_000):
        counts = [rng.randrange(4) for _ in range(5)]
        pieces = [rng.randrange(6) for _ in range(5)]
        whirl = rng.randrange(5)
        assert realm_vp(counts, pieces, whirl, 5) == _full_rule(counts, pieces, whirl, 5)


def test_the_fast_form_returns_whole_vp_like_final_scoring_R43() -> None:
    # The Starfish example of the rulebook: 7 uncovered whirlpools, 21 and 10 VP.
    got = realm_vp([2, 1, 1, 0], [6, 4, 3, 0], 7, 4)
    assert got == [21, 10, 0, 0]
    assert all(type(v) is int for v in got)


@pytest.mark.parametrize(
    ("players", "expansion", "seed"), [(2, False, 11), (3, True, 12), (4, False, 13), (5, True, 14)]
)
def test_the_fast_form_is_the_full_rule_over_random_games_R43(
    players: int, expansion: bool, seed: int
) -> None:
    """Every realm of every position of a random game, Hidden Dragons and Ancestral heads
    (R-42, R-56) included, ranked both ways."""
    rng = random.Random(seed)
    state = new_game(GameOptions(players=players, expansion=expansion), seed)
    ranked = 0
    while True:
        for realm in REALMS:
            presence = realm_presence(state, realm)
            counts = [presence.get(s, (0, 0))[0] for s in range(players)]
            pieces = [presence.get(s, (0, 0))[1] for s in range(players)]
            whirl = uncovered_whirlpools(state, realm)
            full = majority_vp(presence, whirl, players)
            assert realm_vp(counts, pieces, whirl, players) == [
                full.get(s, 0) for s in range(players)
            ]
            ranked += bool(presence)
        if state.over:
            break
        seat = to_act(state)
        acts = legal_actions(state, seat)
        places = [a for a in acts if a["type"] == "place"]
        state, _ = apply(state, rng.choice(places or acts), seat)
    assert ranked > 20  # realms with presence were ranked, not only empty ones

"""The bots' fast copy of the majority rule (app.bots.evaluate.realm_scores) is pinned to the
engine's (app.engine.scoring.majority_vp), the rule scoring uses: any divergence fails here."""

from __future__ import annotations

import itertools
import random

import pytest

from app.bots.evaluate import realm_scores
from app.engine.scoring import majority_vp


def _engine(counts: list[int], pieces: list[int], whirl: int, n: int) -> list[float]:
    presence = {s: (counts[s], pieces[s]) for s in range(n) if counts[s]}
    scores = majority_vp(presence, whirl, n)
    return [float(scores.get(s, 0)) for s in range(n)]


@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_bots_majority_rule_is_the_engines_for_every_small_realm(n: int) -> None:
    values = range(3)
    for counts in itertools.product(values, repeat=n):
        for pieces in itertools.product(values, repeat=n):
            for whirl in range(4):
                got = realm_scores(list(counts), list(pieces), whirl, n)
                assert got == _engine(list(counts), list(pieces), whirl, n), (counts, pieces, whirl)


def test_the_bots_majority_rule_is_the_engines_for_five_seats() -> None:
    rng = random.Random(5)
    for _ in range(20_000):
        counts = [rng.randrange(4) for _ in range(5)]
        pieces = [rng.randrange(6) for _ in range(5)]
        whirl = rng.randrange(5)
        assert realm_scores(counts, pieces, whirl, 5) == _engine(counts, pieces, whirl, 5)

"""The rating rules without a database: places, ties, quitters, updates, the shown number."""

from __future__ import annotations

import itertools
import random

import pytest

from app.bots import make_bot
from app.engine import GameOptions, final_scores
from app.engine.scoring import winners
from app.services.ratings import model as rm
from app.services.ratings.anchors import ANCHORS
from app.simulate import play_out


def _player(seat: int, total: int, tails: int | None = None, missions: int = 0) -> dict:
    cats = {"gold": total}
    if tails is not None:
        cats["tails"] = tails
    return {"seat": seat, "total": total, "categories": cats, "missions_completed": missions}


def test_places_follow_the_total_and_ties_share_a_place() -> None:
    scores = {"players": [_player(0, 50), _player(1, 70), _player(2, 50), _player(3, 40)]}
    assert rm.placings(scores, [False] * 4) == [2, 1, 2, 4]


def test_ties_on_total_are_broken_as_the_engine_breaks_them_for_the_win() -> None:
    # tails VP, then missions completed; still equal: shared.
    scores = {
        "players": [
            _player(0, 60, tails=3, missions=2),
            _player(1, 60, tails=5, missions=1),
            _player(2, 60, tails=3, missions=4),
            _player(3, 60, tails=3, missions=2),
        ]
    }
    assert rm.placings(scores, [False] * 4) == [3, 1, 2, 3]


def test_a_quitter_ranks_last_whatever_the_score() -> None:
    scores = {"players": [_player(0, 90), _player(1, 30), _player(2, 60)]}
    assert rm.placings(scores, [True, False, False]) == [3, 2, 1]
    # Two quitters: below everyone who played on, among themselves by score.
    four = {"players": [_player(0, 90), _player(1, 30), _player(2, 60), _player(3, 10)]}
    assert rm.placings(four, [True, False, True, False]) == [3, 1, 4, 2]


@pytest.mark.parametrize(
    "values",
    list(itertools.product([(60, 3, 2), (60, 3, 1), (59, 9, 9)], repeat=3)),
)
def test_first_place_is_the_engines_winners(values: tuple) -> None:
    players = [_player(s, t, tails, m) for s, (t, tails, m) in enumerate(values)]
    first = [s for s, p in enumerate(rm.placings({"players": players}, [False] * 3)) if p == 1]
    assert first == winners(players)


@pytest.mark.parametrize(("players", "expansion"), [(2, False), (3, True), (4, False), (5, True)])
def test_first_place_is_the_engines_winners_in_played_games(players: int, expansion: bool) -> None:
    rng = random.Random(players)
    for _ in range(3):
        bots = [make_bot("random", random.Random(rng.random())) for _ in range(players)]
        state, _ = play_out(
            GameOptions(players=players, expansion=expansion), rng.getrandbits(32), bots
        )
        scores = final_scores(state)
        places = rm.placings(scores, [False] * players)
        assert [s for s, p in enumerate(places) if p == 1] == scores["winners"]
        # Every place is the count of better players plus one, in the engine's own order.
        totals = [p["total"] for p in scores["players"]]
        for a, b in itertools.permutations(range(players), 2):
            if totals[a] > totals[b]:
                assert places[a] < places[b]


def test_a_win_raises_and_a_loss_lowers_and_a_tie_moves_both_alike() -> None:
    a, b = rm.rate([rm.NEW, rm.NEW], [1, 2])
    assert a.mu > rm.NEW.mu > b.mu
    assert a.sigma < rm.NEW.sigma and b.sigma < rm.NEW.sigma
    tie = rm.rate([rm.NEW, rm.NEW, rm.NEW], [1, 1, 3])
    assert tie[0] == tie[1]
    assert tie[0].mu > rm.NEW.mu > tie[2].mu


def test_a_quitter_loses_rating_even_with_the_best_score() -> None:
    scores = {"players": [_player(0, 99), _player(1, 10)]}
    quitter, stayer = rm.rate([rm.NEW, rm.NEW], rm.placings(scores, [True, False]))
    assert quitter.mu < rm.NEW.mu < stayer.mu


def test_beating_a_stronger_anchor_gains_more() -> None:
    vs_random = rm.rate([rm.NEW, rm.anchor("random")], [1, 2])[0]
    vs_expert = rm.rate([rm.NEW, rm.anchor("expert")], [1, 2])[0]
    assert vs_expert.mu > vs_random.mu


def test_the_anchors_are_ordered_by_strength() -> None:
    assert ANCHORS["random"][0] < ANCHORS["greedy"][0] < ANCHORS["expert"][0]


def test_the_shown_number_is_1000_plus_40_per_ordinal_point() -> None:
    assert rm.NEW.display == 1000  # 25 - 3 * 25/3 = 0
    assert rm.display(30.0, 2.0) == 1000 + 40 * 24


def test_variant_of_options() -> None:
    assert rm.variant_of({"players": 3, "expansion": True}) == "expansion"
    assert rm.variant_of({"players": 3}) == "base"


def test_predictions_favour_the_stronger_and_sum_to_one() -> None:
    guess = rm.predict([rm.anchor("expert"), rm.NEW, rm.anchor("random")])
    assert abs(sum(g["win"] for g in guess) - 1) < 1e-6
    assert guess[0]["win"] > guess[2]["win"]
    assert guess[0]["place"] < guess[2]["place"]

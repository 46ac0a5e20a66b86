"""The leaf model fitted to who won (app/review/leaf.py): its file, its inputs, where it is used."""

from __future__ import annotations

import json
import random

import pytest

from app.bots.determinise import determinise
from app.bots.evaluate import Evaluator
from app.bots.position import position_from_view
from app.bots.value import COMPONENTS
from app.engine import apply, legal_actions, replay, to_act, view_for
from app.review import ReviewSettings, analyse_game, chance
from app.review import game as game_module
from app.review.decision import analyse_decision
from app.review.game import analyse_move
from app.review.leaf import (
    MODEL_PATH,
    SEAT_FEATURES,
    LeafModel,
    chances_of,
    load_leaf_model,
    seat_rows,
    static_coef,
)
from app.review.source import review_settings
from app.settings import Settings
from tools.fit_review_chance import KEYS, _loglik, fit, game_points

from .conftest import greedy_game

FITTED = ReviewSettings(rounds=1, turns=1, leaf="fitted")
# The seeds of the games the calibration in docs/benchmarks.md is measured on (1-200).
CALIBRATION_SEEDS = range(1, 201)


def _positions(players: int, expansion: bool, cut: int = 30):  # type: ignore[no-untyped-def]
    record = greedy_game(players, 3, expansion)
    for k in (cut, cut + 7, cut + 15):
        state = replay(record.options, record.seed, record.moves[:k])
        yield state, position_from_view(view_for(state, to_act(state)))


def test_the_shipped_model_covers_every_table_from_disjoint_seeds() -> None:
    data = json.loads(MODEL_PATH.read_text())
    assert data["features"] == list(SEAT_FEATURES)
    assert (data["temp_end"], data["temp_span"]) == (chance.TEMP_END, chance.TEMP_SPAN)
    assert data["script"] == "tools/fit_review_chance.py"
    # Every table was fitted; a fit that did not beat the static softmax on its held-out games
    # is listed but not used.
    assert set(data["models"]) | set(data["not_kept"]) == set(KEYS)
    assert "4x" in data["models"]  # the table the review's cost target is measured on
    for key, m in data["not_kept"].items():
        assert "coef" not in m
        assert m["held_out"]["fitted"]["log_loss"] >= m["held_out"]["static"]["log_loss"], key
    for key, m in data["models"].items():
        assert len(m["coef"]) == len(SEAT_FEATURES), key
        assert list(m["coef"]) != list(static_coef()), key  # fitted, not the starting point
        first, last = m["seeds"]
        assert first <= last and not set(range(first, last + 1)) & set(CALIBRATION_SEEDS)
        held = m["held_out"]
        assert held["seeds"][0] > last  # scored on games it was not fitted on
        assert held["fitted"]["log_loss"] < held["static"]["log_loss"], key


def test_the_model_loaded_is_the_file_and_the_setting_chooses_it() -> None:
    model = load_leaf_model()
    assert model is not None and model is load_leaf_model()  # read once
    data = json.loads(MODEL_PATH.read_text())
    assert model.coefs["4x"] == tuple(data["models"]["4x"]["coef"])
    assert FITTED.leaf_model() is model
    assert ReviewSettings().leaf_model() is None  # the expert's own reading
    assert review_settings(Settings(review_leaf="fitted")).leaf == "fitted"
    assert review_settings(Settings(review_leaf="static")).leaf_model() is None
    with pytest.raises(ValueError):
        ReviewSettings(leaf="oracle")


@pytest.mark.parametrize(("players", "expansion"), [(2, False), (4, True)])
def test_the_static_coefficients_are_the_static_softmax(players: int, expansion: bool) -> None:
    for _, pos in _positions(players, expansion):
        ev = Evaluator(pos)
        rows = seat_rows(pos, ev, chance.TEMP_END, chance.TEMP_SPAN)
        assert len(rows) == players and all(len(r) == len(SEAT_FEATURES) for r in rows)
        acting = pos.view["turn"]["seat"]
        assert [r[SEAT_FEATURES.index("to_act")] for r in rows] == [
            1.0 if s == acting else 0.0 for s in range(players)
        ]
        assert chances_of(rows, static_coef()) == pytest.approx(
            chance.softmax_chances(ev.base, pos.progress), abs=1e-12
        )


def test_a_leaf_is_read_by_the_fitted_model_from_the_seats_own_view() -> None:
    model = load_leaf_model()
    assert model is not None
    for state, pos in _positions(4, True):
        me = pos.me
        got = chance.outcome(state, me, model=model)
        static = chance.outcome(state, me)
        assert sum(got.chances) == pytest.approx(1.0)
        assert got.chances == model.chances(pos, Evaluator(pos))
        assert got.chances != static.chances
        assert got.margin == static.margin  # the margin stays the static evaluation's
        # R-60: the other seats' unseen cards, dealt otherwise, change nothing.
        other = determinise(view_for(state, me), random.Random(7))
        assert chance.outcome(other, me, model=model) == got


def test_a_table_without_a_fit_reads_the_static_softmax() -> None:
    data = json.loads(MODEL_PATH.read_text())
    data["models"] = {k: m for k, m in data["models"].items() if k != "4x"}
    partial = LeafModel(data)
    assert not partial.covers(4, True)
    assert all(partial.covers(int(k[0]), k.endswith("x")) for k in data["models"])
    state, pos = next(_positions(4, True))
    assert chance.outcome(state, pos.me, model=partial) == chance.outcome(state, pos.me)


def test_a_model_fitted_on_other_inputs_is_refused() -> None:
    data = json.loads(MODEL_PATH.read_text())
    data["features"] = data["features"][:-1]
    with pytest.raises(ValueError):
        LeafModel(data)


def test_the_fitted_leaf_reaches_the_decision_and_stays_deterministic() -> None:
    record = greedy_game(4, 3, True)
    state = replay(record.options, record.seed, record.moves[:30])
    seat, action = record.moves[30]
    static = analyse_move(state, seat, action, 5, ReviewSettings(rounds=1, turns=1))
    fitted = analyse_move(state, seat, action, 5, FITTED)
    assert fitted == analyse_move(state, seat, action, 5, FITTED)
    if not fitted["forced"]:
        assert fitted["win"] != static["win"]
    view = view_for(state, seat)
    legal = legal_actions(state, seat)
    a = analyse_decision(view, legal, action, 5, 2, turns=1, model=load_leaf_model())
    b = analyse_decision(view, legal, action, 5, 2, turns=1, model=load_leaf_model())
    assert a == b


@pytest.mark.slow  # analyses a whole game
def test_the_document_names_the_fitted_leaf() -> None:
    doc = analyse_game(greedy_game(2, 6), FITTED)
    assert doc["settings"]["leaf"] == "fitted" and doc["settings"]["turns"] == 1
    plain = analyse_game(greedy_game(2, 6), ReviewSettings(rounds=1, turns=1))["settings"]
    assert "leaf" not in plain and plain["turns"] == 1


def test_the_fit_reads_who_won_and_beats_its_starting_point() -> None:
    points = game_points(2, False, 30000) + game_points(2, False, 30001)
    assert points and all(len(rows) == 2 for rows, _, _ in points)
    # every seat's view at the start of every turn: the seat to act is one who has not acted
    assert all(sum(r[SEAT_FEATURES.index("to_act")] for r in rows) == 1 for rows, _, _ in points)
    assert {v for _, v, _ in points} == {0, 1}
    assert {tuple(share) for _, _, share in points} <= {(1.0, 0.0), (0.0, 1.0), (0.5, 0.5)}
    coef = fit(points)
    assert len(coef) == len(SEAT_FEATURES) == 2 * len(COMPONENTS) + 2

    assert _loglik(points, coef) > _loglik(points, list(static_coef()))


def test_a_table_without_a_fit_keeps_the_experts_full_rollouts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    data = json.loads(MODEL_PATH.read_text())
    data["models"] = {k: m for k, m in data["models"].items() if k != "3x"}
    monkeypatch.setattr(game_module, "load_leaf_model", lambda: LeafModel(data))
    record = greedy_game(3, 3, True)
    state = replay(record.options, record.seed, record.moves[:25])
    judged = 0
    for seat, action in record.moves[25:33]:
        expert_own = analyse_move(state, seat, action, 5, ReviewSettings(rounds=1))
        assert analyse_move(state, seat, action, 5, FITTED) == expert_own
        # nor does the static leaf: `turns` is for leaves the fitted model reads
        static_cut = ReviewSettings(rounds=1, turns=1)
        assert analyse_move(state, seat, action, 5, static_cut) == expert_own
        judged += not expert_own["forced"]
        state, _ = apply(state, action, seat)
    assert judged >= 3

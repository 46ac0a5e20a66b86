"""The learned expert: its evaluation's inputs and model file, its search budget, its training."""

from __future__ import annotations

import json
import random

import pytest

from app.bots.evaluate import Evaluator
from app.bots.expert_learned import LearnedExpertBot, schedule
from app.bots.position import position_from_view
from app.bots.value import FEATURES, MODEL_PATH, ValueModel, features, load_models, model_key
from app.engine import legal_actions, to_act, view_for
from tools.train_expert import KEYS, fit, game_rows

from .conftest import mid_game


def test_the_shipped_model_covers_every_table_and_its_features() -> None:
    data = json.loads(MODEL_PATH.read_text())
    assert data["features"] == list(FEATURES)
    models = load_models()
    for key in ("2", "2x", "4", "4x"):  # the tables the targets are measured on
        _intercept, coef = models[key]
        assert len(coef) == len(FEATURES)
        assert any(c != 0 for c in coef)
    assert set(models) <= set(KEYS)


@pytest.mark.parametrize(("players", "expansion"), [(2, False), (4, True), (5, False)])
def test_features_come_from_the_view_and_name_every_input(players: int, expansion: bool) -> None:
    state = mid_game(players, 5, 25, expansion=expansion)
    seat = to_act(state)
    pos = position_from_view(view_for(state, seat))
    row = features(pos)
    assert len(row) == len(FEATURES)
    assert row[FEATURES.index("my_turn")] == 1.0
    other = position_from_view(view_for(state, (seat + 1) % players))
    assert features(other)[FEATURES.index("my_turn")] == 0.0
    assert 0.0 <= row[FEATURES.index("progress")] <= 1.0


def test_without_a_model_the_value_is_the_static_objective(tmp_path) -> None:
    state = mid_game(3, 6, 20)
    view = view_for(state, to_act(state))
    model = ValueModel(path=str(tmp_path / "none.json"))
    assert model.value(view) == Evaluator(position_from_view(view)).objective0
    fitted = ValueModel()
    key = model_key(3, False)
    if key in fitted.models:
        assert fitted.value(view) != model.value(view)


@pytest.mark.parametrize("k", range(2, 9))
@pytest.mark.parametrize("rounds", [1, 2, 6, 12])
def test_halving_never_spends_more_rollouts_than_the_baseline(k: int, rounds: int) -> None:
    stages = schedule(k, rounds)
    assert stages[0][0] == k
    assert [a for a, _ in stages] == sorted((a for a, _ in stages), reverse=True)
    assert all(r >= 1 for _, r in stages)
    assert sum(alive * r for alive, r in stages) <= rounds * k
    if rounds >= 6:
        assert stages[-1][0] == 2  # enough rounds: halved down to the best two


def test_learned_expert_spends_its_rounds_on_the_close_candidates() -> None:
    state = mid_game(2, 12, 30)
    seat = to_act(state)
    view, legal = view_for(state, seat), legal_actions(state, seat)
    bot = LearnedExpertBot(random.Random(3), budget_s=30.0, rounds=6)
    assert bot.choose(view, legal) in legal
    stats = bot.last_stats
    if stats.get("candidates", 0) > 2 and stats["rounds"] > 2:
        assert stats["alive"] < stats["candidates"]  # the worse ones were dropped on the way


def test_training_rows_are_reproducible_and_the_fit_recovers_a_line() -> None:
    assert game_rows(2, False, 99, 8) == game_rows(2, False, 99, 8)
    rng = random.Random(1)
    rows = []
    for _ in range(200):
        x = [rng.uniform(-5, 5), rng.uniform(0, 1)]
        rows.append((x, 3.0 * x[0] - 2.0 * x[1] + 1.0))
    m = fit(rows, ridge=1e-9)
    assert m["coef"] == pytest.approx([3.0, -2.0], abs=1e-3)
    assert m["intercept"] == pytest.approx(1.0, abs=1e-3)

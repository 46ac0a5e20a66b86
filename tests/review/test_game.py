"""The analysis of a whole game: determinism, forced moves, summaries, finished games only."""

from __future__ import annotations

import json
import random

import pytest

from app.bots.determinise import determinise
from app.engine import apply, legal_actions, replay, to_act, view_for
from app.review import GameRecord, NotFinished, ReviewSettings, analyse_game, decision_seed
from app.review.decision import analyse_decision, index_of
from app.review.game import PLURAL, analyse_move, analyse_moves, assemble
from app.review.labels import Thresholds, label

from .conftest import greedy_game

# What is checked here holds for any search: the smallest that still judges each move.
FAST = ReviewSettings(rounds=1, plies=8, sample=4)


@pytest.fixture(scope="module")
def analysis() -> dict:
    return analyse_game(greedy_game(), FAST)


@pytest.mark.slow  # analyses a whole game
def test_every_move_is_listed_and_judged_unless_forced(analysis: dict) -> None:
    record = greedy_game()
    assert [m["move"] for m in analysis["moves"]] == list(range(1, len(record.moves) + 1))
    state = replay(record.options, record.seed, [])
    for (seat, action), entry in zip(record.moves, analysis["moves"], strict=True):
        assert entry["seat"] == seat and entry["played"] == action
        forced = len(legal_actions(state, seat)) == 1
        assert entry["forced"] is forced
        if not forced:
            assert 0.0 <= entry["win"]["played"] <= entry["win"]["best"] <= 100.0
            assert entry["drop"] == pytest.approx(
                entry["win"]["best"] - entry["win"]["played"], abs=0.02
            )
            assert entry["label"] == label(entry["drop"], Thresholds())
            assert index_of(legal_actions(state, seat), entry["best"]) >= 0
            assert sum(entry["chances"]) == pytest.approx(100.0, abs=0.05)
        state, _ = apply(state, action, seat)
    assert state.over


@pytest.mark.slow  # shares the analysis of a whole game (the fixture)
def test_summary_counts_the_labels_of_each_player(analysis: dict) -> None:
    for summary in analysis["players"]:
        mine = [m for m in analysis["moves"] if m["seat"] == summary["seat"] and not m["forced"]]
        assert summary["decisions"] == len(mine) > 0
        for name in ("inaccuracy", "mistake", "blunder"):
            assert summary[PLURAL[name]] == sum(1 for m in mine if m["label"] == name)
        assert 0.0 <= summary["accuracy"] <= 100.0


@pytest.mark.slow  # analyses a whole game twice
def test_the_same_game_and_settings_give_the_same_analysis(analysis: dict) -> None:
    again = analyse_game(greedy_game(), FAST)
    assert json.dumps(again, sort_keys=True) == json.dumps(analysis, sort_keys=True)


def test_the_seed_of_a_decision_comes_from_the_game_id_and_the_move_number() -> None:
    seeds = {decision_seed(g, m) for g in ("1", "2") for m in (1, 2)}
    assert len(seeds) == 4
    assert decision_seed("7", 3) == decision_seed("7", 3)


def test_an_unfinished_game_is_refused_before_any_search() -> None:
    record = greedy_game()
    cut = GameRecord(record.game_id, record.options, record.seed, record.moves[:-1])
    calls = []
    with pytest.raises(NotFinished):
        analyse_game(cut, FAST, progress=lambda done, total: calls.append(done))
    assert calls == []


@pytest.mark.slow  # analyses a whole game
def test_progress_is_reported_move_by_move() -> None:
    record = greedy_game(2, 6)
    calls: list[tuple[int, int]] = []
    analyse_game(record, FAST, progress=lambda done, total: calls.append((done, total)))
    total = len(record.moves)
    assert calls == [(k, total) for k in range(1, total + 1)]


@pytest.mark.parametrize(("players", "expansion", "cut"), [(3, True, 25), (4, False, 30)])
def test_the_analysis_of_a_decision_ignores_the_other_seats_hidden_cards(
    players: int, expansion: bool, cut: int
) -> None:
    """R-60: another deal of everything the seat cannot see, consistent with its view, gives
    the same evaluation (the State is read only through the seat's view)."""
    record = greedy_game(players, 3, expansion)
    judged = 0
    for k in range(cut, cut + 8):
        state = replay(record.options, record.seed, record.moves[:k])
        seat, action = record.moves[k]
        assert seat == to_act(state)
        other = determinise(view_for(state, seat), random.Random(k))
        hidden = [(p.hand, p.reefs, p.treasures) for p in state.players if p.seat != seat]
        assert hidden != [(p.hand, p.reefs, p.treasures) for p in other.players if p.seat != seat]
        a = analyse_move(state, seat, action, 99, FAST)
        b = analyse_move(other, seat, action, 99, FAST)
        assert a == b
        judged += not a["forced"]
    assert judged >= 3


def test_the_played_action_must_be_legal() -> None:
    record = greedy_game()
    state = replay(record.options, record.seed, record.moves[:5])
    seat = to_act(state)
    with pytest.raises(ValueError, match="not among the legal"):
        wrong = {"type": "end_turn"}
        analyse_decision(view_for(state, seat), legal_actions(state, seat), wrong, 1, 1)


@pytest.mark.slow  # analyses a whole game twice
def test_an_analysis_cut_into_parts_is_the_same_analysis(analysis: dict) -> None:
    record = greedy_game()
    n = len(record.moves)
    parts = [analyse_moves(record, FAST, a, min(a + 17, n)) for a in range(0, n, 17)]
    entries = [e for part in parts for e in part]
    assert assemble(record, FAST, entries) == analysis


def test_a_take_back_is_listed_but_not_judged_R56() -> None:
    # The Ancestral head declared, then taken back (offered beside the legal actions): the
    # analysis goes on instead of failing on an action it could not find among them.
    from tests.engine.helpers import game

    state = game(players=3, expansion=True)
    declared, _ = apply(state, {"type": "use_ancestral"}, 0)
    entry = analyse_move(declared, 0, {"type": "take_back"}, 1, FAST)
    assert entry == {
        "seat": 0,
        "turn": declared.turn.number,
        "played": {"type": "take_back"},
        "forced": True,
        "taken_back": True,
    }


@pytest.mark.slow  # expert searches per square
def test_a_head_on_any_square_is_judged_as_the_listed_placement_R12() -> None:
    """People put the head where they like (R-12); the list names one head per placement, so a
    game played with every head on the Dragon's last square is judged move for move the same."""
    record = greedy_game()
    moved = [
        (seat, {**a, "head": a["cells"][-1]} if a["type"] == "place" else a)
        for seat, a in record.moves
    ]
    assert any(a != b for (_, a), (_, b) in zip(moved, record.moves, strict=True))
    elsewhere = GameRecord(record.game_id, record.options, record.seed, moved)
    n = 24
    listed = analyse_moves(record, FAST, 0, n)
    judged = analyse_moves(elsewhere, FAST, 0, n)
    for a, b, (_, action) in zip(listed, judged, moved[:n], strict=True):
        assert b["played"] == action
        assert {**a, "played": None} == {**b, "played": None}

"""Hints: the expert's move from the player's own view (R-60), with reasons read off the engine."""

from __future__ import annotations

import random
from collections.abc import Callable

from app.bots.hint import suggest
from app.engine import apply, legal_actions, view_for
from app.engine.preview import outcome
from app.infra.bot_pool import WorkerProcesses
from app.services.play.hints import hint_for
from app.settings import Settings
from tests.engine.helpers import game

IN_THREAD = WorkerProcesses(0)  # no processes: the search runs in the calling thread


def _settings(make_settings: Callable[..., Settings]) -> Settings:
    # A search capped by rounds, not time: the same hint on a busy machine as on an idle one.
    return make_settings("sqlite://", bot_processes=0, hint_budget_seconds=60.0, hint_rounds=2)


def _positions(expansion: bool, count: int = 3):
    """`count` positions where the seat to act places, a few random moves apart."""
    rng = random.Random(5)
    s = game(players=3, first=0, expansion=expansion)
    since = 4
    while count:
        if since >= 4 and s.turn.phase == "place" and not s.pending:
            yield s
            count -= 1
            since = 0
        s, _ = apply(s, rng.choice(legal_actions(s, s.turn.seat)), s.turn.seat)
        since += 1


def _hide_others(state, seat, rng):
    """The same position as `seat` sees it, every secret it may not see changed (R-60)."""
    s = state.clone()
    pool = [c for p in s.players if p.seat != seat for c in p.hand]
    for deck in ("S", "M", "L"):
        pool += s.decks[deck]
    rng.shuffle(pool)
    for p in s.players:
        if p.seat != seat:
            p.hand = [pool.pop() for _ in p.hand]
            p.reefs = list(reversed(p.reefs))
            p.treasures = list(reversed(p.treasures))
    for deck in ("S", "M", "L"):
        s.decks[deck] = [pool.pop() for _ in s.decks[deck]]
    for key in s.decks:
        if key not in ("S", "M", "L"):
            rng.shuffle(s.decks[key])
    return s


def test_the_hint_never_depends_on_hidden_cards_of_others_R60(make_settings) -> None:
    settings = _settings(make_settings)
    rng = random.Random(1)
    checked = 0
    for expansion in (False, True):
        for s in _positions(expansion):
            seat = s.turn.seat
            other = _hide_others(s, seat, rng)
            assert other.players[(seat + 1) % 3].hand != s.players[(seat + 1) % 3].hand or not (
                s.players[(seat + 1) % 3].hand
            )
            assert view_for(other, seat) == view_for(s, seat)
            a = hint_for(s, seat, 7, 3, settings, IN_THREAD)
            b = hint_for(other, seat, 7, 3, settings, IN_THREAD)
            assert a == b
            assert a["action"] in legal_actions(s, seat) and a["reasons"]
            checked += 1
    assert checked == 6


def test_the_reasons_are_the_engines_numbers(make_settings) -> None:
    settings = _settings(make_settings)
    s = next(_positions(False))
    seat = s.turn.seat
    hint = hint_for(s, seat, 1, 0, settings, IN_THREAD)
    if hint["action"]["type"] == "place":
        out = outcome(s, seat, hint["action"])
        said = " ".join(hint["reasons"])
        if out["cost"]:
            assert f"pays {out['cost']} Gold" in said
        if out["gold"]["total"]:
            assert f"gains {out['gold']['total']} Gold" in said
        if out["ships"]:
            assert f"takes {out['ships']} ship" in said
    else:
        assert hint["action"]["type"] == "pass"


def test_a_hint_thinks_in_a_worker_process_as_in_a_thread() -> None:
    s = next(_positions(False))
    seat = s.turn.seat
    args = (view_for(s, seat), legal_actions(s, seat), 60.0, 11, 1)
    workers = WorkerProcesses(1, 10)
    try:
        assert workers.run(120.0, suggest, *args) == suggest(*args)
    finally:
        workers.shutdown()

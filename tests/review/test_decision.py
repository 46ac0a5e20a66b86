"""A lead large enough for a label is confirmed on fresh worlds (the winner's curse)."""

from __future__ import annotations

import random

from app.bots.expert import candidates
from app.bots.greedy import Scorer
from app.engine import apply, legal_actions, new_game, view_for
from app.review.decision import _evaluate, analyse_decision, index_of

from .conftest import greedy_game


def _decisions(limit: int = 60):  # type: ignore[no-untyped-def]
    record = greedy_game(3, 8)
    state = new_game(record.options, record.seed)
    for seat, action in record.moves[:limit]:
        legal = legal_actions(state, seat)
        if len(legal) > 1:
            yield view_for(state, seat), legal, action
        state, _ = apply(state, action, seat)


def test_a_lead_is_reported_from_fresh_worlds_and_kept_only_if_it_holds() -> None:
    checked = 0
    for view, legal, played in _decisions():
        first = analyse_decision(view, legal, played, 7, 1)
        lead = first.drop
        if lead <= 0:
            continue
        confirmed = analyse_decision(view, legal, played, 7, 1, confirm_from=lead)
        # The same first stage, then the played and the best move on the next worlds of the rng.
        shortlist = candidates(view, legal, Scorer(view).score_all(legal))
        if index_of(legal, played) not in shortlist:
            shortlist.append(index_of(legal, played))
        rng = random.Random(7)
        _evaluate(view, legal, shortlist, rng, 1)
        again, _ = _evaluate(
            view, legal, [index_of(legal, played), index_of(legal, first.best.action)], rng, 1
        )
        assert confirmed.played == again[0]
        if (again[1].win, again[1].margin) > (again[0].win, again[0].margin):
            assert confirmed.best == again[1]
            assert confirmed.drop == max(0.0, 100 * (again[1].win - again[0].win))
        else:
            assert confirmed.best == again[0] and confirmed.drop == 0
        # Below the bar nothing is re-evaluated.
        assert analyse_decision(view, legal, played, 7, 1, confirm_from=lead + 0.01) == first
        checked += 1
        if checked >= 4:
            break
    assert checked >= 2

"""The engine's fast paths for the live fan-out give exactly what the plain functions give.

`legal_parts` (placements as masks, then the other actions) rebuilds `legal_actions`, and a
view built on `shared_view` (its standings shared by every viewer without a Hidden Dragon card)
equals a view whose standings and players are computed for that viewer alone (R-60).
"""

from __future__ import annotations

import random

import pytest

import app.engine as rules
from app.engine.legal import legal_parts, place_actions
from app.engine.majorities import holds_hidden_dragon, realm_standings
from app.engine.views import _player_view


def _positions(players: int, expansion: bool, seed: int):
    rng = random.Random(seed)
    state = rules.new_game(rules.GameOptions(players=players, expansion=expansion), seed)
    while not state.over:
        yield state
        seat = rules.to_act(state)
        state, _ = rules.apply(state, rng.choice(rules.legal_actions(state, seat)), seat)
    yield state


@pytest.mark.parametrize(
    ("players", "expansion", "seed"), [(2, False, 1), (4, False, 2), (3, True, 3), (5, True, 4)]
)
def test_legal_parts_rebuild_legal_actions(players: int, expansion: bool, seed: int) -> None:
    placements = 0
    for state in _positions(players, expansion, seed):
        for seat in (*range(players), None):
            places, others = legal_parts(state, seat)
            assert [*place_actions(places), *others] == rules.legal_actions(state, seat)
            placements += len(places)
    assert placements > 0  # the games did reach placements


@pytest.mark.parametrize(("players", "expansion", "seed"), [(4, False, 5), (3, True, 6)])
def test_shared_standings_and_players_equal_each_viewers_own(
    players: int, expansion: bool, seed: int
) -> None:
    hidden_seen = 0
    for state in _positions(players, expansion, seed):
        shared = rules.shared_view(state)
        for viewer in (*range(players), None):
            view = rules.view_for(state, viewer, shared)
            assert view["realms"] == realm_standings(state, viewer)
            assert view["players"] == [_player_view(state, s, viewer) for s in range(players)]
            assert view == rules.view_for(state, viewer)  # and with nothing shared
            if viewer is not None and holds_hidden_dragon(state, viewer) and not state.over:
                hidden_seen += 1
                assert view["realms"] is not shared["realms"]
    assert hidden_seen > 0  # a Hidden Dragon card was held: the viewer's own branch ran

"""The engine's fast paths for the live fan-out give exactly what the plain functions give.

`legal_parts` (placements as masks, then the other actions) rebuilds `legal_actions`, the
placement search tests every anchor of an orientation at once and finds what testing each
placement finds (R-21), and a view built on `shared_view` (its standings shared by every
viewer without a Hidden Dragon card) equals a view whose standings and players are computed
for that viewer alone (R-60).
"""

from __future__ import annotations

import random

import pytest

import app.engine as rules
from app.engine.content import content
from app.engine.legal import legal_parts, place_actions
from app.engine.majorities import holds_hidden_dragon, realm_standings
from app.engine.placement import region_for
from app.engine.shapes import fitting_placements, placements
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


def _one_by_one(shape: str, blocked: int, touch: int) -> list[int]:
    # R-21, placement by placement: no blocked square (own pieces' neighbours, the occupied,
    # the island), at least one square touching the island or another player's pieces.
    return [m for m in placements(shape) if not m & blocked and m & touch]


@pytest.mark.parametrize(("players", "expansion", "seed"), [(4, False, 3), (3, True, 6)])
def test_the_placement_search_finds_what_testing_each_placement_finds_R21(
    players: int, expansion: bool, seed: int
) -> None:
    """Every shape, at every position of a game, against the region of the seat to act."""
    shapes = sorted(set(content().pattern_shape.values()))
    tried = 0
    for state in _positions(players, expansion, seed):
        if state.over:
            continue
        region = region_for(state, state.turn.seat)
        for shape in shapes:
            found = fitting_placements(shape, region.blocked, region.touch)
            assert found == _one_by_one(shape, region.blocked, region.touch), shape
            tried += bool(found)
    assert tried > 100


def test_the_placement_search_on_arbitrary_regions_and_at_the_edges_R21() -> None:
    """Random regions (dense and sparse), and the edges: nothing blocked, everything blocked,
    touching only a corner or the last square, where a shifted row could wrap into the next."""
    rng = random.Random(4)
    full = (1 << 225) - 1
    regions = [(0, full), (full, full), (0, 0), (0, 1), (0, 1 << 224), (0, 1 << 14), (0, 1 << 210)]
    for _ in range(60):
        dense = rng.getrandbits(225) | rng.getrandbits(225)
        sparse = rng.getrandbits(225) & rng.getrandbits(225) & rng.getrandbits(225)
        regions.append((sparse, dense))
        regions.append((dense & sparse, sparse))
    for shape in sorted(content().shapes):
        for blocked, touch in regions:
            assert fitting_placements(shape, blocked, touch) == _one_by_one(shape, blocked, touch)
        assert fitting_placements(shape, 0, full) == list(placements(shape))

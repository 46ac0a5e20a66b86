"""Building exact positions for rule tests."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from app.engine import EngineError, GameOptions, State, apply, new_game, state_to_json
from app.engine.board import ISLAND, mask_of, neighbours, squares_of
from app.engine.content import content
from app.engine.shapes import placements
from app.engine.state import Dragon

LAYOUTS = ("1A", "2A", "3A", "4A")


def game(players: int = 4, seed: int = 7, first: int = 0, expansion: bool = False) -> State:
    """A new game on fixed layouts with a fixed first player."""
    opts = GameOptions(players=players, layouts=LAYOUTS, first_player=first, expansion=expansion)
    return new_game(opts, seed)


def put(state: State, owner: int, cells: list[tuple[int, int]], card: str = "M01") -> Dragon:
    """Put a Dragon on the board directly (no rules applied), as a test fixture."""
    d = Dragon(owner, tuple(sorted(cells)), cells[0], card)
    state.add_dragon(d)
    for sq in cells:
        state.ships_on_board.pop(sq, None)
    return d


def card_of_shape(shape: str) -> str:
    """Some Pattern card id with the given shape."""
    return next(cid for cid, s in content().pattern_shape.items() if s == shape)


def symbols(state: State, mask: int) -> dict[str, int]:
    """Counts of each board symbol under a mask."""
    b = state.board
    return {
        "W": (mask & b.whirlpools).bit_count(),
        "S": (mask & b.ship_spaces).bit_count(),
        "G": (mask & b.gold_spaces).bit_count(),
        "R": (mask & b.reef_spaces).bit_count(),
        "~": (mask & b.turbulent & ~b.whirlpools).bit_count(),
    }


def find_placement(state: State, shape: str, want: Callable[[dict[str, int], int], bool]) -> int:
    """The first placement mask of `shape` (away from the island) whose symbols satisfy `want`."""
    for m in placements(shape):
        if m & state.occupied or neighbours(m) & ISLAND:
            continue
        if want(symbols(state, m), m):
            return m
    raise AssertionError(f"no {shape} placement fits")


def ring(mask: int) -> list[tuple[int, int]]:
    """Empty-able squares orthogonally around a mask (never the island)."""
    return list(squares_of(neighbours(mask) & ~mask & ~ISLAND))


def cells(mask: int) -> list[list[int]]:
    """A mask as the JSON cell list of a place action."""
    return [list(sq) for sq in squares_of(mask)]


def place_action(card: str, mask: int) -> dict:
    """A place action for a card on a mask, head on its first square."""
    cs = cells(mask)
    return {"type": "place", "card": card, "cells": cs, "head": cs[0]}


def refused(state: State, action: dict, seat: int, code: str) -> EngineError:
    """Apply an action that must fail with `code`, and check it changed nothing."""
    before = state_to_json(state)
    with pytest.raises(EngineError) as err:
        apply(state, action, seat)
    assert err.value.code == code, err.value
    assert state_to_json(state) == before  # a refused action changes nothing
    return err.value


__all__ = ["mask_of"]

"""Treasures of the Deep (R-50..R-56): hooks the base rules call; inert in base games."""

from __future__ import annotations

import random
from typing import Any

from .content import content
from .errors import EngineError
from .shapes import same_shape
from .state import State


def setup_expansion(state: State, rng: random.Random) -> None:
    """Reward Board, arrows, bonus tiles, treasures, ancestral heads."""
    raise NotImplementedError


def check_shape(s: State, card: str, cells: tuple[tuple[int, int], ...]) -> None:
    """Raise illegal_placement unless `cells` are the card's shape (R-21)."""
    shape = content().shapes[content().pattern_shape[card]]
    if len(cells) != len(shape) or not same_shape(list(cells), shape):
        raise EngineError(
            "illegal_placement", f"place {card}: the squares are not the card's shape (R-21)"
        )


def on_ships_gained(s: State, seat: int, ships: list[str], events: list[dict[str, Any]]) -> None:
    """Advance tails for ships gained (R-50)."""


def same_deck_allowed(s: State) -> bool:
    """Whether this turn's draw may come from the played card's deck (a Hidden Treasure)."""
    return False


def may_widen_reef_draw(s: State) -> bool:
    """Whether the player may first choose to use the draw-4 Hidden Treasure."""
    return False


def materialise(s: State, front: dict[str, Any], events: list[dict[str, Any]]) -> bool:
    """Prepare an expansion pending choice; True when it resolved itself."""
    return False


def pending_actions(s: State, front: dict[str, Any]) -> list[dict[str, Any]]:
    """Answers to an expansion pending choice."""
    return []


def extend_placements(s: State, card: str, masks: list[int], region: Any) -> list[int]:
    """Placements widened by a Hidden Treasure effect."""
    return masks


def free_actions(s: State) -> list[dict[str, Any]]:
    """Expansion free actions on one's own turn."""
    return []


HANDLERS: dict[str, Any] = {}
PENDING_HANDLERS: dict[str, Any] = {}


def tail_scores(s: State) -> list[int]:
    """Bonus VP per seat from the tails on the Reward Board (R-53)."""
    return [0] * len(s.players)

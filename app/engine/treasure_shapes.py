"""Hidden Treasures that change a Dragon's shape (R-54): the extra body and the free shape."""

from __future__ import annotations

from .board import ISLAND, mask_of, neighbours
from .content import content
from .errors import EngineError
from .placement import EXTRA_BODY, FREE_SHAPE, Region
from .shapes import is_connected, placements, same_shape
from .state import State
from .text import t_


def check_shape(s: State, card: str, cells: tuple[tuple[int, int], ...]) -> None:
    """Raise illegal_placement unless `cells` fit the card's shape, given this turn's effects."""
    shape = content().shapes[content().pattern_shape[card]]
    sq = list(cells)
    if FREE_SHAPE in s.turn.effects:
        ok = len(sq) == len(shape) and is_connected(mask_of(sq))
    elif EXTRA_BODY in s.turn.effects and len(sq) == len(shape) + 1:
        ok = any(
            same_shape(sq[:i] + sq[i + 1 :], shape) and _touches(sq[i], sq[:i] + sq[i + 1 :])
            for i in range(len(sq))
        )
    else:
        ok = len(sq) == len(shape) and same_shape(sq, shape)
    if not ok:
        raise EngineError(
            "illegal_placement",
            t_("place {card}: the squares are not the card's shape (R-21, R-54)", card=card),
        )


def _touches(square: tuple[int, int], others: list[tuple[int, int]]) -> bool:
    r, c = square
    return any(abs(r - r2) + abs(c - c2) == 1 for r2, c2 in others)


def extend_placements(s: State, card: str, masks: list[int], region: Region) -> list[int]:
    """Placements under this turn's Hidden Treasure effect (extra body, free shape)."""
    effects = s.turn.effects
    if EXTRA_BODY not in effects and FREE_SHAPE not in effects:
        return masks
    shape_name = content().pattern_shape[card]
    found: set[int] = set()
    if FREE_SHAPE in effects:
        size = len(content().shapes[shape_name])
        for name, cells in content().shapes.items():
            if len(cells) == size:
                found.update(m for m in placements(name) if not m & region.blocked)
    else:
        found.update(masks)  # the plain shape stays legal: the extra body is optional
        free = ~region.blocked & ~ISLAND
        for m in placements(shape_name):
            if m & region.blocked:
                continue
            extra = neighbours(m) & ~m & free
            while extra:
                low = extra & -extra
                found.add(m | low)
                extra ^= low
    return sorted(m for m in found if m & region.touch)  # the caller filters affordability

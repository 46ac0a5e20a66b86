"""Pattern shapes (R-12) and every place each can lie on the board, precomputed as masks."""

from __future__ import annotations

from functools import cache

from .board import ISLAND, SIZE, mask_of
from .content import content

Shape = tuple[tuple[int, int], ...]


def _normalise(cells: list[tuple[int, int]]) -> Shape:
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    return tuple(sorted((r - r0, c - c0) for r, c in cells))


def orientations(shape: Shape) -> list[Shape]:
    """The distinct rotations and mirror images of a shape (R-21: rotate or mirror freely)."""
    seen: list[Shape] = []
    cells = list(shape)
    for mirrored in (False, True):
        cur = [(r, -c) for r, c in cells] if mirrored else cells
        for _ in range(4):
            cur = [(c, -r) for r, c in cur]
            norm = _normalise(cur)
            if norm not in seen:
                seen.append(norm)
    return seen


def same_shape(squares: list[tuple[int, int]], shape: Shape) -> bool:
    """Whether `squares` are the shape after some rotation or mirror."""
    return _normalise(list(squares)) in orientations(shape)


@cache
def placements(shape_name: str) -> tuple[int, ...]:
    """Every distinct mask the shape can cover on the board, avoiding the island."""
    shape = content().shapes[shape_name]
    masks: set[int] = set()
    for o in orientations(shape):
        height = max(r for r, _ in o) + 1
        width = max(c for _, c in o) + 1
        for r0 in range(SIZE - height + 1):
            for c0 in range(SIZE - width + 1):
                m = mask_of((r0 + r, c0 + c) for r, c in o)
                if not m & ISLAND:
                    masks.add(m)
    return tuple(sorted(masks))


def is_connected(mask: int) -> bool:
    """Whether the squares of a mask form one orthogonally connected group."""
    from .board import neighbours

    if not mask:
        return False
    region = mask & -mask
    while True:
        grown = (region | neighbours(region)) & mask
        if grown == region:
            return region == mask
        region = grown

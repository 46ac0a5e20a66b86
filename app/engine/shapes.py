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


# One orientation of a shape for `fitting_placements`: its mask at the board's corner, each
# square's bit offset from the anchor (its top-left corner), and the anchors at which it lies
# on the board off the island (as a mask of anchor squares).
_Orientation = tuple[int, tuple[int, ...], int]


@cache
def _orientation_tables(shape_name: str) -> tuple[_Orientation, ...]:
    tables = []
    for o in orientations(content().shapes[shape_name]):
        offsets = tuple(r * SIZE + c for r, c in o)
        base = mask_of(o)
        anchors = 0
        for m in placements(shape_name):
            low = (m & -m).bit_length() - 1  # an orientation's first square is its top row
            anchor = low - offsets[0]
            if anchor >= 0 and m == base << anchor:
                anchors |= 1 << anchor
        tables.append((base, offsets, anchors))
    return tuple(tables)


def fitting_placements(shape_name: str, blocked: int, touch: int) -> list[int]:
    """The masks of `placements(shape_name)` that cover no square of `blocked` and at least
    one of `touch`, in the same (ascending) order.

    Every anchor of an orientation is tested at once: the shape at anchor `a` covers square
    `a + offset` for each of its offsets, so `blocked >> offset` has bit `a` set exactly when
    that square is blocked. A few shifts of the board's integer per orientation replace a test
    per placement (several hundred to 1,352 of them per shape).
    """
    found = []
    for base, offsets, anchors in _orientation_tables(shape_name):
        free = anchors
        touching = 0
        for offset in offsets:
            free &= ~(blocked >> offset)
            touching |= touch >> offset
        good = free & touching
        while good:
            low = good & -good
            found.append(base << (low.bit_length() - 1))
            good ^= low
    found.sort()
    return found


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

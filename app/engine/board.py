"""Board geometry (R-01..R-07): squares, realms, and 225-bit masks.

A square (r, c) is bit r * 15 + c of a Python int, so a set of squares is one integer and a
placement check is a handful of integer operations.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache

SIZE = 15
CELLS = SIZE * SIZE
FULL = (1 << CELLS) - 1
CENTRE = 7

REALMS = ("starfish", "conch", "seahorse", "turtle")  # NW, NE, SE, SW
QUADRANT_ORIGIN = {"starfish": (0, 0), "conch": (0, 8), "seahorse": (8, 8), "turtle": (8, 0)}
# Quarter turns clockwise that bring a layout authored in the north-west orientation (inner
# corner bottom-right) to its quadrant.
QUADRANT_TURNS = {"starfish": 0, "conch": 1, "seahorse": 2, "turtle": 3}


def bit(r: int, c: int) -> int:
    """The mask of one square."""
    return 1 << (r * SIZE + c)


def mask_of(squares: Iterable[tuple[int, int]]) -> int:
    """The mask of a set of squares."""
    m = 0
    for r, c in squares:
        m |= 1 << (r * SIZE + c)
    return m


def squares_of(mask: int) -> Iterator[tuple[int, int]]:
    """The squares of a mask, in reading order."""
    while mask:
        low = mask & -mask
        i = low.bit_length() - 1
        yield divmod(i, SIZE)
        mask ^= low


def _column(c: int) -> int:
    return mask_of((r, c) for r in range(SIZE))


NOT_WEST_EDGE = FULL & ~_column(0)
NOT_EAST_EDGE = FULL & ~_column(SIZE - 1)


def neighbours(mask: int) -> int:
    """Squares orthogonally adjacent to any square of `mask` (may include `mask` itself)."""
    return (
        ((mask & NOT_EAST_EDGE) << 1)
        | ((mask & NOT_WEST_EDGE) >> 1)
        | ((mask << SIZE) & FULL)
        | (mask >> SIZE)
    )


ISLAND = mask_of([(7, 7), (6, 7), (8, 7), (7, 6), (7, 8)])
ISLAND_ADJACENT = neighbours(ISLAND) & ~ISLAND
CURRENTS = (mask_of((CENTRE, c) for c in range(SIZE)) | _column(CENTRE)) & ~ISLAND
OUTER_EDGE = mask_of(
    (r, c) for r in range(SIZE) for c in range(SIZE) if r in (0, SIZE - 1) or c in (0, SIZE - 1)
)
REALM_MASKS = {
    realm: mask_of((r0 + r, c0 + c) for r in range(7) for c in range(7))
    for realm, (r0, c0) in QUADRANT_ORIGIN.items()
}


def realm_of(r: int, c: int) -> str | None:
    """The realm holding a square, or None for currents and the island."""
    b = bit(r, c)
    for realm, m in REALM_MASKS.items():
        if b & m:
            return realm
    return None


def _rotate_layout(rows: tuple[str, ...], turns: int) -> list[str]:
    grid = [list(row) for row in rows]
    for _ in range(turns % 4):
        # one quarter turn clockwise: new[r][c] = old[6 - c][r]
        grid = [[grid[6 - c][r] for c in range(7)] for r in range(7)]
    return ["".join(row) for row in grid]


@dataclass(frozen=True)
class Board:
    """The printed board for one game: which layout lies in which quadrant, and symbol masks."""

    layouts: tuple[str, ...]  # layout id per realm, in REALMS order
    whirlpools: int
    ship_spaces: int
    gold_spaces: int
    reef_spaces: int

    @property
    def turbulent(self) -> int:
        """Squares that cost 2 Gold to cover: Whirlpools and Sea Currents (R-03, R-22)."""
        return self.whirlpools | CURRENTS

    def symbol_rows(self) -> list[str]:
        """The board as 15 strings: I island, ~ current, W, S (ship space), G, R, . open."""
        return list(_symbol_rows(self))


@lru_cache(maxsize=256)
def _symbol_rows(board: Board) -> tuple[str, ...]:
    # A printed board never changes during a game, and every view shows it: draw it once.
    rows = []
    for r in range(SIZE):
        row = []
        for c in range(SIZE):
            b = bit(r, c)
            if b & ISLAND:
                row.append("I")
            elif b & CURRENTS:
                row.append("~")
            elif b & board.whirlpools:
                row.append("W")
            elif b & board.ship_spaces:
                row.append("S")
            elif b & board.gold_spaces:
                row.append("G")
            elif b & board.reef_spaces:
                row.append("R")
            else:
                row.append(".")
        rows.append("".join(row))
    return tuple(rows)


def build_board(layouts: tuple[str, ...], printed: dict[str, tuple[str, ...]]) -> Board:
    """Assemble the board from one layout id per realm (REALMS order), rotating each (R-05)."""
    symbols = {"W": 0, "S": 0, "G": 0, "R": 0}
    for realm, layout_id in zip(REALMS, layouts, strict=True):
        rows = _rotate_layout(printed[layout_id], QUADRANT_TURNS[realm])
        r0, c0 = QUADRANT_ORIGIN[realm]
        for r, row in enumerate(rows):
            for c, ch in enumerate(row):
                if ch in symbols:
                    symbols[ch] |= bit(r0 + r, c0 + c)
    return Board(
        layouts=tuple(layouts),
        whirlpools=symbols["W"],
        ship_spaces=symbols["S"],
        gold_spaces=symbols["G"],
        reef_spaces=symbols["R"],
    )

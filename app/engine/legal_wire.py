"""Legal actions on the wire: a compact form for sockets, and its exact expansion.

The engine's own function (not the sockets'): it is built from the engine's placement masks and
heads (`legal_hand`, `realm_heads`), which stay private to the engine.

A seat's placements are most of its legal actions, and most of their bytes: each lists its four
to six squares. On the socket they travel grouped by card and orientation, as the orientation's
squares once (relative to an anchor) and then only the anchors, so the list's JSON shrinks
about fourfold (docs/protocol.md) and the client rebuilds every action exactly (`expand_legal`,
and its JS twin in static/js/lib/legal.mjs). Everything else is sent as it is.

    {"place": [{"base": {"type": "place", "card": "M21"},
                "cells": [[0, 0], [0, 1], [1, 1], [1, 2]],
                "at": [[3, 9], [4, 2, 1], ...]}],        # [row, col] or [row, col, head index]
     "other": [{"type": "pass", ...}, ...]}

An anchor without a head index puts the head on the first square of `cells`.

`packed_legal` builds this form straight from the engine's placement masks (`legal_parts`),
without building the action dicts first; it equals `pack_legal(legal_actions(...))` exactly
(tests/engine/test_legal_wire.py pins the two together over whole random games).
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from .board import SIZE, mask_of
from .legal import (
    HandMasks,
    legal_hand,
    legal_parts,
    place_actions,
    realm_heads,
    squares_of_mask,
)

Json = dict[str, Any]


def packed_legal(state: Any, seat: int | None) -> Json | None:
    """The compact form of `seat`'s legal actions now (None when it has none)."""
    hand, ancestral, others = legal_hand(state, seat)
    if not hand and not others:
        return None
    rest = pack_legal(others)
    if rest["place"]:
        # Another kind of action with squares (none today): keep the one exact ordering.
        places, _others = legal_parts(state, seat)
        return pack_legal([*place_actions(places), *others])
    place = _pack_realm_heads(hand) if ancestral else _pack_first_heads(hand)
    return {"place": place, "other": rest["other"]}


# A placement mask's entry in the compact form: the id of its shape relative to its anchor,
# and the anchor [row, col] (the head on the first square). Masks come from fixed tables, so
# these are bounded by the board's geometry (every shape in every place); documents are never
# modified once built, so the anchor lists are shared between them.
_ANCHORS: dict[int, tuple[int, list[int]]] = {}
_SHAPES: dict[int, int] = {}  # a shape as a mask at the board's corner -> its id
_SHAPE_CELLS: list[list[list[int]]] = []
COLUMNS = [mask_of((r, c) for r in range(SIZE)) for c in range(SIZE)]


def _anchor(mask: int) -> tuple[int, list[int]]:
    found = _ANCHORS.get(mask)
    if found is None:
        # The anchor is the top row and the left column; shifted there, the mask is the shape.
        r0 = ((mask & -mask).bit_length() - 1) // SIZE
        c0 = next(c for c in range(SIZE) if mask & COLUMNS[c])
        shape = mask >> (r0 * SIZE + c0)
        shape_id = _SHAPES.get(shape)
        if shape_id is None:
            shape_id = _SHAPES[shape] = len(_SHAPE_CELLS)
            _SHAPE_CELLS.append([[r - r0, c - c0] for r, c in squares_of_mask(mask)])
        found = _ANCHORS[mask] = (shape_id, [r0, c0])
    return found


def _pack_first_heads(hand: HandMasks) -> list[Json]:
    """Placements with the head on the first square: one anchor each, grouped by card and
    shape in the order the legal actions list them."""
    groups: dict[tuple[str, int], list[list[int]]] = {}
    anchor = _anchor
    for card, masks in hand:
        for mask in masks:
            shape_id, at = _ANCHORS.get(mask) or anchor(mask)
            key = (card, shape_id)
            group = groups.get(key)
            if group is None:
                groups[key] = [at]
            else:
                group.append(at)
    return [
        {
            "base": {"type": "place", "card": card},
            "cells": [list(cell) for cell in _SHAPE_CELLS[shape_id]],
            "at": ats,
        }
        for (card, shape_id), ats in groups.items()
    ]


def _pack_realm_heads(hand: HandMasks) -> list[Json]:
    """Placements with one head per realm (the Ancestral head): an anchor per head."""
    groups: dict[tuple[str, int], list[list[int]]] = {}
    for card, masks in hand:
        for mask in masks:
            shape_id, at = _anchor(mask)
            squares = squares_of_mask(mask)
            anchors = groups.setdefault((card, shape_id), [])
            for head in realm_heads(mask):
                h = squares.index(head)
                anchors.append(at if h == 0 else [*at, h])
    return [
        {
            "base": {"type": "place", "card": card},
            "cells": [list(cell) for cell in _SHAPE_CELLS[shape_id]],
            "at": ats,
        }
        for (card, shape_id), ats in groups.items()
    ]


def pack_legal(actions: list[Json]) -> Json:
    """The compact form of a list of legal actions."""
    groups: dict[tuple[Any, ...], Json] = {}
    other: list[Json] = []
    for action in actions:
        cells = action.get("cells")
        head = action.get("head")
        if not cells or head is None or head not in cells:
            other.append(action)  # not a placement we can encode: sent as it is
            continue
        r0, c0, shape = _anchored(tuple(map(tuple, cells)))
        if len(action) == 4 and "type" in action and "card" in action:
            # The common `place` action: its other fields are known without a scan.
            rest: tuple[Any, ...] = (("type", action["type"]), ("card", action["card"]))
        else:
            rest = tuple((k, v) for k, v in action.items() if k != "cells" and k != "head")
        try:
            key: tuple[Any, ...] = (rest, shape)
            group = groups.get(key)
        except TypeError:  # an unhashable field value: key by its JSON text instead
            key = (json.dumps(rest, sort_keys=True), shape)
            group = groups.get(key)
        if group is None:
            group = groups[key] = {"base": dict(rest), "cells": [list(s) for s in shape], "at": []}
        h = cells.index(head)
        group["at"].append([r0, c0] if h == 0 else [r0, c0, h])
    return {"place": list(groups.values()), "other": other}


@lru_cache(maxsize=1 << 16)
def _anchored(cells: tuple[tuple[int, int], ...]) -> tuple[int, int, tuple[tuple[int, int], ...]]:
    """A set of squares as its anchor (top row, left column) and its shape relative to it.

    Placements come from fixed tables, so the same few thousand square sets recur all game.
    """
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    return r0, c0, tuple((r - r0, c - c0) for r, c in cells)


def expand_legal(packed: Json | list[Json] | None) -> list[Json]:
    """The full list of legal actions from the compact form (a plain list passes through)."""
    if packed is None:
        return []
    if isinstance(packed, list):
        return packed
    out: list[Json] = []
    for group in packed.get("place", ()):
        shape = group["cells"]
        for at in group["at"]:
            r0, c0 = at[0], at[1]
            cells = [[r0 + dr, c0 + dc] for dr, dc in shape]
            head = cells[at[2] if len(at) > 2 else 0]
            out.append({**group["base"], "cells": cells, "head": head})
    out.extend(packed.get("other", ()))
    return out

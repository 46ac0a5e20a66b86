"""Legal actions on the wire: a compact form for sockets, and its exact expansion.

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
(tests/realtime/test_units.py pins the two together over whole random games).
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from app.engine.legal import Placement, legal_parts, place_actions, squares_of_mask

Json = dict[str, Any]


def packed_legal(state: Any, seat: int | None) -> Json | None:
    """The compact form of `seat`'s legal actions now (None when it has none)."""
    places, others = legal_parts(state, seat)
    if not places and not others:
        return None
    rest = pack_legal(others)
    if rest["place"]:
        # Another kind of action with squares (none today): keep the one exact ordering.
        return pack_legal([*place_actions(places), *others])
    return {"place": _pack_places(places), "other": rest["other"]}


def _pack_places(places: list[Placement]) -> list[Json]:
    groups: dict[tuple[str, tuple[tuple[int, int], ...]], Json] = {}
    for card, mask, heads in places:
        shape, anchors = _mask_anchors(mask, heads)
        group = groups.get((card, shape))
        if group is None:
            group = groups[card, shape] = {
                "base": {"type": "place", "card": card},
                "cells": [list(s) for s in shape],
                "at": [],
            }
        group["at"].extend(anchors)
    return list(groups.values())


@lru_cache(maxsize=1 << 16)
def _mask_anchors(
    mask: int, heads: tuple[tuple[int, int], ...]
) -> tuple[tuple[tuple[int, int], ...], tuple[list[int], ...]]:
    """A placement's shape relative to its anchor, and one anchor entry per head (as
    `pack_legal` writes them). Documents are never modified once built, so the anchor lists
    may be shared between them."""
    squares = squares_of_mask(mask)
    r0, c0, shape = _anchored(squares)
    anchors = []
    for head in heads:
        h = squares.index(head)
        anchors.append([r0, c0] if h == 0 else [r0, c0, h])
    return shape, tuple(anchors)


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

"""The compact wire form of the legal actions (app/engine/legal_wire.py): built straight from
the engine's placement masks, it equals packing the listed actions, and expands back to them
exactly (the sockets send it; the client's twin is static/js/lib/legal.mjs)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import app.engine as rules
from app.engine import expand_legal, pack_legal, packed_legal


def canonical(actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Legal actions in one order (sorted by their JSON), to compare lists from two paths."""
    return sorted(actions, key=lambda a: json.dumps(a, sort_keys=True))


@pytest.mark.parametrize(
    ("players", "expansion", "seed"), [(4, False, 1), (4, True, 2), (3, True, 4)]
)
def test_compact_legal_from_the_masks_equals_packing_the_actions(
    players: int, expansion: bool, seed: int
) -> None:
    """The fan-out's fast path (packed straight from the engine's placement masks) against the
    slow one it replaces (every action dict built, then packed), at every decision of a game,
    Ancestral heads (one anchor per realm, R-56) included."""
    rng = random.Random(seed)
    state = rules.new_game(rules.GameOptions(players=players, expansion=expansion), seed)
    heads = 0
    while not state.over:
        seat = rules.to_act(state)
        actions = rules.legal_actions(state, seat)
        for viewer in range(players):
            slow = rules.legal_actions(state, viewer)
            assert packed_legal(state, viewer) == (pack_legal(slow) if slow else None)
        packed = packed_legal(state, seat)
        heads += sum(len(at) == 3 for g in (packed or {}).get("place", ()) for at in g["at"])
        state, _ = rules.apply(state, rng.choice(actions), seat)
    assert not expansion or heads > 0  # an Ancestral placement with several heads came up


def test_compact_legal_actions_keep_every_field_and_head() -> None:
    actions = [
        {"type": "place", "card": "M1", "cells": [[3, 4], [3, 5], [4, 5]], "head": [3, 4]},
        {"type": "place", "card": "M1", "cells": [[5, 1], [5, 2], [6, 2]], "head": [6, 2]},
        {"type": "place", "card": "M1", "cells": [[0, 0], [0, 1]], "head": [0, 1], "extra": True},
        {"type": "place", "card": "M2", "cells": [[1, 1]], "head": [9, 9]},  # head off the cells
        {"type": "pass", "discard": "M1", "draw": "S"},
    ]
    packed = pack_legal(actions)
    assert len(packed["place"]) == 2 and len(packed["other"]) == 2
    assert canonical(expand_legal(json.loads(json.dumps(packed)))) == canonical(actions)
    assert expand_legal(None) == [] and expand_legal(actions) == actions

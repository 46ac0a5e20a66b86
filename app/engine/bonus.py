"""Bonus tiles at the end of the Reward Board tracks (R-53): each tail's VP."""

from __future__ import annotations

from typing import Any

from .board import OUTER_EDGE, REALM_MASKS, REALMS
from .content import content, expansion_content
from .state import State

TRACKS = ("green", "purple", "red")


def _tile_raw(s: State, seat: int, tile: dict[str, Any]) -> int:
    from .scoring import gold_vp, mission_vp, realm_presence  # scoring imports this module

    p = s.players[seat]
    per = tile["values"][0 if len(s.players) <= 3 else 1]
    kind = tile["kind"]
    dragons = [d for d in s.dragons if d.owner == seat]
    if kind == "treasures":
        return per * p.treasures_acquired
    if kind == "half_missions":
        return mission_vp(s, seat) // 2
    if kind == "two_realm_dragons":
        return per * sum(
            1 for d in dragons if sum(1 for m in REALM_MASKS.values() if d.mask & m) >= 2
        )
    if kind == "least_used_deck":
        decks = content().pattern_deck
        return per * min(sum(1 for c in p.played if decks[c] == d) for d in ("S", "M", "L"))
    if kind == "weakest_realm":
        return per * min(realm_presence(s, r).get(seat, (0, 0))[0] for r in REALMS)
    if kind == "half_gold":
        return gold_vp(s, seat) // 2
    if kind == "outer_edge":
        return per * sum(1 for d in dragons if d.mask & OUTER_EDGE)
    if kind == "reefs":
        return per * p.reefs_acquired
    raise ValueError(f"unknown bonus tile kind {kind}")


def tail_score(s: State, seat: int, track: str) -> int:
    """One tail's bonus VP: the tile in full at A, half (rounded down) from B (R-53)."""
    tile = expansion_content().bonus_tiles[s.reward["bonus"][track]]
    pos = s.players[seat].tails[track]
    full = min(20, _tile_raw(s, seat, tile))
    if pos >= s.reward["length"]:
        return full
    if pos >= s.reward["milestone"]:
        return full // 2
    return 0


def tail_scores(s: State) -> list[int]:
    """Bonus VP per seat from the three tails (R-53)."""
    return [sum(tail_score(s, seat, t) for t in TRACKS) for seat in range(len(s.players))]

"""Bonus tiles at the end of the Reward Board tracks (R-53): each tail's VP."""

from __future__ import annotations

from typing import Any

from .board import OUTER_EDGE, REALM_MASKS, REALMS
from .content import content, expansion_content
from .state import State

TRACKS = ("green", "purple", "red")


def tile_value(tile: dict[str, Any], players: int) -> int:
    """The VP a Bonus tile pays per item counted at a table of `players` (R-53): the printed
    tile's first value up to 3 players, its second from 4."""
    return tile["values"][0 if players <= 3 else 1]


def _tile_raw(s: State, seat: int, tile: dict[str, Any]) -> int:
    from .scoring import gold_vp, mission_vp, realm_presence  # scoring imports this module

    p = s.players[seat]
    per = tile_value(tile, len(s.players))
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


def tail_detail(s: State, seat: int, track: str) -> dict[str, Any]:
    """One tail's bonus (R-53): the tile, its value for this player (capped at 20), whether the
    tail reached A (`full`) or only B (`half`), and the VP it scores."""
    tile_id = s.reward["bonus"][track]
    tile = expansion_content().bonus_tiles[tile_id]
    pos = s.players[seat].tails[track]
    value = min(20, _tile_raw(s, seat, tile))
    full = pos >= s.reward["length"]
    half = not full and pos >= s.reward["milestone"]
    vp = value if full else value // 2 if half else 0
    return {"track": track, "bonus": tile_id, "tile": value, "full": full, "half": half, "vp": vp}


def tail_score(s: State, seat: int, track: str) -> int:
    """One tail's bonus VP: the tile in full at A, half (rounded down) from B (R-53)."""
    return tail_detail(s, seat, track)["vp"]


def tail_scores(s: State) -> list[int]:
    """Bonus VP per seat from the three tails (R-53)."""
    return [sum(tail_score(s, seat, t) for t in TRACKS) for seat in range(len(s.players))]

"""Treasures of the Deep for the evaluation: Reward Board tails, Bonus tiles, Hidden Treasures.

Everything is read from the view (`view["reward"]`, each seat's public tails and counts). A tail
is worth the expected VP of its track's Bonus tile (R-53): the tile's projected raw VP for the
seat (capped at 20) times the chance-weighted share the tail will end on (1 at A, 1/2 from B).
A step along a track is worth that change plus the space's reward: Gold, a Hidden Treasure draw,
or the chained step of an Arrow (R-51, R-52).
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any

from app.engine import BONUS_TILE_CAP, TRACKS, tile_per
from app.engine.board import OUTER_EDGE
from app.engine.content import DECKS, content, expansion_content

from .position import REALM_LIST, Position

Json = dict[str, Any]
CAP = float(BONUS_TILE_CAP)
ADVANCE_RATE = 0.4  # expected tail steps per track per remaining head (ships, blue, reefs)
TREASURE_DRAW = 2.5  # a Hidden Treasure space: keep the better of two cards (plus its tile)
# What holding a Hidden Treasure is worth while turns remain: the gain of using it well once.
KEEP = {
    "reef4": 1.0,
    "no_cost": 2.5,
    "triple_gold": 2.0,
    "extra_body": 2.0,
    "free_shape": 2.5,
    "convert": 1.5,
    "contact_gold": 2.0,
    "same_deck": 0.5,
    "any_tail": 1.0,
    "two_missions": 1.5,
}
MEAN_KEEP = sum(KEEP.values()) / len(KEEP)


@cache
def effect_of(card: str) -> str:
    """A Hidden Treasure's effect name."""
    return expansion_content().treasures[card]


def keep_factor(heads: int) -> float:
    """Share of a held treasure's worth still reachable: nothing once no head is left to place."""
    return min(1.0, max(0, heads - 1) / 3) if heads > 0 else 0.0


class Reward:
    """Tail and treasure values of every seat in one Position."""

    def __init__(self, pos: Position) -> None:
        self.pos = pos
        r = pos.view["reward"]
        self.length: int = r["length"]
        self.milestone: int = r["milestone"]
        self.spaces: dict[str, list[str]] = r["spaces"]
        self.arrows: dict[str, dict[str, str]] = r["arrows"]
        self.tiles = {t: expansion_content().bonus_tiles[r["bonus"][t]] for t in TRACKS}
        self.pv = pos.view["players"]
        self.tails = [dict(p["tails"]) for p in self.pv]
        self.proj = [{t: self.projected_raw(s, t) for t in TRACKS} for s in range(pos.n)]
        self.values = [self.tails_value(s, self.tails[s]) for s in range(pos.n)]

    # --- Bonus tiles ---------------------------------------------------------------------------

    def per(self, track: str) -> float:
        """The tile's VP per counted item with this player count (R-53)."""
        return float(tile_per(self.tiles[track], self.pos.n))

    def projected_raw(self, seat: int, track: str) -> float:
        """The tile's raw VP for the seat at the end, projected from now (uncapped)."""
        pos = self.pos
        p = pos.players[seat]
        pv = self.pv[seat]
        left = p.heads
        placed = len(p.dragon_masks)
        kind = self.tiles[track]["kind"]
        per = self.per(track)

        def rate(count: int, prior: float) -> float:
            return count + (count / placed if placed >= 3 else prior) * left

        if kind == "treasures":
            return per * (pv["treasures_acquired"] + 0.15 * left)
        if kind == "reefs":
            return per * (pv["reefs_acquired"] + 0.3 * left)
        if kind == "half_missions":
            vp = sum(content().missions[m].vp for m in p.missions)
            return (vp + 1.5 * left) / 2
        if kind == "half_gold":
            return (p.gold + 0.5 * left) / 2
        if kind == "two_realm_dragons":
            two = sum(1 for m in p.dragon_masks if sum(1 for r in REALM_LIST if m & r) >= 2)
            return per * rate(two, 0.3)
        if kind == "outer_edge":
            return per * rate(sum(1 for m in p.dragon_masks if m & OUTER_EDGE), 0.3)
        if kind == "least_used_deck":
            decks = content().pattern_deck
            played = pv["played"]
            return per * min(sum(1 for c in played if decks[c] == d) + 0.25 * left for d in DECKS)
        if kind == "weakest_realm":
            counts = [sum(1 for m in p.dragon_masks if m & r) for r in REALM_LIST]
            return per * min(c + 0.2 * left for c in counts)
        return 0.0

    # --- tails ---------------------------------------------------------------------------------

    def share(self, seat: int, pos_on_track: int) -> float:
        """Expected share of the tile the tail will score, given the seat's remaining heads."""
        length, mile = self.length, self.milestone
        if pos_on_track >= length:
            return 1.0
        e = ADVANCE_RATE * self.pos.players[seat].heads

        def reach(d: int) -> float:
            if e <= 0:
                return 0.0
            return 1 / (1 + math.exp(-(e - d + 0.5) / (0.6 * math.sqrt(e) + 0.3)))

        full = reach(length - pos_on_track)
        if pos_on_track >= mile:
            return 0.5 + 0.5 * full
        return 0.5 * reach(mile - pos_on_track) + 0.5 * full

    def tails_value(self, seat: int, tails: dict[str, int]) -> float:
        """Expected Bonus tile VP of a seat's three tails."""
        return sum(min(CAP, self.proj[seat][t]) * self.share(seat, tails[t]) for t in TRACKS)

    def advance(self, seat: int, tails: dict[str, int], track: str) -> float:
        """Move a tail one space in `tails` (arrows chain); returns the spaces' immediate VP."""
        pos = tails[track]
        if pos >= self.length:
            return 0.0
        pos += 1
        tails[track] = pos
        space = self.spaces[track][pos - 1]
        if space.startswith("g"):
            return float(space[1:])
        if space == "T":
            return TREASURE_DRAW * max(0.3, keep_factor(self.pos.players[seat].heads)) + (
                self._tile_item(seat, "treasures", tails)
            )
        if space == "A":
            colour = self.arrows[track].get(str(pos))
            if colour:
                return self.advance(seat, tails, colour)
        return 0.0

    def _tile_item(self, seat: int, kind: str, tails: dict[str, int]) -> float:
        """VP one more counted item adds through the tiles of that kind (treasures, reefs)."""
        out = 0.0
        for t in TRACKS:
            if self.tiles[t]["kind"] == kind:
                raw = self.proj[seat][t]
                gain = min(CAP, raw + self.per(t)) - min(CAP, raw)
                out += gain * self.share(seat, tails[t])
        return out

    def gain(self, seat: int, tracks: tuple[str, ...]) -> float:
        """VP change of advancing these tails in order; "blue" takes the best open track."""
        tails = dict(self.tails[seat])
        now = 0.0
        for t in tracks:
            if t == "blue":
                t = self.best_track(seat, tails)
                if t is None:
                    continue
            now += self.advance(seat, tails, t)
        return now + self.tails_value(seat, tails) - self.values[seat]

    def best_track(self, seat: int, tails: dict[str, int]) -> str | None:
        """The open track whose next step is worth most."""
        best, best_v = None, -1e9
        base = self.tails_value(seat, tails)
        for t in TRACKS:
            if tails[t] >= self.length:
                continue
            trial = dict(tails)
            v = self.advance(seat, trial, t) + self.tails_value(seat, trial) - base
            if v > best_v:
                best, best_v = t, v
        return best

    def place_tile_gain(self, seat: int, mask: int) -> float:
        """Tile VP one more Dragon on `mask` adds (two realms, outer edge, weakest realm)."""
        p = self.pos.players[seat]
        out = 0.0
        for t in TRACKS:
            kind = self.tiles[t]["kind"]
            if kind == "two_realm_dragons":
                hit = sum(1 for r in REALM_LIST if mask & r) >= 2
            elif kind == "outer_edge":
                hit = bool(mask & OUTER_EDGE)
            elif kind == "weakest_realm":
                counts = [sum(1 for m in p.dragon_masks if m & r) for r in REALM_LIST]
                low = min(counts)
                hit = all(mask & r for r, c in zip(REALM_LIST, counts, strict=True) if c == low)
            else:
                continue
            if hit:
                raw = self.proj[seat][t]
                out += (min(CAP, raw + self.per(t)) - min(CAP, raw)) * self.share(
                    seat, self.tails[seat][t]
                )
        return out

    # --- treasures held ----------------------------------------------------------------------

    def treasures_value(self, seat: int) -> float:
        """Hidden Treasures held: known ones by effect, an opponent's at the mean."""
        pv = self.pv[seat]
        f = keep_factor(self.pos.players[seat].heads)
        if pv.get("treasures") is not None:
            return f * sum(KEEP[effect_of(c)] for c in pv["treasures"])
        return f * MEAN_KEEP * pv.get("treasure_count", 0)

    def seat_value(self, seat: int) -> float:
        """Tails plus Hidden Treasures held."""
        return self.values[seat] + self.treasures_value(seat)

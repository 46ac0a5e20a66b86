"""The content the engine ships to the client (/content.json): what is printed on the cards and
boards, plus the few rule constants the client shows or orders by, so it keeps no copy of its own.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from .bonus import tile_per
from .content import TRACKS, content, expansion_content
from .state import MAX_PLAYERS, MIN_PLAYERS
from .tally import reef_vp


@cache
def client_content() -> dict[str, Any]:
    """The printed card data the client needs to draw cards (shapes, missions, reefs), the
    Reward Board's tracks in order (R-50), and each Reef card's VP while held (R-40)."""
    c = content()
    x = expansion_content()
    return {
        "shapes": {k: [list(sq) for sq in v] for k, v in c.shapes.items()},
        "pattern_shape": dict(c.pattern_shape),
        "pattern_deck": dict(c.pattern_deck),
        "missions": {
            k: {"ships": m.ships, "vp": m.vp, "reef": m.reef} for k, m in c.missions.items()
        },
        "reefs": {
            k: {
                "kind": r.kind,
                "ships": list(r.ships),
                "realm": r.realm,
                "gold": r.gold,
                "tracks": list(r.tracks),
                "vp": reef_vp(r),
            }
            for k, r in c.reefs.items()
        },
        # Treasures of the Deep: what each Hidden Treasure does, and the Bonus tiles' text.
        "treasures": dict(x.treasures),
        "bonus_tiles": {
            k: {
                "kind": t["kind"],
                "values": t["values"],
                "text": t["text"],
                # What the tile pays per item at each player count, as the engine scores it,
                # so a table shows its own value only.
                "vp": {str(n): tile_per(t, n) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)},
            }
            for k, t in x.bonus_tiles.items()
        },
        "tracks": list(TRACKS),
    }

"""A bot's picture of the game, built only from `view_for(state, seat)` (public info + own hand).

Squares are engine masks (bit r * 15 + c), so the evaluation is a few integer operations per
candidate placement.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.engine.board import (
    ISLAND,
    ISLAND_ADJACENT,
    REALM_MASKS,
    REALMS,
    Board,
    mask_of,
    neighbours,
)
from app.engine.content import SHIP_COLOURS, content
from app.engine.state import HEADS_BY_PLAYERS, board_for

Json = dict[str, Any]


@dataclass
class Seen:
    """What the bot knows of one seat; `hand`/`reefs` are None for other seats (R-60)."""

    seat: int
    gold: int
    heads: int
    ships: dict[str, int]
    missions: list[str]
    hand_count: int
    reef_count: int
    hand: list[str] | None
    reefs: list[str] | None
    pieces: int = 0
    dragon_masks: list[int] = field(default_factory=list)


@dataclass
class Position:
    """The public position plus the viewer's own secrets, as masks and counts."""

    view: Json
    me: int
    n: int
    board: Board
    players: list[Seen]
    occupied: int
    ship_at: dict[int, str]  # square bit -> ship colour still on the board
    ship_mask: int
    market_missions: list[str]
    heads_total: int
    heads_left: int

    @property
    def progress(self) -> float:
        """Share of all heads already spent: 0 at the start, 1 at the end."""
        return 1.0 - self.heads_left / self.heads_total if self.heads_total else 1.0

    @property
    def mine(self) -> Seen:
        """The viewer's own seat."""
        return self.players[self.me]

    def region(self, seat: int) -> tuple[int, int]:
        """(blocked, touch) masks of where `seat` may place (R-21), as the engine computes them."""
        own = self.players[seat].pieces
        others = self.occupied & ~own
        return self.occupied | ISLAND | neighbours(own), ISLAND_ADJACENT | neighbours(others)

    def spendable(self, seat: int) -> int:
        """Gold plus known Gold cards (R-22); other seats' cards are unknown, so only Gold."""
        p = self.players[seat]
        reefs = content().reefs
        return p.gold + sum(reefs[c].gold for c in (p.reefs or ()) if reefs[c].kind == "gold")


def position_from_view(view: Json) -> Position:
    """Parse a view into a Position (reads nothing but the view)."""
    layouts = tuple(view["board"]["layouts"][realm] for realm in REALMS)
    board = board_for(layouts)
    players = []
    for pv in view["players"]:
        players.append(
            Seen(
                seat=pv["seat"],
                gold=pv["gold"],
                heads=pv["heads"],
                ships={c: pv["ships"].get(c, 0) for c in SHIP_COLOURS},
                missions=list(pv["missions"]),
                hand_count=pv["hand_count"],
                reef_count=pv["reef_count"],
                hand=list(pv["hand"]) if pv.get("hand") is not None else None,
                reefs=list(pv["reefs"]) if pv.get("reefs") is not None else None,
            )
        )
    occupied = 0
    for d in view["board"]["dragons"]:
        m = mask_of(tuple(c) for c in d["cells"])
        occupied |= m
        owner = players[d["owner"]]
        owner.pieces |= m
        owner.dragon_masks.append(m)
    ship_at = {1 << (r * 15 + c): col for r, c, col in view["board"]["ships"]}
    n = view["players_count"]
    return Position(
        view=view,
        me=view["viewer"],
        n=n,
        board=board,
        players=players,
        occupied=occupied,
        ship_at=ship_at,
        ship_mask=sum(ship_at),
        market_missions=list(view["market"]["missions"]),
        heads_total=HEADS_BY_PLAYERS[n] * n,
        heads_left=sum(p.heads for p in players),
    )


REALM_LIST = [REALM_MASKS[r] for r in REALMS]

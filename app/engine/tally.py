"""What a player holds at the end, counted for final scoring (R-40, R-42).

The counts both the categories (scoring.py) and the Bonus tiles (bonus.py) read, so neither
needs the other to count them.
"""

from __future__ import annotations

from .board import REALM_MASKS, bit
from .content import ReefCard, content
from .state import State

# Ships a Reef card still held counts as at the end; other kinds count none.
REEF_CARD_SHIPS = {"two_ships": 2, "wild_ship": 1}


def reef_ships(card: ReefCard) -> int:
    """Ships a Reef card held at the end adds (R-40): a Two-Ship card 2, a Wild 1, else 0."""
    return REEF_CARD_SHIPS.get(card.kind, 0)


def reef_gold(card: ReefCard) -> int:
    """Gold a Reef card held at the end adds (R-40): a Gold card its printed Gold (4), else 0.

    The Gold of a Coral Reef card is taken when it is played (R-55), never while it is held.
    """
    return card.gold if card.kind == "gold" else 0


def reef_vp(card: ReefCard) -> int:
    """End-game VP of a Reef card still held (R-40): its ships plus its Gold.

    What a player gives up by spending the card (the client orders mission payments by it).
    """
    return reef_ships(card) + reef_gold(card)


def _cards(card_ids: list[str]) -> list[ReefCard]:
    reefs = content().reefs
    return [reefs[c] for c in card_ids]


def gold_vp(state: State, seat: int) -> int:
    """1 VP per Gold; a Gold card still held counts 4 (R-40)."""
    p = state.players[seat]
    return p.gold + sum(reef_gold(c) for c in _cards(p.reefs))


def ships_vp(state: State, seat: int) -> int:
    """1 VP per ship: tokens, Two-Ship cards (2), Wild cards (1) (R-40)."""
    p = state.players[seat]
    return sum(p.ships.values()) + sum(reef_ships(c) for c in _cards(p.reefs))


def mission_vp(state: State, seat: int) -> int:
    """VP printed on the completed missions."""
    missions = content().missions
    return sum(missions[m].vp for m in state.players[seat].missions)


def hidden_dragons(state: State, seat: int, realm: str) -> int:
    """Hidden Dragon cards a seat holds for a realm (R-42)."""
    return sum(
        1
        for c in _cards(state.players[seat].reefs)
        if c.kind == "hidden_dragon" and c.realm == realm
    )


def realm_presence(state: State, realm: str) -> dict[int, tuple[int, int]]:
    """Per seat with presence: (Dragons counted, pieces on the board) in a realm (R-42)."""
    rmask = REALM_MASKS[realm]
    dragons = [0] * len(state.players)
    for d in state.dragons:
        if d.mask & rmask:
            dragons[d.owner] += 1
            if d.ancestral and bit(*d.head) & rmask:
                dragons[d.owner] += 1  # the Ancestral head counts as two Dragons
    out = {}
    for p in state.players:
        count = dragons[p.seat] + hidden_dragons(state, p.seat, realm)
        if count:
            out[p.seat] = (count, (p.pieces & rmask).bit_count())
    return out

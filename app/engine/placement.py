"""Placing a Dragon (R-21..R-24): legality as mask arithmetic, cost, and rewards."""

from __future__ import annotations

from dataclasses import dataclass

from .board import ISLAND, ISLAND_ADJACENT, neighbours
from .content import content
from .state import State

# Hidden Treasure effects that change a placement; see expansion.py.
NO_COST = "no_cost"
TRIPLE_GOLD = "triple_gold"
EXTRA_BODY = "extra_body"
FREE_SHAPE = "free_shape"
DOUBLE_CONTACT = "contact_gold"
MAX_DRAGON_SQUARES = 6  # a Large card plus the extra-body treasure
GOLD_PER_TURBULENT_SQUARE = 2  # the cost of each Whirlpool or Sea Current square covered
TRIPLE_GOLD_FACTOR = 3  # Gold symbols pay three times with that Hidden Treasure
CONTACT_GOLD_PER_DRAGON = 2  # the contact treasure: Gold per other Dragon touched


@dataclass(frozen=True)
class Region:
    """Where the player to act may place this turn (R-21), as masks."""

    blocked: int  # occupied, island, or next to one of the player's own pieces
    touch: int  # next to the island or to another player's piece


def region_for(state: State, seat: int) -> Region:
    """The placement region of a seat in the current position."""
    own = state.players[seat].pieces
    others = state.occupied & ~own
    return Region(
        blocked=state.occupied | ISLAND | neighbours(own),
        touch=ISLAND_ADJACENT | neighbours(others),
    )


def is_legal_mask(region: Region, mask: int) -> bool:
    """R-21: empty squares off the island, touching island or opponent, never own pieces."""
    return not mask & region.blocked and bool(mask & region.touch)


def cost_of(state: State, mask: int) -> int:
    """Gold to pay: 2 per Whirlpool or Sea Current square covered (R-22)."""
    if NO_COST in state.turn.effects:
        return 0
    return GOLD_PER_TURBULENT_SQUARE * (mask & state.board.turbulent).bit_count()


def gold_gain_of(state: State, mask: int) -> int:
    """Gold from Gold symbols covered (R-23), tripled by the Hidden Treasure that says so."""
    gain = (mask & state.board.gold_spaces).bit_count()
    return TRIPLE_GOLD_FACTOR * gain if TRIPLE_GOLD in state.turn.effects else gain


def gold_cards_held(state: State, seat: int) -> list[str]:
    """The Gold Reef cards a player could cash."""
    reefs = content().reefs
    return [cid for cid in state.players[seat].reefs if reefs[cid].kind == "gold"]


def spendable_gold(state: State, seat: int) -> int:
    """Gold held plus what Gold cards held would give if cashed (R-22)."""
    reefs = content().reefs
    return state.players[seat].gold + sum(reefs[c].gold for c in gold_cards_held(state, seat))


def contact_gold_of(state: State, mask: int, seat: int) -> int:
    """Gold from the contact treasure: 2 per other Dragon touching the new one (R-54)."""
    if DOUBLE_CONTACT not in state.turn.effects:
        return 0
    return CONTACT_GOLD_PER_DRAGON * sum(touching_dragons(state, mask, seat).values())


def affordable(state: State, seat: int, mask: int, spendable: int | None = None) -> bool:
    """R-22: the cost is covered by Gold, Gold cards, and the Gold this placement yields.

    That Gold is the Gold symbols covered and the contact treasure's Gold, never Reward Board
    Gold (tails move after the ships are taken, after the cost is paid).
    """
    if spendable is None:
        spendable = spendable_gold(state, seat)
    need = cost_of(state, mask) - gold_gain_of(state, mask)
    return need <= spendable or need <= spendable + contact_gold_of(state, mask, seat)


def affordable_masks(state: State, seat: int, masks: list[int]) -> list[int]:
    """The masks the seat can afford (R-22); one pass with the board's masks hoisted."""
    spendable = spendable_gold(state, seat)
    if spendable >= GOLD_PER_TURBULENT_SQUARE * MAX_DRAGON_SQUARES:
        return masks  # nothing on the board can cost more
    board = state.board
    turbulent = 0 if NO_COST in state.turn.effects else board.turbulent
    gold = board.gold_spaces
    mult = TRIPLE_GOLD_FACTOR if TRIPLE_GOLD in state.turn.effects else 1
    per = GOLD_PER_TURBULENT_SQUARE
    if DOUBLE_CONTACT in state.turn.effects:
        # Rare (one treasure, one turn): only the masks short of Gold count their contacts.
        out = []
        for m in masks:
            need = per * (m & turbulent).bit_count() - mult * (m & gold).bit_count()
            if need <= spendable or need <= spendable + contact_gold_of(state, m, seat):
                out.append(m)
        return out
    return [
        m
        for m in masks
        if per * (m & turbulent).bit_count() <= spendable + mult * (m & gold).bit_count()
    ]


def touching_dragons(state: State, mask: int, seat: int) -> dict[int, int]:
    """Other players' Dragons touching `mask`, counted once per Dragon (R-24), by owner."""
    ring = neighbours(mask) & ~mask
    counts: dict[int, int] = {}
    for d in state.dragons:
        if d.owner != seat and d.mask & ring:
            counts[d.owner] = counts.get(d.owner, 0) + 1
    return counts

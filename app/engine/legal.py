"""Legal actions: every complete action the deciding seat may submit now."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from . import expansion, expansion_cards
from .actions import parse_action
from .actions import to_json as action_json
from .board import REALM_MASKS, SIZE, realm_of, squares_of
from .content import content
from .draws import drawable
from .missions import minimal_payments
from .placement import affordable_masks, gold_cards_held, region_for
from .shapes import fitting_placements
from .state import State
from .treasure_shapes import extend_placements

Json = dict[str, Any]


def legal_actions(state: State, seat: int | None) -> list[Json]:
    """Every action `seat` may take now (empty if it is not that seat's decision)."""
    places, others = legal_parts(state, seat)
    if not places:
        return others
    return [*place_actions(places), *others]


# A hand card's legal placement: the card, its set of squares, and each head it may take there.
Placement = tuple[str, int, tuple[tuple[int, int], ...]]


def legal_parts(state: State, seat: int | None) -> tuple[list[Placement], list[Json]]:
    """`legal_actions` in two parts: the placements as masks (before any action dict is built),
    then every other action, so that `[*place_actions(places), *others]` is `legal_actions`.

    For callers that encode placements their own way (the sockets' compact form): building the
    dicts first and regrouping them costs more than the engine's own search.
    """
    hand, ancestral, others = legal_hand(state, seat)
    heads = realm_heads if ancestral else _first_square
    return [(card, m, heads(m)) for card, masks in hand for m in masks], others


# Each hand card (in hand order) with the masks of its legal placements.
HandMasks = list[tuple[str, list[int]]]


def legal_hand(state: State, seat: int | None) -> tuple[HandMasks, bool, list[Json]]:
    """`legal_parts` before any head is chosen: each hand card's placement masks, whether the
    heads go one per realm (the Ancestral head, R-56; else one head, on the first square), and
    every other action. The cheapest form of the legal actions, for the sockets' packing."""
    if state.over or seat is None or seat != state.turn.seat:
        return [], False, []
    if state.pending:
        return [], False, pending_actions(state)
    phase = state.turn.phase
    hand: HandMasks = []
    actions: list[Json] = []
    ancestral = False
    if phase == "place":
        hand = [
            (card, placement_masks(state, card))
            for card in dict.fromkeys(state.players[state.turn.seat].hand)
        ]
        ancestral = expansion_cards.ancestral_placement(state)
        actions += pass_actions(state)
    elif phase == "mission":
        actions += mission_actions(state)
        actions += draw_actions(state)
    elif phase == "draw":
        actions += draw_actions(state)
    actions += free_actions(state)
    return hand, ancestral, actions


def pending_actions(state: State) -> list[Json]:
    """The answers to the front pending choice (R-25)."""
    front = state.pending[0]
    if front["kind"] == "reef" and "cards" in front:
        return [{"type": "keep_reef", "card": cid} for cid in dict.fromkeys(front["cards"])]
    return expansion.pending_actions(state, front)


def placement_masks(state: State, card: str) -> list[int]:
    """Masks of every legal, affordable placement of a hand card (one per set of squares)."""
    seat = state.turn.seat
    region = region_for(state, seat)
    blocked, touch = region.blocked, region.touch
    shape = content().pattern_shape[card]
    masks = fitting_placements(shape, blocked, touch)
    if state.turn.effects:
        masks = extend_placements(state, card, masks, region)
    return affordable_masks(state, seat, masks)


def placement_actions(state: State) -> list[Json]:
    """One `place` action per hand card and distinct set of squares, head on the first square.

    With the Ancestral head, the realm of the head decides where the Dragon counts twice, so a
    set of squares spanning realms gets one action per realm (R-56).
    """
    return place_actions(placements_of_hand(state))


def card_placement_actions(state: State, card: str) -> list[Json]:
    """The `place` actions of one hand card (see `placement_actions`)."""
    return place_actions(card_placements(state, card))


def placements_of_hand(state: State) -> list[Placement]:
    """Every hand card's placements (`card_placements`), cards in hand order."""
    out: list[Placement] = []
    for card in dict.fromkeys(state.players[state.turn.seat].hand):
        out += card_placements(state, card)
    return out


def card_placements(state: State, card: str) -> list[Placement]:
    """One card's placements: each legal set of squares with its heads (the first square, or
    with the Ancestral head the first square in each realm, R-56)."""
    ancestral = expansion_cards.ancestral_placement(state)
    heads = realm_heads if ancestral else _first_square
    return [(card, m, heads(m)) for m in placement_masks(state, card)]


def place_actions(places: list[Placement]) -> list[Json]:
    """The `place` action dicts of these placements, one per head (actions share no lists)."""
    actions = []
    for card, m, heads in places:
        squares = _squares(m)
        for head in heads:
            cells = [list(sq) for sq in squares]
            actions.append({"type": "place", "card": card, "cells": cells, "head": list(head)})
    return actions


@lru_cache(maxsize=1 << 16)
def _squares(mask: int) -> tuple[tuple[int, int], ...]:
    # Placement masks come from fixed tables, so the same few thousand recur all game long.
    return tuple(squares_of(mask))


def squares_of_mask(mask: int) -> tuple[tuple[int, int], ...]:
    """A placement mask's squares in reading order, as its `place` action lists them."""
    return _squares(mask)


def _first_square(mask: int) -> tuple[tuple[int, int], ...]:
    return _squares(mask)[:1]


_REALM_MASKS = tuple(REALM_MASKS.values())


def realm_head_bits(mask: int) -> tuple[int, ...]:
    """The heads the Ancestral head may take on a set of squares (R-56), as square bits: the
    first square of the mask in each realm it covers, in reading order.

    A head on a Sea Current counts in no realm (R-42), so it is offered only when every square
    is on a current (then the first square); placing it there by hand stays legal. A few integer
    operations, for the bots' lookahead; `realm_heads` is the same as squares.
    """
    heads = sorted(inside & -inside for realm in _REALM_MASKS if (inside := mask & realm))
    return tuple(heads) if heads else (mask & -mask,)


@lru_cache(maxsize=1 << 12)
def realm_heads(mask: int) -> tuple[tuple[int, int], ...]:
    """`realm_head_bits` as squares (row, col), as the `place` actions list the heads (R-56)."""
    return tuple(divmod(head.bit_length() - 1, SIZE) for head in realm_head_bits(mask))


def listed_form(state: State, action: Json) -> Json:
    """`action` as `legal_actions` lists it, to find a played move in that list.

    The head may go on any square of a Dragon (R-12), and where it goes changes
    nothing except with the Ancestral head, and there only through its realm (R-56). So the
    list names one head per set of squares (per realm with the Ancestral head) and its squares
    in reading order: a placement played with its head elsewhere is the listed one with the
    listed head. The one head the list cannot name, the Ancestral head on a Sea Current of a
    Dragon that also covers a realm (it counts nowhere, R-42), stays as played.
    """
    listed = action_json(parse_action(action))
    if listed["type"] != "place":
        return listed
    cells = sorted(tuple(c) for c in listed["cells"])
    head = cells[0]
    if state.turn.seat is not None and expansion_cards.ancestral_placement(state):
        realm = realm_of(*listed["head"])
        in_realm = [sq for sq in cells if realm_of(*sq) == realm]
        if realm is not None:
            head = in_realm[0]
        elif len(in_realm) < len(cells):
            head = tuple(listed["head"])
    return listed | {"cells": [list(sq) for sq in cells], "head": list(head)}


def pass_actions(state: State) -> list[Json]:
    """Every pass: which card to discard times which card to draw (R-28)."""
    hand = list(dict.fromkeys(state.players[state.turn.seat].hand)) or [None]
    draws: list[Any] = drawable(state, any_deck=True) or [None]
    return [{"type": "pass", "discard": d, "draw": s} for d in hand for s in draws]


def mission_actions(state: State) -> list[Json]:
    """Every mission in the market with each distinct minimal payment (R-26)."""
    if state.turn.missions_done >= state.turn.mission_limit:
        return []
    player = state.players[state.turn.seat]
    missions = content().missions
    actions = []
    for mid in state.market["missions"]:
        for tokens, cards in minimal_payments(missions[mid], player.ships, player.reefs):
            actions.append({"type": "mission", "mission": mid, "tokens": tokens, "cards": cards})
    return actions


def draw_actions(state: State) -> list[Json]:
    """The Pattern draws open now (R-27), or ending the turn when there is none."""
    options = drawable(state)
    if not options:
        return [{"type": "end_turn"}]
    return [{"type": "draw", **src} for src in options]


def free_actions(state: State) -> list[Json]:
    """Actions allowed any number of times on one's own turn (R-29)."""
    seat = state.turn.seat
    actions: list[Json] = [
        {"type": "cash_gold", "card": cid} for cid in dict.fromkeys(gold_cards_held(state, seat))
    ]
    return actions + expansion_cards.free_actions(state)

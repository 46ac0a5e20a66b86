"""Applying actions: the turn flow I -> II -> III, passing, pending choices (R-20..R-31). The
draw itself is draws.py's; what follows an action (the next choice, the next turn), turn_flow.py's.
"""

from __future__ import annotations

from typing import Any

from . import draws, expansion, expansion_cards
from .actions import Action, parse_action
from .board import mask_of, squares_of
from .content import content
from .errors import EngineError
from .missions import is_minimal
from .placement import (
    CONTACT_GOLD_PER_DRAGON,
    DOUBLE_CONTACT,
    affordable,
    cost_of,
    gold_cards_held,
    gold_gain_of,
    is_legal_mask,
    region_for,
    touching_dragons,
)
from .state import Dragon, State
from .text import t_
from .treasure_shapes import check_shape
from .turn_flow import advance, end_turn, keep_reef

Events = list[dict[str, Any]]


def to_act(state: State) -> int | None:
    """The seat that must decide now; None once the game is over.

    Every pending choice belongs to the player whose turn it is (R-25), so this is always
    the current seat.
    """
    return None if state.over else state.turn.seat


def apply(state: State, action: dict[str, Any] | Action, seat: int) -> tuple[State, Events]:
    """Apply one action by `seat` (a dict, or an Action its caller parsed once already);
    returns the new state and its events.

    Raises EngineError (stable `code`) for anything illegal; `state` itself is never changed.
    """
    act = action if isinstance(action, Action) else parse_action(action)
    if state.over:
        raise EngineError(
            "game_over", t_("the game is over; cannot {describe}", describe=act.describe())
        )
    if seat != state.turn.seat:
        raise EngineError(
            "not_your_turn",
            t_(
                "seat {seat} cannot {describe}: seat {seat2} decides",
                seat=seat,
                describe=act.describe(),
                seat2=state.turn.seat,
            ),
        )
    if state.pending and act.type not in PENDING_HANDLERS:
        kind = state.pending[0]["kind"]
        raise EngineError(
            "decision_pending",
            t_(
                "cannot {describe}: first resolve the pending {kind} choice",
                describe=act.describe(),
                kind=kind,
            ),
        )
    handler = PENDING_HANDLERS.get(act.type) or HANDLERS.get(act.type)
    if handler is None:
        raise EngineError(
            "not_allowed", t_("cannot {describe}: not part of this game", describe=act.describe())
        )
    new = state.clone()
    events: Events = []
    undo = list(new.turn.undo)
    handler(new, act, events)
    if act.type != "take_back" and new.turn.undo == undo:
        new.turn.undo = []  # anything else done since: no taking back across it
    advance(new, events)
    return new, events


# --- I. Play a Pattern card -------------------------------------------------------------------


def _place(s: State, a: Action, events: Events) -> None:
    seat = s.turn.seat
    player = s.players[seat]
    _need_phase(s, a, "place")
    if a.card not in player.hand:
        raise EngineError(
            "no_such_card",
            t_("cannot {describe}: {card} is not in your hand", describe=a.describe(), card=a.card),
        )
    mask = mask_of(a.cells)
    if len(a.cells) != mask.bit_count() or a.head not in a.cells:
        raise EngineError(
            "illegal_placement",
            t_("{describe}: repeated squares or head off", describe=a.describe()),
        )
    check_shape(s, a.card, a.cells)
    if not is_legal_mask(region_for(s, seat), mask):
        raise EngineError(
            "illegal_placement",
            t_(
                "{describe}: squares must be empty, touch the island or another player's Dragon,"
                " and never touch your own (R-21)",
                describe=a.describe(),
            ),
        )
    if not affordable(s, seat, mask):
        raise EngineError(
            "cannot_afford",
            t_(
                "{describe}: costs {s} Gold, more than you can raise (R-22)",
                describe=a.describe(),
                s=cost_of(s, mask),
            ),
        )
    # Rewards first, then the cost, so this placement's Gold can pay for it.
    ancestral = expansion_cards.ancestral_placement(s)
    player.hand.remove(a.card)
    player.played.append(a.card)
    player.heads -= 1
    if ancestral:
        player.ancestral = False
        s.turn.ancestral = False
    s.add_dragon(Dragon(seat, tuple(sorted(a.cells)), a.head, a.card, ancestral))
    board = s.board
    ships = []
    for sq in squares_of(mask & board.ship_spaces):
        colour = s.ships_on_board.pop(sq, None)
        if colour:
            player.ships[colour] += 1
            ships.append(colour)
    gold = gold_gain_of(s, mask)
    player.gold += gold
    reefs = (mask & board.reef_spaces).bit_count()
    for _ in range(reefs):
        s.pending.append({"kind": "reef", "count": 2})
    touching = touching_dragons(s, mask, seat)
    contact_gold = 0
    if DOUBLE_CONTACT in s.turn.effects:
        # Gold "for placing the Dragon in that position": it helps pay this cost.
        contact_gold = CONTACT_GOLD_PER_DRAGON * sum(touching.values())
        player.gold += contact_gold
    cost = cost_of(s, mask)
    cashed = _cash_for(s, seat, cost, events)
    player.gold -= cost
    for owner, n in sorted(touching.items()):
        s.players[owner].gold += n
    s.turn.played_deck = content().pattern_deck[a.card]
    s.turn.phase = "mission"
    events.append(
        {
            "type": "placed",
            "seat": seat,
            "card": a.card,
            "cells": [list(c) for c in sorted(a.cells)],
            "head": list(a.head),
            "ancestral": ancestral,
            "ships": ships,
            "gold_gained": gold + contact_gold,
            "reef_draws": reefs,
            "cost": cost,
            "cashed": cashed,
            "neighbour_gold": {str(k): v for k, v in sorted(touching.items())},
        }
    )
    expansion.on_ships_gained(s, seat, ships, events)


def _cash_for(s: State, seat: int, cost: int, events: Events) -> list[str]:
    """Cash Gold cards, as few as needed, when Gold alone cannot pay `cost` (R-22)."""
    player = s.players[seat]
    cashed = []
    for cid in gold_cards_held(s, seat):
        if player.gold >= cost:
            break
        _cash(s, seat, cid)
        cashed.append(cid)
    return cashed


def _cash(s: State, seat: int, cid: str) -> None:
    player = s.players[seat]
    player.reefs.remove(cid)
    player.used.append(cid)
    player.gold += content().reefs[cid].gold


# --- II. Complete a Mission ---------------------------------------------------------------------


def _mission(s: State, a: Action, events: Events) -> None:
    seat = s.turn.seat
    player = s.players[seat]
    _need_phase(s, a, "mission")
    if s.turn.missions_done >= s.turn.mission_limit:
        raise EngineError(
            "not_allowed",
            t_("cannot {describe}: one Mission per turn (R-26)", describe=a.describe()),
        )
    if a.mission not in s.market["missions"]:
        raise EngineError(
            "no_such_card",
            t_("cannot {describe}: not in the Mission market", describe=a.describe()),
        )
    for col, n in a.tokens.items():
        if n > player.ships.get(col, 0):
            raise EngineError(
                "bad_payment",
                t_("{describe}: you hold too few {col} ships", describe=a.describe(), col=col),
            )
    held = list(player.reefs)
    for cid in a.cards:
        if cid not in held:
            raise EngineError(
                "no_such_card",
                t_("{describe}: you do not hold {cid}", describe=a.describe(), cid=cid),
            )
        held.remove(cid)
    mission = content().missions[a.mission]
    if not is_minimal(mission, a.tokens, list(a.cards)):
        raise EngineError(
            "bad_payment",
            t_(
                "{describe}: the ships offered must pay for the Mission exactly, with nothing"
                " that could be kept back (R-26)",
                describe=a.describe(),
            ),
        )
    for col, n in a.tokens.items():
        player.ships[col] -= n  # paid tokens leave the game
    for cid in a.cards:
        player.reefs.remove(cid)
        player.used.append(cid)
    player.missions.append(a.mission)
    s.market["missions"].remove(a.mission)
    if s.decks["missions"]:
        s.market["missions"].append(s.decks["missions"].pop(0))
    for _ in range(mission.reef):
        s.pending.append({"kind": "reef", "count": 2})
    s.turn.missions_done += 1
    if s.turn.missions_done >= s.turn.mission_limit:
        s.turn.phase = "draw"
    events.append(
        {
            "type": "mission",
            "seat": seat,
            "mission": a.mission,
            "vp": mission.vp,
            "tokens": dict(a.tokens),
            "cards": list(a.cards),
            "reef_draws": mission.reef,
        }
    )


# --- III. Draw a Pattern card -------------------------------------------------------------------


def _draw(s: State, a: Action, events: Events) -> None:
    _need_phase(s, a, "mission", "draw")
    draws.check(s, a, a.source, any_deck=False)
    draws.take(s, s.turn.seat, a.source, events, "turn")
    end_turn(s, events)


def _end_turn(s: State, a: Action, events: Events) -> None:
    _need_phase(s, a, "mission", "draw")
    if draws.drawable(s):
        raise EngineError(
            "wrong_phase",
            t_("cannot {describe}: a Pattern card must be drawn", describe=a.describe()),
        )
    end_turn(s, events)


# --- Pass (R-28) -----------------------------------------------------------------------------


def _pass(s: State, a: Action, events: Events) -> None:
    seat = s.turn.seat
    player = s.players[seat]
    _need_phase(s, a, "place")
    if player.hand and a.discard not in player.hand:
        raise EngineError(
            "no_such_card",
            t_("cannot {describe}: name a card from your hand", describe=a.describe()),
        )
    if not player.hand and a.discard is not None:
        raise EngineError(
            "no_such_card", t_("cannot {describe}: your hand is empty", describe=a.describe())
        )
    if a.source is None and draws.drawable(s, any_deck=True):
        raise EngineError(
            "bad_action", t_("cannot {describe}: a pass draws a card", describe=a.describe())
        )
    if a.source is not None:
        draws.check(s, a, a.source, any_deck=True)
    player.heads -= 1
    if player.ancestral and player.heads == 0:
        player.ancestral = False  # the last head returned to the box is the Ancestral one
    if a.discard is not None:
        player.hand.remove(a.discard)
        player.discarded.append(a.discard)
    player.gold += 2
    events.append({"type": "passed", "seat": seat, "discarded": a.discard})
    if a.source is not None:
        draws.take(s, seat, a.source, events, "pass")
    end_turn(s, events)


# --- Free actions and pending choices (R-25) --------------------------------------------


def _cash_gold(s: State, a: Action, events: Events) -> None:
    seat = s.turn.seat
    if a.card not in gold_cards_held(s, seat):
        raise EngineError(
            "no_such_card",
            t_("cannot {describe}: you hold no such Gold card", describe=a.describe()),
        )
    _cash(s, seat, a.card)
    events.append({"type": "cashed", "seat": seat, "card": a.card, "gold": 4})


def _keep_reef(s: State, a: Action, events: Events) -> None:
    pending = _front(s, a, "reef")
    if "cards" not in pending:
        raise EngineError(
            "wrong_phase",
            t_("cannot {describe}: the Reef cards are not drawn", describe=a.describe()),
        )
    if a.card not in pending["cards"]:
        raise EngineError(
            "no_such_card",
            t_("cannot {describe}: {card} was not drawn", describe=a.describe(), card=a.card),
        )
    s.pending.pop(0)
    rest = [c for c in pending["cards"] if c != a.card]
    keep_reef(s, s.turn.seat, a.card, rest, events)


def _front(s: State, a: Action, kind: str) -> dict[str, Any]:
    if not s.pending or s.pending[0]["kind"] != kind:
        raise EngineError(
            "wrong_phase",
            t_("cannot {describe}: no {kind} choice is pending", describe=a.describe(), kind=kind),
        )
    return s.pending[0]


def _need_phase(s: State, a: Action, *phases: str) -> None:
    if s.turn.phase not in phases:
        raise EngineError(
            "wrong_phase",
            t_(
                "cannot {describe} now: the turn is in its {phase} step",
                describe=a.describe(),
                phase=s.turn.phase,
            ),
        )


# --- The handlers, by action type ---------------------------------------------------------------


HANDLERS = {
    "place": _place,
    "mission": _mission,
    "draw": _draw,
    "end_turn": _end_turn,
    "pass": _pass,
    "cash_gold": _cash_gold,
    **expansion_cards.HANDLERS,
}
PENDING_HANDLERS = {
    "keep_reef": _keep_reef,
    **expansion_cards.PENDING_HANDLERS,
    **expansion.PENDING_HANDLERS,
}

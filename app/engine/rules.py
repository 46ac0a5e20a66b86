"""Applying actions: the turn flow I -> II -> III, passing, pending choices (R-20..R-31)."""

from __future__ import annotations

from typing import Any

from . import expansion
from .actions import Action, parse_action
from .board import mask_of, squares_of
from .content import DECKS, content
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
    ancestral = expansion.ancestral_placement(s)
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


def draw_decks(s: State, any_deck: bool = False) -> list[str]:
    """The Pattern decks (face up or top card) this turn's draw may come from (R-27).

    Not the played card's deck, unless the same-deck treasure is active or for a pass.
    """
    banned = None if any_deck or expansion.same_deck_allowed(s) else s.turn.played_deck
    return [deck for deck in DECKS if deck != banned]


def drawable(s: State, any_deck: bool = False) -> list[dict[str, str]]:
    """Every Pattern draw open now: face-up cards and non-empty decks (R-27)."""
    options: list[dict[str, str]] = []
    for deck in draw_decks(s, any_deck):
        options.extend({"source": "market", "card": cid} for cid in s.market[deck])
        if s.decks[deck]:
            options.append({"source": "deck", "deck": deck})
    return options


def _take(s: State, seat: int, source: dict[str, str], events: Events, why: str) -> None:
    player = s.players[seat]
    if source["source"] == "market":
        cid = source["card"]
        deck = content().pattern_deck[cid]
        s.market[deck].remove(cid)
        if s.decks[deck]:
            s.market[deck].append(s.decks[deck].pop(0))
        player.hand.append(cid)
        events.append({"type": "drew", "seat": seat, "from": "market", "card": cid, "why": why})
    else:
        deck = source["deck"]
        cid = s.decks[deck].pop(0)
        player.hand.append(cid)
        events.append(
            {"type": "drew", "seat": seat, "from": deck, "why": why, "secret": {"card": cid}}
        )


def _check_draw(s: State, a: Action, source: dict[str, str], any_deck: bool) -> None:
    if source not in drawable(s, any_deck):
        if source["source"] == "market":
            deck = content().pattern_deck.get(source["card"])
            if deck is None or source["card"] not in s.market[deck]:
                raise EngineError(
                    "no_such_card", t_("cannot {describe}: not face up", describe=a.describe())
                )
        elif not s.decks[source["deck"]]:
            raise EngineError(
                "no_such_card", t_("cannot {describe}: that deck is empty", describe=a.describe())
            )
        raise EngineError(
            "wrong_deck",
            t_(
                "cannot {describe}: draw from another deck than the card played",
                describe=a.describe(),
            ),
        )


def _draw(s: State, a: Action, events: Events) -> None:
    _need_phase(s, a, "mission", "draw")
    _check_draw(s, a, a.source, any_deck=False)
    _take(s, s.turn.seat, a.source, events, "turn")
    end_turn(s, events)


def _end_turn(s: State, a: Action, events: Events) -> None:
    _need_phase(s, a, "mission", "draw")
    if drawable(s):
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
    if a.source is None and drawable(s, any_deck=True):
        raise EngineError(
            "bad_action", t_("cannot {describe}: a pass draws a card", describe=a.describe())
        )
    if a.source is not None:
        _check_draw(s, a, a.source, any_deck=True)
    player.heads -= 1
    if player.ancestral and player.heads == 0:
        player.ancestral = False  # the last head returned to the box is the Ancestral one
    if a.discard is not None:
        player.hand.remove(a.discard)
        player.discarded.append(a.discard)
    player.gold += 2
    events.append({"type": "passed", "seat": seat, "discarded": a.discard})
    if a.source is not None:
        _take(s, seat, a.source, events, "pass")
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


def keep_reef(s: State, seat: int, card: str, rest: list[str], events: Events) -> None:
    """The player keeps `card`; the others go to the bottom of the Reef deck (R-23, R-31)."""
    player = s.players[seat]
    player.reefs.append(card)
    player.reefs_acquired += 1
    s.decks["reefs"].extend(rest)
    events.append({"type": "reef_kept", "seat": seat, "secret": {"card": card, "returned": rest}})


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


# --- Turn flow ----------------------------------------------------------------------------------


def advance(s: State, events: Events) -> None:
    """Reveal the next pending choice, resolving those with only one outcome (R-31)."""
    while s.pending:
        front = s.pending[0]
        if front["kind"] == "reef" and "cards" not in front:
            if expansion.may_widen_reef_draw(s):
                return  # the player first says whether to use the draw-4 treasure
            reveal_reefs(s, events)
            continue
        if not expansion.materialise(s, front, events):
            return
    if s.turn.phase == "draw" and not drawable(s):
        end_turn(s, events)


def reveal_reefs(s: State, events: Events) -> None:
    """Draw the Reef cards of the front pending choice; 0 or 1 card needs no choice (R-31)."""
    front = s.pending[0]
    deck = s.decks["reefs"]
    n = min(front["count"], len(deck))
    cards, s.decks["reefs"] = deck[:n], deck[n:]
    seat = s.turn.seat
    if n == 0:
        s.pending.pop(0)
        events.append({"type": "reef_deck_empty", "seat": seat})
    elif n == 1:
        s.pending.pop(0)
        keep_reef(s, seat, cards[0], [], events)
    else:
        s.pending[0] = {**front, "cards": cards}


def end_turn(s: State, events: Events) -> None:
    """Hand the turn to the next seat that still has a head; end the game if none has (R-30)."""
    n = len(s.players)
    seat = s.turn.seat
    events.append({"type": "turn_ended", "seat": seat})
    for step in range(1, n + 1):
        nxt = (seat + step) % n
        if s.players[nxt].heads > 0:
            s.turn = type(s.turn)(seat=nxt, number=s.turn.number + 1)
            events.append({"type": "turn_started", "seat": nxt})
            return
    s.turn = type(s.turn)(seat=seat, phase="over", number=s.turn.number)
    events.append({"type": "game_over"})


HANDLERS = {
    "place": _place,
    "mission": _mission,
    "draw": _draw,
    "end_turn": _end_turn,
    "pass": _pass,
    "cash_gold": _cash_gold,
    **expansion.HANDLERS,
}
PENDING_HANDLERS = {"keep_reef": _keep_reef, **expansion.PENDING_HANDLERS}

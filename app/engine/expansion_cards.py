"""Treasures of the Deep: using cards (R-54..R-57): Hidden Treasures, Coral Reefs and the
Ancestral head, the take-back of a switch made for the coming placement, and which of them are
open now. The Reward Board, the tails and the pending choices are expansion.py's."""

from __future__ import annotations

from typing import Any

from .content import SHIP_COLOURS, content
from .errors import EngineError
from .expansion import (
    AT_DRAW,
    AT_MISSION,
    BEFORE_PLACING,
    Events,
    advance_tail,
    effect_of,
    held_with,
)
from .state import State
from .text import t_


def _use_treasure(s: State, a: Any, events: Events) -> None:
    seat = s.turn.seat
    player = s.players[seat]
    if a.card not in player.treasures:
        raise EngineError(
            "no_such_card",
            t_("cannot {describe}: you hold no such treasure", describe=a.describe()),
        )
    if s.turn.treasure_used:
        raise EngineError(
            "not_allowed",
            t_("cannot {describe}: one Hidden Treasure per turn", describe=a.describe()),
        )
    effect = effect_of(a.card)
    front = s.pending[0] if s.pending else None
    if front is not None:
        # While a choice is pending only the treasures that answer it may be used.
        wants = {"reef": "reef4", "advance": "any_tail"}.get(front["kind"])
        if effect != wants or "cards" in front:
            raise EngineError(
                "decision_pending",
                t_("cannot {describe}: a choice is pending", describe=a.describe()),
            )
    elif not _usable_now(s, effect):
        raise EngineError(
            "wrong_phase",
            t_("cannot {describe} now: {when}", describe=a.describe(), when=WHEN[effect]),
        )
    if effect == "convert":
        src, dst = a.convert or (None, None)
        if src is None or src == dst or player.ships.get(src, 0) < 1:
            raise EngineError(
                "bad_action",
                t_("{describe}: convert one held ship to another colour", describe=a.describe()),
            )
        player.ships[src] -= 1
        player.ships[dst] += 1
    index = player.treasures.index(a.card)
    player.treasures.remove(a.card)
    player.used.append(a.card)
    s.turn.treasure_used = True
    if effect in BEFORE_PLACING:
        s.turn.undo.append({"kind": "treasure", "card": a.card, "index": index})
    events.append({"type": "treasure_used", "seat": seat, "card": a.card, "effect": effect})
    if effect == "reef4":
        s.pending[0] = {**front, "count": 4, "declined": True}
    elif effect == "any_tail":
        s.pending.pop(0)
        s.pending.extend({"kind": "tail", "reason": "any_tail"} for _ in front["ships"])
    elif effect == "two_missions":
        s.turn.mission_limit = 2
    elif effect != "convert":
        s.turn.effects.append(effect)


# When each Hidden Treasure is played: the refusal at any other moment says so.
WHEN = {
    **{e: "play it before placing your Dragon" for e in BEFORE_PLACING},
    "two_missions": "play it before the first Mission of the turn (R-57)",
    "convert": "play it when you are going to complete a Mission",
    "same_deck": "play it before drawing your Pattern card, after placing",
    "reef4": "play it when you have to draw Reef cards",
    "any_tail": "play it when your tails advance for the ships you gained",
}


def _usable_now(s: State, effect: str) -> bool:
    phase = s.turn.phase
    if effect in BEFORE_PLACING:
        return phase == "place"
    if effect == "two_missions":
        return phase == "mission" and s.turn.missions_done == 0
    if effect == "convert":
        return phase == "mission" and s.turn.missions_done < s.turn.mission_limit
    if effect in AT_DRAW:
        return phase in ("mission", "draw")
    return False  # reef4 and any_tail answer pending choices


def _play_reef(s: State, a: Any, events: Events) -> None:
    seat = s.turn.seat
    player = s.players[seat]
    card = content().reefs.get(a.card or "")
    if a.card not in player.reefs or card is None or not card.tracks:
        raise EngineError(
            "no_such_card",
            t_("cannot {describe}: you hold no such Coral Reef", describe=a.describe()),
        )
    player.reefs.remove(a.card)
    player.used.append(a.card)  # to the personal discard pile
    player.gold += card.gold
    events.append({"type": "reef_played", "seat": seat, "card": a.card, "gold": card.gold})
    for track in card.tracks:
        advance_tail(s, seat, track, events)


def _use_ancestral(s: State, a: Any, events: Events) -> None:
    player = s.players[s.turn.seat]
    if s.turn.phase != "place":
        raise EngineError("wrong_phase", "use the Ancestral head before placing a Dragon")
    if not player.ancestral or s.turn.ancestral:
        raise EngineError("not_allowed", "the Ancestral head is used once per game (R-56)")
    s.turn.ancestral = True
    s.turn.undo.append({"kind": "ancestral"})
    events.append({"type": "ancestral_declared", "seat": s.turn.seat})


def _take_back(s: State, a: Any, events: Events) -> None:
    """Undo the last switch made for the coming placement: the Ancestral head declared, or a
    before-placing treasure used. Only straight after it (the undo list is emptied by every
    other action), so it never crosses revealed information or another player's move."""
    if s.turn.phase != "place" or not s.turn.undo:
        raise EngineError(
            "not_allowed",
            "nothing to take back: only the Ancestral head or a treasure just switched on for "
            "the placement, before anything else happens",
        )
    entry = s.turn.undo.pop()
    seat = s.turn.seat
    if entry["kind"] == "ancestral":
        s.turn.ancestral = False
        events.append({"type": "taken_back", "seat": seat, "what": "ancestral"})
        return
    player = s.players[seat]
    card = entry["card"]
    player.used.pop()  # the card just used: nothing has been added since
    player.treasures.insert(entry["index"], card)
    s.turn.treasure_used = False
    s.turn.effects.remove(effect_of(card))
    events.append({"type": "taken_back", "seat": seat, "what": "treasure", "card": card})


def take_back_view(s: State) -> dict[str, Any] | None:
    """What `take_back` would undo now, as the view shows it (public: the card was shown when
    used), or None."""
    if s.turn.phase != "place" or not s.turn.undo:
        return None
    entry = s.turn.undo[-1]
    if entry["kind"] == "ancestral":
        return {"kind": "ancestral"}
    return {"kind": "treasure", "card": entry["card"], "effect": effect_of(entry["card"])}


def ancestral_placement(s: State) -> bool:
    """Whether the next placement puts down the Ancestral head (R-56).

    Declared this turn, or forced: with only the Ancestral head left in supply, it is placed.
    """
    player = s.players[s.turn.seat]
    return s.turn.ancestral or (player.ancestral and player.heads == 1)


def same_deck_allowed(s: State) -> bool:
    """Whether this turn's draw may come from the played card's deck (a Hidden Treasure)."""
    return "same_deck" in s.turn.effects


def free_actions(s: State) -> list[dict[str, Any]]:
    """Expansion actions open on one's own turn with no choice pending."""
    if not s.options.expansion:
        return []
    player = s.players[s.turn.seat]
    reefs = content().reefs
    actions: list[dict[str, Any]] = [
        {"type": "play_reef", "card": c} for c in dict.fromkeys(player.reefs) if reefs[c].tracks
    ]
    if s.turn.phase == "place" and player.ancestral and not s.turn.ancestral:
        actions.append({"type": "use_ancestral"})
    for card in held_with(s, BEFORE_PLACING + AT_MISSION + AT_DRAW):
        effect = effect_of(card)
        if not _usable_now(s, effect):
            continue
        if effect == "convert":
            actions.extend(
                {"type": "use_treasure", "card": card, "convert": [src, dst]}
                for src in SHIP_COLOURS
                if player.ships.get(src, 0)
                for dst in SHIP_COLOURS
                if dst != src
            )
        else:
            actions.append({"type": "use_treasure", "card": card})
    return actions


HANDLERS: dict[str, Any] = {
    "play_reef": _play_reef,
    "use_ancestral": _use_ancestral,
    "take_back": _take_back,
}
# A Hidden Treasure may answer a pending choice, so it is also a pending action.
PENDING_HANDLERS: dict[str, Any] = {"use_treasure": _use_treasure}

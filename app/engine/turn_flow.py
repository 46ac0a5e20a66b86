"""The turn's flow after an action: pending choices revealed one by one (R-25, R-31), Reef cards
drawn and kept, and the turn handed to the next seat, or the game ended (R-30)."""

from __future__ import annotations

from typing import Any

from . import expansion
from .draws import drawable
from .state import State

Events = list[dict[str, Any]]


def keep_reef(s: State, seat: int, card: str, rest: list[str], events: Events) -> None:
    """The player keeps `card`; the others go to the bottom of the Reef deck (R-23, R-31)."""
    player = s.players[seat]
    player.reefs.append(card)
    player.reefs_acquired += 1
    s.decks["reefs"].extend(rest)
    events.append({"type": "reef_kept", "seat": seat, "secret": {"card": card, "returned": rest}})


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

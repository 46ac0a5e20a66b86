"""Drawing a Pattern card (R-27): the decks and face-up cards a draw may use, the check of a
chosen source and the draw itself (a turn's draw, and a pass's)."""

from __future__ import annotations

from typing import Any

from . import expansion_cards
from .actions import Action
from .content import DECKS, content
from .errors import EngineError
from .state import State
from .text import t_

Events = list[dict[str, Any]]


def draw_decks(s: State, any_deck: bool = False) -> list[str]:
    """The Pattern decks (face up or top card) this turn's draw may come from (R-27).

    Not the played card's deck, unless the same-deck treasure is active or for a pass.
    """
    banned = None if any_deck or expansion_cards.same_deck_allowed(s) else s.turn.played_deck
    return [deck for deck in DECKS if deck != banned]


def drawable(s: State, any_deck: bool = False) -> list[dict[str, str]]:
    """Every Pattern draw open now: face-up cards and non-empty decks (R-27)."""
    options: list[dict[str, str]] = []
    for deck in draw_decks(s, any_deck):
        options.extend({"source": "market", "card": cid} for cid in s.market[deck])
        if s.decks[deck]:
            options.append({"source": "deck", "deck": deck})
    return options


def take(s: State, seat: int, source: dict[str, str], events: Events, why: str) -> None:
    """`seat` draws from `source` (a face-up card, refilled from its deck, or a deck's top)."""
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


def check(s: State, a: Action, source: dict[str, str], any_deck: bool) -> None:
    """Refuse `a`'s draw from `source` unless it is open now, saying why."""
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

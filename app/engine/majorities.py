"""Live realm majorities (R-42, R-43) as one viewer may see them (R-60).

The biggest score category is decided on the board all game long; the table shows it live. A
Hidden Dragon Reef card is secret, so a viewer's counts include only their own such cards
(spectators none) until the game is over, when everything counts and the figures equal
`final_scores` (tested).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .board import REALM_MASKS, REALMS, bit
from .content import content
from .scoring import realm_vp, uncovered_whirlpools
from .state import State

Presence = dict[int, tuple[int, int]]  # seat -> (Dragons counted, pieces in the realm)


def _hidden_dragons(state: State, seat: int) -> dict[str, int]:
    """Hidden Dragon cards a seat holds, by realm."""
    reefs = content().reefs
    out: dict[str, int] = {}
    for cid in state.players[seat].reefs:
        card = reefs[cid]
        if card.kind == "hidden_dragon":
            out[card.realm] = out.get(card.realm, 0) + 1
    return out


def holds_hidden_dragon(state: State, seat: int) -> bool:
    """Whether a seat holds a Hidden Dragon card (else its standings are everyone's)."""
    reefs = content().reefs
    return any(reefs[cid].kind == "hidden_dragon" for cid in state.players[seat].reefs)


@dataclass(frozen=True)
class RealmPresence:
    """One realm's public counts: Dragons on the board and pieces per seat, open Whirlpools."""

    realm: str
    dragons: tuple[int, ...]
    pieces: tuple[int, ...]
    whirlpools: int


def public_presence(state: State) -> tuple[RealmPresence, ...]:
    """The public part of every realm's standings (no Hidden Dragon cards): the same for every
    viewer, so computed once per state by callers that build several views."""
    n = len(state.players)
    out = []
    for realm in REALMS:
        rmask = REALM_MASKS[realm]
        dragons = [0] * n
        for d in state.dragons:
            if d.mask & rmask:
                dragons[d.owner] += 1
                if d.ancestral and bit(*d.head) & rmask:
                    dragons[d.owner] += 1  # the Ancestral head counts as two Dragons
        pieces = tuple((p.pieces & rmask).bit_count() for p in state.players)
        out.append(RealmPresence(realm, tuple(dragons), pieces, uncovered_whirlpools(state, realm)))
    return tuple(out)


def standings(
    state: State,
    sees_hidden: Callable[[int], bool],
    presence_by_realm: tuple[RealmPresence, ...] | None = None,
) -> list[dict[str, Any]]:
    """Per realm: uncovered Whirlpools, every seat's count, the leaders and VP if it ended now.

    `sees_hidden(seat)` says whether that seat's Hidden Dragon cards may be counted;
    `presence_by_realm`: `public_presence(state)`, when the caller already has it.
    """
    n = len(state.players)
    hidden = [_hidden_dragons(state, s) if sees_hidden(s) else {} for s in range(n)]
    out = []
    for base in presence_by_realm or public_presence(state):
        realm = base.realm
        seats = []
        presence: Presence = {}
        counts = []
        for seat in range(n):
            shown_hidden = hidden[seat].get(realm, 0)
            count = base.dragons[seat] + shown_hidden
            pieces = base.pieces[seat]
            if count:
                presence[seat] = (count, pieces)
            counts.append(count)
            seats.append({"seat": seat, "dragons": count, "pieces": pieces, "hidden": shown_hidden})
        vp = realm_vp(counts, base.pieces, base.whirlpools, n)
        top = max(presence.values(), default=None)
        for s in seats:
            s["vp"] = vp[s["seat"]]
        out.append(
            {
                "realm": realm,
                "whirlpools": base.whirlpools,
                "leaders": [s for s, v in presence.items() if v == top],
                "seats": seats,
            }
        )
    return out


def realm_standings(
    state: State,
    viewer: int | None,
    presence_by_realm: tuple[RealmPresence, ...] | None = None,
) -> list[dict[str, Any]]:
    """The live majorities `viewer` may see: own Hidden Dragons only, all once over (R-60)."""
    return standings(state, lambda seat: state.over or seat == viewer, presence_by_realm)

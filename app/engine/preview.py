"""What each legal placement of a card would give, read off `apply` itself.

A preview that computed rewards on its own would be a second copy of R-22..R-24 and R-50..R-54,
and would drift (it did: tripled Gold, contact Gold and Reward Board Gold were missing). Here
every candidate is the exact legal action, applied to the state; the numbers are the differences
between the state before and after, and the events `apply` produced. So a preview equals the
outcome by construction.

Only what the player already may know is reported: events are stripped as for a spectator
(a Reef card kept because the deck held one is not named), and no card drawn is shown.
"""

from __future__ import annotations

from typing import Any

from . import expansion
from .board import mask_of
from .errors import EngineError
from .events import describe
from .legal import card_placement_actions
from .rules import apply
from .state import State
from .text import t_
from .views import event_for

Json = dict[str, Any]


def placeable(state: State, seat: int, card: str) -> list[Json]:
    """The legal `place` actions of `card` for `seat` now; bad_action if it cannot place it."""
    turn = state.turn
    if state.over or seat != turn.seat or state.pending or turn.phase != "place":
        raise EngineError(
            "bad_action", t_("seat {seat} is not choosing a placement now", seat=seat)
        )
    if card not in state.players[seat].hand:
        raise EngineError("bad_action", t_("{card} is not a card in your hand", card=card))
    return card_placement_actions(state, card)


def outcomes(state: State, seat: int, card: str) -> list[Json]:
    """One outcome per legal placement of `card` by `seat` (see `outcome`)."""
    return [outcome(state, seat, action) for action in placeable(state, seat, card)]


def outcome(state: State, seat: int, action: Json) -> Json:
    """What `apply(state, action, seat)` gives the placing seat and its neighbours.

    Tails that wait for the any-tail step (R-58) are moved on a copy as `decline` would move
    them, so the preview shows them; a dark blue ship's tail is the player's later choice.
    """
    after, events = apply(state, action, seat)
    notes: list[str] = []  # marked text, worded where it is shown (app.i18n.translate_outcome)
    waiting = next((d for d in after.pending if d["kind"] == "advance"), None)
    if waiting is not None:  # `after` is this function's own: changing it touches nothing else
        after.pending.remove(waiting)
        tail_events: list[Json] = []
        expansion.advance_for_ships(after, seat, waiting["ships"], tail_events)
        events = events + tail_events
        notes.append(t_("tails move at the next step, as shown if no treasure redirects them"))
    placed = next(e for e in events if e["type"] == "placed")
    tails = [
        {
            "track": e["track"],
            "from": e["to"] - 1,
            "to": e["to"],
            "gold": e["gold"],
            "treasure": e["treasure"],
        }
        for e in events
        if e["type"] == "tail_advanced" and e["seat"] == seat
    ]
    if any(d["kind"] == "tail" for d in after.pending):
        notes.append(t_("a dark blue ship: you choose which tail it moves"))
    if any(e["type"] == "tail_blocked" for e in events):
        notes.append(t_("a tail already at the end does not move"))
    squares = (state.board.gold_spaces & mask_of(placed["cells"])).bit_count()
    rewards = sum(t["gold"] for t in tails)
    before = state.players[seat]
    return {
        "action": action,
        "cost": placed["cost"],
        "cashed": list(placed["cashed"]),
        "gold": {
            "squares": squares,
            # The treasures' share: tripled Gold spaces and the contact treasure's Gold (R-54).
            "treasures": placed["gold_gained"] - squares,
            "rewards": rewards,
            "total": placed["gold_gained"] + rewards,
        },
        "gold_after": after.players[seat].gold,
        "gold_change": after.players[seat].gold - before.gold,
        "neighbours_gold": [
            {"seat": int(s), "gold": g} for s, g in placed["neighbour_gold"].items()
        ],
        "ships": len(placed["ships"]),
        "ship_colours": list(placed["ships"]),
        "reef_draws": placed["reef_draws"],
        "treasure_draws": sum(1 for t in tails if t["treasure"]),
        "tails": tails,
        "ancestral": placed["ancestral"],
        "events": [describe(event_for(e, None)) for e in events],
        "notes": notes,
    }

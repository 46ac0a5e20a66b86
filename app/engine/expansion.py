"""Treasures of the Deep (R-50..R-56): hooks the base rules call; inert in base games. Here the
set-up, the Reward Board and the pending choices; using cards is expansion_cards.py's.

The Reward Board (fixed after setup) lives in `state.reward`; tails, Hidden Treasures and the
personal discard pile live on each Player; Hidden Treasure effects of the current turn live in
`state.turn.effects`.
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

from .content import TRACKS, expansion_content
from .errors import EngineError
from .state import State
from .text import t_

Events = list[dict[str, Any]]
TRACK_LENGTH = {2: 9, 3: 8, 4: 7, 5: 6}  # spaces after the start
# When each Hidden Treasure may be used.
BEFORE_PLACING = ("no_cost", "triple_gold", "extra_body", "free_shape", "contact_gold")
AT_MISSION = ("convert", "two_missions")
AT_DRAW = ("same_deck",)


def _milestone(length: int) -> int:
    return -(-length // 2) + 1  # ceil(length / 2) + 1


def setup_expansion(state: State, rng: random.Random) -> None:
    """Reward Board with arrows and 3 Bonus tiles, Hidden Treasures, tails, Ancestral heads."""
    xc = expansion_content()
    n = len(state.players)
    spaces = xc.reward_board[n]
    slots = [(t, i + 1) for t in TRACKS for i, sp in enumerate(spaces[t]) if sp == "A"]
    arrows = [colour for colour in TRACKS for _ in range(3)]  # 9 tokens, 3 per colour
    rng.shuffle(arrows)
    arrow_at: dict[str, dict[str, str]] = {t: {} for t in TRACKS}
    for (track, pos), colour in zip(slots, arrows, strict=False):
        arrow_at[track][str(pos)] = colour
    tiles = sorted(xc.bonus_tiles)
    rng.shuffle(tiles)
    length = TRACK_LENGTH[n]
    state.reward = {
        "length": length,
        "milestone": _milestone(length),
        "spaces": {t: list(spaces[t]) for t in TRACKS},
        "arrows": arrow_at,
        "bonus": dict(zip(TRACKS, tiles[:3], strict=False)),
    }
    treasures = sorted(xc.treasures)
    rng.shuffle(treasures)
    state.decks["treasures"] = treasures
    for p in state.players:
        p.ancestral = True  # one head swapped for the Ancestral head
        p.tails = {t: 0 for t in TRACKS}


def effect_of(card: str) -> str:
    """The effect of a Hidden Treasure card."""
    return expansion_content().treasures[card]


def held_with(s: State, effects: tuple[str, ...]) -> list[str]:
    """Hidden Treasures the current player holds with one of these effects, usable now."""
    if s.turn.treasure_used or not s.options.expansion:
        return []
    held = s.players[s.turn.seat].treasures
    return list(dict.fromkeys(c for c in held if effect_of(c) in effects))


# --- Reward Board ------------------------------------------------------------------------------


def on_ships_gained(s: State, seat: int, ships: list[str], events: Events) -> None:
    """Each ship gained advances its colour's tail; dark blue asks which (R-50).

    When the player might hold the any-tail treasure, judged on public facts alone, the tails
    wait for an `advance` step first (R-58): holder or not, everyone sees the same step.
    """
    if not s.options.expansion or not ships:
        return
    if open_tracks(s) and might_hold(s, "any_tail"):
        s.pending.append({"kind": "advance", "ships": list(ships)})
        return
    advance_for_ships(s, seat, ships, events)


def advance_for_ships(s: State, seat: int, ships: list[str], events: Events) -> None:
    """Advance the tails for ships gained, in order; a dark blue ship asks which (R-50)."""
    for colour in ships:
        if colour == "blue":
            s.pending.append({"kind": "tail", "reason": "blue_ship"})
        else:
            advance_tail(s, seat, colour, events)


def advance_tail(s: State, seat: int, track: str, events: Events) -> None:
    """Move a tail one space and take that space's reward; arrows chain (R-50..R-52)."""
    player = s.players[seat]
    pos = player.tails[track]
    length = s.reward["length"]
    if pos >= length:
        events.append({"type": "tail_blocked", "seat": seat, "track": track})
        return  # a tail never moves past A; the advance is lost
    pos += 1
    player.tails[track] = pos
    space = s.reward["spaces"][track][pos - 1]
    gold = int(space[1:]) if space.startswith("g") else 0
    # The event names what the space gave, so the log and previews show Reward Board Gold.
    events.append(
        {
            "type": "tail_advanced",
            "seat": seat,
            "track": track,
            "to": pos,
            "gold": gold,
            "treasure": space == "T",
        }
    )
    player.gold += gold
    if space == "T":
        s.pending.append({"kind": "treasure"})
    elif space == "A":
        colour = s.reward["arrows"][track].get(str(pos))
        if colour:
            advance_tail(s, seat, colour, events)


# --- Pending choices -----------------------------------------------------------------------------


def might_hold(s: State, effect: str) -> bool:
    """Whether the player to act might hold a usable treasure with `effect`, on public facts.

    R-58: a step that lets the player use a secret card must not tell anyone that the card is
    held, so whether the step exists depends only on what everyone can see: the expansion is on,
    no Hidden Treasure was used this turn, the player holds at least one (the count is public),
    and not every card with that effect lies in a discard pile.
    """
    if not s.options.expansion or s.turn.treasure_used or not s.players[s.turn.seat].treasures:
        return False
    used = {c for p in s.players for c in p.used}
    return any(c not in used for c in _cards_with(effect))


@cache
def _cards_with(effect: str) -> tuple[str, ...]:
    return tuple(c for c, e in sorted(expansion_content().treasures.items()) if e == effect)


def may_widen_reef_draw(s: State) -> bool:
    """Whether the Reef draw first waits for the draw-4 step (R-54, R-58; public facts only).

    With no more cards in the deck than the draw takes, four cards would give nothing more.
    """
    front = s.pending[0]
    if front.get("declined") or len(s.decks["reefs"]) <= front["count"]:
        return False
    return might_hold(s, "reef4")


def materialise(s: State, front: dict[str, Any], events: Events) -> bool:
    """Prepare the front pending choice; True when it resolved itself (loop again)."""
    if front["kind"] == "treasure" and "cards" not in front:
        deck = s.decks["treasures"]
        cards, s.decks["treasures"] = deck[:2], deck[2:]
        if len(cards) < 2:  # one card left is simply kept; none, nothing happens
            s.pending.pop(0)
            if cards:
                _keep_treasure(s, cards[0], [], events)
            return True
        s.pending[0] = {**front, "cards": cards}
        return False
    if front["kind"] == "tail" and not open_tracks(s):
        s.pending.pop(0)
        return True
    return False


def open_tracks(s: State) -> list[str]:
    """The tracks whose tail the player to act can still move (not yet at A)."""
    tails = s.players[s.turn.seat].tails
    return [t for t in TRACKS if tails[t] < s.reward["length"]]


def pending_actions(s: State, front: dict[str, Any]) -> list[dict[str, Any]]:
    """The answers to an expansion pending choice (R-25)."""
    kind = front["kind"]
    if kind == "reef":  # not yet drawn: the draw-4 treasure may be used first
        uses = [{"type": "use_treasure", "card": c} for c in held_with(s, ("reef4",))]
        return [*uses, {"type": "decline"}]
    if kind == "advance":
        uses = [{"type": "use_treasure", "card": c} for c in held_with(s, ("any_tail",))]
        return [*uses, {"type": "decline"}]
    if kind == "treasure":
        return [{"type": "keep_treasure", "card": c} for c in dict.fromkeys(front["cards"])]
    if kind == "tail":
        return [{"type": "choose_tail", "track": t} for t in open_tracks(s)]
    return []


def _front(s: State, kinds: tuple[str, ...], what: str) -> dict[str, Any]:
    if not s.pending or s.pending[0]["kind"] not in kinds:
        raise EngineError("wrong_phase", t_("cannot {what}: no such choice is pending", what=what))
    return s.pending[0]


def _keep_treasure(s: State, card: str, rest: list[str], events: Events) -> None:
    player = s.players[s.turn.seat]
    player.treasures.append(card)
    player.treasures_acquired += 1
    s.decks["treasures"].extend(rest)
    events.append(
        {"type": "treasure_kept", "seat": s.turn.seat, "secret": {"card": card, "returned": rest}}
    )


def _keep_treasure_action(s: State, a: Any, events: Events) -> None:
    front = _front(s, ("treasure",), a.describe())
    if a.card not in front.get("cards", []):
        raise EngineError(
            "no_such_card", t_("cannot {describe}: it was not drawn", describe=a.describe())
        )
    s.pending.pop(0)
    _keep_treasure(s, a.card, [c for c in front["cards"] if c != a.card], events)


def _choose_tail(s: State, a: Any, events: Events) -> None:
    _front(s, ("tail",), a.describe())
    if a.track not in open_tracks(s):
        raise EngineError(
            "not_allowed", t_("cannot {describe}: that tail is at the end", describe=a.describe())
        )
    s.pending.pop(0)
    advance_tail(s, s.turn.seat, a.track, events)


def _decline(s: State, a: Any, events: Events) -> None:
    front = _front(s, ("reef", "advance"), a.describe())
    if front["kind"] == "reef":
        if "cards" in front:
            raise EngineError("wrong_phase", "cannot decline: the Reef cards are drawn")
        s.pending[0] = {**front, "declined": True}
    else:
        s.pending.pop(0)
        advance_for_ships(s, s.turn.seat, front["ships"], events)


# The answers to the expansion's pending choices (a Hidden Treasure used as one: expansion_cards).
PENDING_HANDLERS: dict[str, Any] = {
    "keep_treasure": _keep_treasure_action,
    "choose_tail": _choose_tail,
    "decline": _decline,
}

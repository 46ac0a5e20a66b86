"""Treasures of the Deep (R-50..R-56): hooks the base rules call; inert in base games.

The Reward Board (fixed after setup) lives in `state.reward`; tails, Hidden Treasures and the
personal discard pile live on each Player; Hidden Treasure effects of the current turn live in
`state.turn.effects`.
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

from .content import SHIP_COLOURS, TRACKS, content, expansion_content
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


def _effect(card: str) -> str:
    return expansion_content().treasures[card]


def _held_with(s: State, effects: tuple[str, ...]) -> list[str]:
    """Hidden Treasures the current player holds with one of these effects, usable now."""
    if s.turn.treasure_used or not s.options.expansion:
        return []
    held = s.players[s.turn.seat].treasures
    return list(dict.fromkeys(c for c in held if _effect(c) in effects))


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
        uses = [{"type": "use_treasure", "card": c} for c in _held_with(s, ("reef4",))]
        return [*uses, {"type": "decline"}]
    if kind == "advance":
        uses = [{"type": "use_treasure", "card": c} for c in _held_with(s, ("any_tail",))]
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


# --- Using cards: Hidden Treasures, Coral Reefs, the Ancestral head -----------------------------


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
    effect = _effect(a.card)
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
    s.turn.effects.remove(_effect(card))
    events.append({"type": "taken_back", "seat": seat, "what": "treasure", "card": card})


def take_back_view(s: State) -> dict[str, Any] | None:
    """What `take_back` would undo now, as the view shows it (public: the card was shown when
    used), or None."""
    if s.turn.phase != "place" or not s.turn.undo:
        return None
    entry = s.turn.undo[-1]
    if entry["kind"] == "ancestral":
        return {"kind": "ancestral"}
    return {"kind": "treasure", "card": entry["card"], "effect": _effect(entry["card"])}


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
    for card in _held_with(s, BEFORE_PLACING + AT_MISSION + AT_DRAW):
        effect = _effect(card)
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
PENDING_HANDLERS: dict[str, Any] = {
    "use_treasure": _use_treasure,
    "keep_treasure": _keep_treasure_action,
    "choose_tail": _choose_tail,
    "decline": _decline,
}

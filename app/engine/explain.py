"""Why not here: the reason the engine refuses an action, as a stable code and its facts.

`explain` asks `apply` itself whether the action is legal, so it can never call legal what the
engine refuses or the other way round; it then names the first rule broken, checking in the
order `apply` checks, with the facts (squares, Gold, decks) as data. A refusal it has no finer
reason for keeps the engine's own code and message.

It never cites what the asking seat may not see (R-60): the facts come from the public board,
the public markets and deck sizes, and the asking seat's own hand and Gold cards; a seat that is
not to act learns only whose turn it is.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .actions import Action, as_square, on_board, parse_action
from .board import ISLAND, mask_of, neighbours, squares_of
from .content import content
from .draws import drawable
from .errors import EngineError
from .placement import (
    cost_of,
    gold_cards_held,
    gold_gain_of,
    region_for,
    spendable_gold,
)
from .rules import apply
from .state import State
from .text import N_, sentence, t_
from .treasure_shapes import check_shape

Json = dict[str, Any]

# The ship colours' names in reasons, marked so each language names them.
SHIP_NAMES = {"green": t_("green"), "purple": t_("purple"), "red": t_("red"), "blue": t_("blue")}
# The Pattern decks' names in reasons ("the Medium deck", never its letter).
DECK_NAMES = {"S": t_("Small"), "M": t_("Medium"), "L": t_("Large")}

# Every reason code, with the engine error code it refines (tests pin each to `apply`).
REASONS: dict[str, str] = {
    "game_over": "game_over",
    "not_your_turn": "not_your_turn",
    "decision_pending": "decision_pending",
    "wrong_phase": "wrong_phase",
    "must_draw": "wrong_phase",
    "not_in_hand": "no_such_card",
    "off_board": "bad_action",
    "malformed": "bad_action",
    "repeated_square": "illegal_placement",
    "wrong_shape": "illegal_placement",
    "on_island": "illegal_placement",
    "square_taken": "illegal_placement",
    "touches_own": "illegal_placement",
    "not_touching": "illegal_placement",
    "cannot_afford": "cannot_afford",
    "played_deck": "wrong_deck",
    "deck_empty": "no_such_card",
    "not_face_up": "no_such_card",
    "mission_limit": "not_allowed",
    "not_in_market": "no_such_card",
    "too_few_ships": "bad_payment",
    "not_held": "no_such_card",
    "not_exact": "bad_payment",
    "refused": "",  # no finer reason: the engine's own code and message
}


@dataclass(frozen=True)
class Reason:
    """Why an action is refused: a stable `code`, its `facts` as data, and a sentence."""

    code: str
    text: str
    facts: Json = field(default_factory=dict)
    engine_code: str = ""  # the EngineError code `apply` raised

    def to_json(self) -> Json:
        """The wire form: `{code, facts, text}`."""
        return {"code": self.code, "facts": dict(self.facts), "text": self.text}


# The board's column letters: a square is named as the board's edges and the screen reader name
# it ("D8": column D, row 8), the one way every page names squares.
COLUMNS = "ABCDEFGHIJKLMNO"


def square_name(sq: tuple[int, int] | list[int]) -> str:
    """A square as the table names it: its column letter and its row counted from 1 ("D8" for
    the engine's [7, 3])."""
    return f"{COLUMNS[sq[1]]}{sq[0] + 1}"


def _names(squares: list[tuple[int, int]]) -> str:
    return ", ".join(square_name(sq) for sq in squares)


def explain(state: State, seat: int, action: Any) -> Reason | None:
    """None if `apply(state, action, seat)` would succeed, else why it would not."""
    if state.over:
        return Reason("game_over", "The game is over.", engine_code="game_over")
    if seat != state.turn.seat:
        # Nothing else is looked at: the acting seat's position is not this seat's to read.
        return Reason(
            "not_your_turn",
            "It is not your turn.",
            {"to_act": state.turn.seat},
            "not_your_turn",
        )
    try:
        act = action if isinstance(action, Action) else parse_action(action)
    except EngineError as exc:
        return explain_unparsed(action, exc)
    try:
        apply(state, act, seat)
    except EngineError as exc:
        reason = _finer(state, seat, act, exc) or _plain(exc)
        return Reason(reason.code, reason.text, reason.facts, exc.code)
    return None


def explain_unparsed(action: Any, exc: EngineError) -> Reason:
    """Why an action that does not parse is refused: squares off the board, or malformed.
    Needs no position, so the socket answers it before reading the game."""
    return _off_board(action) or _plain(exc)


def _plain(exc: EngineError) -> Reason:
    """The engine's own words, for a refusal with no finer reason."""
    code = "malformed" if exc.code == "bad_action" else "refused"
    return Reason(code, sentence(exc.message), {}, exc.code)


def _off_board(action: Any) -> Reason | None:
    """Squares of a placement that lie outside the 15x15 board (parsing refuses them)."""
    if not isinstance(action, dict) or action.get("type") != "place":
        return None
    cells = action.get("cells")
    if not isinstance(cells, list):
        return None
    squares = (as_square(c) for c in cells)
    out = [list(sq) for sq in squares if sq is not None and not on_board(sq)]
    if not out:
        return None
    return Reason(
        "off_board",
        "Part of the Dragon is off the board.",
        {"squares": out},
        "bad_action",
    )


def _finer(state: State, seat: int, a: Action, exc: EngineError) -> Reason | None:
    code = exc.code
    if code == "decision_pending":
        kind = state.pending[0]["kind"]
        return Reason(
            "decision_pending",
            t_("First finish the {kind} choice (R-25).", kind=kind),
            {"pending": kind},
        )
    if code == "wrong_phase":
        return _phase(state, a)
    if a.type == "place":
        return _placement(state, seat, a, code)
    if a.type in ("draw", "pass") and code in ("wrong_deck", "no_such_card"):
        return _draw(state, a, code)
    if a.type == "mission":
        return _mission(state, seat, a, code)
    if a.type == "cash_gold" and code == "no_such_card":
        return Reason("not_held", "You hold no such Gold card.", {"card": a.card})
    return None


def _phase(state: State, a: Action) -> Reason:
    phase = state.turn.phase
    if a.type == "end_turn" and phase in ("mission", "draw") and drawable(state):
        return Reason("must_draw", "Draw a Pattern card first (R-27).", {"phase": phase})
    steps = {"place": "placing a Dragon", "mission": "the Mission step", "draw": "drawing a card"}
    return Reason(
        "wrong_phase",
        t_("Not now: the turn is at {phase}.", phase=steps.get(phase, phase)),
        {"phase": phase, "action": a.type},
    )


def _placement(state: State, seat: int, a: Action, code: str) -> Reason | None:
    player = state.players[seat]
    if code == "no_such_card":
        return Reason(
            "not_in_hand", t_("{card} is not in your hand.", card=a.card), {"card": a.card}
        )
    if code == "cannot_afford":
        return _afford(state, seat, mask_of(a.cells))
    if code != "illegal_placement":
        return None
    mask = mask_of(a.cells)
    if len(a.cells) != mask.bit_count() or a.head not in a.cells:
        return Reason("repeated_square", "A square is named twice, or the head is off the Dragon.")
    card = a.card or ""
    try:
        check_shape(state, card, a.cells)
    except EngineError:
        return Reason(
            "wrong_shape",
            t_("These squares are not the shape of {card} (R-21).", card=card),
            {"card": card, "shape": content().pattern_shape.get(card, card)},
        )
    island = sorted(squares_of(mask & ISLAND))
    if island:
        return Reason(
            "on_island",
            t_("The Central Island is not water: {island} (R-21).", island=_names(island)),
            {"squares": [list(s) for s in island]},
        )
    taken = sorted(squares_of(mask & state.occupied))
    if taken:
        return Reason(
            "square_taken",
            t_("Taken by a Dragon already: {taken} (R-21).", taken=_names(taken)),
            {"squares": [list(s) for s in taken]},
        )
    own = sorted(squares_of(player.pieces & neighbours(mask)))
    if own:
        return Reason(
            "touches_own",
            t_("Touches your own Dragon at {own} (R-21).", own=_names(own)),
            {"squares": [list(s) for s in own]},
        )
    if not mask & region_for(state, seat).touch:
        return Reason(
            "not_touching",
            "Not next to the Central Island or another player's Dragon (R-21).",
        )
    return None


# Why a placement cannot be paid, by the Gold cards held: none, one, more.
AFFORD = (
    N_("Needs {cost} Gold; you have {gold} and would land on {land} (R-22)."),
    N_("Needs {cost} Gold; you have {gold} and 1 Gold card and would land on {land} (R-22)."),
    N_(
        "Needs {cost} Gold; you have {gold} and {cards} Gold cards and would land on {land} (R-22)."
    ),
)


def _afford(state: State, seat: int, mask: int) -> Reason:
    cost = cost_of(state, mask)
    land = gold_gain_of(state, mask)
    gold = state.players[seat].gold
    cards = len(gold_cards_held(state, seat))
    spendable = spendable_gold(state, seat)
    text = t_(AFFORD[min(cards, 2)], cost=cost, gold=gold, cards=cards, land=land)
    return Reason(
        "cannot_afford",
        text,
        {
            "cost": cost,
            "gold": gold,
            "gold_cards": cards,
            "spendable": spendable,
            "land_gold": land,
            "short": cost - land - spendable,
        },
    )


def _draw(state: State, a: Action, code: str) -> Reason | None:
    source = a.source or {}
    if code == "wrong_deck":
        deck = state.turn.played_deck
        return Reason(
            "played_deck",
            t_(
                "You played from the {deck} deck this turn: draw from another (R-27).",
                deck=DECK_NAMES.get(deck or "", deck),
            ),
            {"deck": deck},
        )
    if source.get("source") == "deck":
        return Reason(
            "deck_empty",
            t_("The {source} deck is empty.", source=source["deck"]),
            {"deck": source["deck"]},
        )
    if source.get("source") == "market":
        return Reason(
            "not_face_up",
            t_("{source} is not face up.", source=source["card"]),
            {"card": source["card"]},
        )
    if a.type == "pass":
        return Reason("not_in_hand", "Name a card from your hand to discard (R-28).", {})
    return None


def _mission(state: State, seat: int, a: Action, code: str) -> Reason | None:
    player = state.players[seat]
    if code == "not_allowed":
        limit = state.turn.mission_limit
        return Reason(
            "mission_limit",
            t_("1 Mission a turn at most (R-26).")
            if limit == 1
            else t_("{limit} Missions a turn at most (R-26).", limit=limit),
            {"limit": limit},
        )
    if code == "no_such_card" and a.mission not in state.market["missions"]:
        return Reason(
            "not_in_market",
            t_("{mission} is not in the Mission market.", mission=a.mission),
            {"mission": a.mission},
        )
    if code == "no_such_card":
        missing = [c for c in a.cards if c not in player.reefs]
        return Reason("not_held", "You do not hold that Reef card.", {"card": missing[:1]})
    if code != "bad_payment":
        return None
    for colour, n in a.tokens.items():
        have = player.ships.get(colour, 0)
        if n > have:
            return Reason(
                "too_few_ships",
                t_(
                    "You have {have} {colour} ship, not {n} (R-26).",
                    have=have,
                    colour=SHIP_NAMES.get(colour, colour),
                    n=n,
                )
                if have == 1
                else t_(
                    "You have {have} {colour} ships, not {n} (R-26).",
                    have=have,
                    colour=SHIP_NAMES.get(colour, colour),
                    n=n,
                ),
                {"colour": colour, "have": have, "offered": n},
            )
    return Reason(
        "not_exact",
        "The ships offered must pay for the Mission exactly, keeping nothing back (R-26).",
        {"mission": a.mission},
    )

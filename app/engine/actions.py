"""Actions: parsing the JSON form once (bad input -> `bad_action`), and describing them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .board import SIZE
from .content import DECKS, SHIP_COLOURS, TRACKS
from .errors import EngineError
from .text import t_

TYPES = (
    "place",
    "mission",
    "draw",
    "end_turn",
    "pass",
    "cash_gold",
    "keep_reef",
    # Treasures of the Deep
    "use_ancestral",
    "use_treasure",
    "play_reef",
    "decline",
    "keep_treasure",
    "choose_tail",
    "take_back",
)


@dataclass(frozen=True)
class Action:
    """One parsed action; only the fields its `type` uses are set."""

    type: str
    card: str | None = None
    cells: tuple[tuple[int, int], ...] = ()
    head: tuple[int, int] | None = None
    mission: str | None = None
    tokens: dict[str, int] = field(default_factory=dict)
    cards: tuple[str, ...] = ()
    source: dict[str, str] | None = None
    discard: str | None = None
    track: str | None = None
    tracks: tuple[str, ...] = ()
    convert: tuple[str, str] | None = None

    def describe(self) -> str:
        """A short human description, used in error messages (a `Text`: translated where it
        is shown)."""
        if self.type == "place":
            cells = " ".join(f"{r},{c}" for r, c in self.cells)
            return t_("place {card} on [{cells}]", card=self.card, cells=cells)
        if self.type == "mission":
            return t_("complete {mission}", mission=self.mission)
        if self.type == "draw":
            return t_("draw {source}", source=_source_text(self.source))
        if self.type == "pass":
            return t_(
                "pass discarding {card} and drawing {source}",
                card=self.discard,
                source=_source_text(self.source),
            )
        words = ACTION_WORDS.get(self.type, self.type.replace("_", " "))
        if self.card:
            return t_("{action} {card}", action=words, card=self.card)
        return words


# The other actions' names in messages, marked so each language names them.
ACTION_WORDS = {
    "end_turn": t_("end turn"),
    "cash_gold": t_("cash gold"),
    "keep_reef": t_("keep reef"),
    "use_ancestral": t_("use ancestral"),
    "use_treasure": t_("use treasure"),
    "play_reef": t_("play reef"),
    "decline": t_("decline"),
    "keep_treasure": t_("keep treasure"),
    "choose_tail": t_("choose tail"),
    "take_back": t_("take back"),
}


def _source_text(source: dict[str, str] | None) -> str:
    if source is None:
        return t_("nothing")
    return source.get("card") or t_("from the {deck} deck", deck=source.get("deck"))


def _bad(msg: str) -> EngineError:
    return EngineError("bad_action", msg)


def _str(d: dict[str, Any], key: str, optional: bool = False) -> str | None:
    v = d.get(key)
    if v is None and optional:
        return None
    if not isinstance(v, str) or not 0 < len(v) <= 16:
        raise _bad(t_("{value}: field {key} must be a card id", value=d.get("type"), key=repr(key)))
    return v


# A coordinate past this is no number of a square, on the board or off it, but malformed input:
# the most any JSON reader holds exactly (RFC 7493), so a refusal may name the square back to the
# client on either road (the socket's encoder cannot even write integers past 64 bits).
COORDINATE_LIMIT = 2**53 - 1


def as_square(v: Any) -> tuple[int, int] | None:
    """`v` as a square `(row, column)`, on the board or off it; None if it is not one at all.
    The one reading of a square: parsing and the off-board reason (explain.py) both use it."""
    if (
        isinstance(v, list | tuple)
        and len(v) == 2
        and all(type(x) is int and -COORDINATE_LIMIT <= x <= COORDINATE_LIMIT for x in v)
    ):
        return (v[0], v[1])
    return None


def on_board(square: tuple[int, int]) -> bool:
    """Whether a square lies inside the 15x15 board (R-01)."""
    return all(0 <= x < SIZE for x in square)


def _square(v: Any) -> tuple[int, int]:
    square = as_square(v)
    if square is None or not on_board(square):
        raise _bad(t_("a square must be [row, column] inside the 15x15 board, not {v}", v=repr(v)))
    return square


def _source(v: Any, optional: bool = False) -> dict[str, str] | None:
    if v is None and optional:
        return None
    if isinstance(v, dict) and v.get("source") == "market" and isinstance(v.get("card"), str):
        return {"source": "market", "card": v["card"]}
    if isinstance(v, dict) and v.get("source") == "deck" and v.get("deck") in DECKS:
        return {"source": "deck", "deck": v["deck"]}
    raise _bad(
        t_(
            'a draw is {{"source": "market", "card": id}} or {{"source": "deck", ...}}: {v}',
            v=repr(v),
        )
    )


def _track(v: Any) -> str:
    if v not in TRACKS:
        raise _bad(t_("a track is one of {tracks}, not {v}", tracks=", ".join(TRACKS), v=repr(v)))
    return v


def parse_action(d: Any) -> Action:
    """Parse an action's JSON form, checking shapes and types but not legality."""
    if not isinstance(d, dict) or d.get("type") not in TYPES:
        raise _bad(
            t_("an action is an object whose type is one of {types}", types=", ".join(TYPES))
        )
    t = d["type"]
    if t == "place":
        cells = d.get("cells")
        if not isinstance(cells, list) or not 1 <= len(cells) <= 6:
            raise _bad("place: cells must be a list of 1 to 6 squares")
        squares = tuple(_square(c) for c in cells)
        head = _square(d["head"]) if "head" in d else squares[0]
        return Action(t, card=_str(d, "card"), cells=squares, head=head)
    if t == "mission":
        tokens = d.get("tokens", {})
        if not isinstance(tokens, dict) or any(
            k not in SHIP_COLOURS or type(v) is not int or not 0 <= v <= 20
            for k, v in tokens.items()
        ):
            raise _bad("mission: tokens maps ship colours to counts")
        cards = d.get("cards", [])
        if not isinstance(cards, list) or len(cards) > 5 or len(set(map(str, cards))) < len(cards):
            raise _bad("mission: cards is a list of distinct Reef card ids")
        return Action(
            t,
            mission=_str(d, "mission"),
            tokens={k: v for k, v in tokens.items() if v},
            cards=tuple(str(c) for c in cards),
        )
    if t == "draw":
        return Action(t, source=_source(d))
    if t == "pass":
        return Action(t, discard=_str(d, "discard", True), source=_source(d.get("draw"), True))
    if t in ("cash_gold", "keep_reef", "keep_treasure"):
        return Action(t, card=_str(d, "card"))
    if t == "play_reef":
        tracks = d.get("tracks", [])
        if not isinstance(tracks, list) or len(tracks) > 3:
            raise _bad("play_reef: tracks is a list")
        return Action(t, card=_str(d, "card"), tracks=tuple(_track(x) for x in tracks))
    if t == "use_treasure":
        conv = d.get("convert")
        convert = None
        if conv is not None:
            ok = isinstance(conv, list) and len(conv) == 2 and all(c in SHIP_COLOURS for c in conv)
            if not ok:
                raise _bad("use_treasure: convert is [from colour, to colour]")
            convert = (conv[0], conv[1])
        return Action(t, card=_str(d, "card"), convert=convert)
    if t == "choose_tail":
        return Action(t, track=_track(d.get("track")))
    return Action(t)


def to_json(a: Action) -> dict[str, Any]:
    """The canonical JSON form of a parsed action."""
    out: dict[str, Any] = {"type": a.type}
    if a.type == "place":
        out.update(card=a.card, cells=[list(c) for c in a.cells], head=list(a.head or a.cells[0]))
    elif a.type == "mission":
        out.update(mission=a.mission, tokens=dict(a.tokens), cards=list(a.cards))
    elif a.type == "draw":
        out.update(a.source or {})
    elif a.type == "pass":
        out.update(discard=a.discard, draw=a.source)
    elif a.type == "choose_tail":
        out["track"] = a.track
    elif a.card is not None:
        out["card"] = a.card
        if a.type == "play_reef" and a.tracks:
            out["tracks"] = list(a.tracks)
        if a.convert:
            out["convert"] = list(a.convert)
    return out

"""Readable text for game events (the game log), in pieces any language can render.

`line(event)` is the language-neutral form: a list of `[key, params]` pieces, each key naming
one clause ("log.placed", "log.placed.ships", ...) whose text, in each language, says how the
clause reads (a clause that continues a sentence starts with its own ", " or "; "). Params are
raw values; a few have a kind by their name (`who`/`neighbour`: a seat, shown as its colour;
`ships`: ship colours; `deck`, `effect`, `track`: words) and are worded by the renderer
(`app/i18n/log_lines.py` on the server, `static/js/lib/logline.mjs` in the browser), from the
same catalogues (`static/i18n/*.json`). `ENGLISH` is the English wording, and `describe` renders
with it; the English client catalogue must say the same (a test pins it).

The pieces are the same for every viewer; a line is worded for a viewer (`render(..., me=seat)`)
with the `_mine` form of each clause whose subject is the viewer ("You placed", in Spanish
"Colocaste": a person's own moves are not "Tú colocó"), and of a neighbour's Gold that is theirs.
"""

from __future__ import annotations

from typing import Any

from .state import COLOURS

Piece = list[Any]  # [key, params]

ENGLISH: dict[str, str] = {
    "log.someone": "Someone",
    "colour.orange": "Orange",
    "colour.green": "Green",
    "colour.purple": "Purple",
    "colour.pink": "Pink",
    "colour.yellow": "Yellow",
    "ship.green": "green",
    "ship.purple": "purple",
    "ship.red": "red",
    "ship.blue": "blue",
    "track.green": "green",
    "track.purple": "purple",
    "track.red": "red",
    "deck.S": "Small",
    "deck.M": "Medium",
    "deck.L": "Large",
    "effect.reef4": "draw four Reef cards, keep one",
    "effect.no_cost": "no Gold to pay for turbulent waters this turn",
    "effect.triple_gold": "triple Gold from Gold spaces this turn",
    "effect.extra_body": "one extra Dragon body this turn",
    "effect.free_shape": "any shape of the card's size this turn",
    "effect.convert": "a ship converted to another colour",
    "effect.contact_gold": "2 Gold per Dragon in contact this turn",
    "effect.same_deck": "may draw from the same deck this turn",
    "effect.any_tail": "ships advance any tail this turn",
    "effect.two_missions": "two Missions this turn",
    "log.placed": "{who} placed {card} ({squares} squares)",
    "log.placed.ancestral": ", with the Ancestral head",
    "log.placed.ship": ", took {ships} ship",
    "log.placed.ships": ", took {ships} ships",
    "log.placed.gold": ", gained {gold} Gold",
    "log.placed.reef_draw": ", earned 1 Reef draw",
    "log.placed.reef_draws": ", earned {n} Reef draws",
    "log.placed.cost": ", paid {cost} Gold",
    "log.placed.neighbour_gold": "; {neighbour} +{gold} Gold",
    "log.drew_face_up": "{who} drew {card} face up",
    "log.drew_a_card_face_up": "{who} drew a card face up",
    "log.drew_from_deck": "{who} drew {card} from the {deck} deck",
    "log.drew_a_card_from_deck": "{who} drew a card from the {deck} deck",
    "log.tail_advanced": "{who}'s {track} tail advanced to space {space}",
    "log.tail_advanced.gold": ", +{gold} Gold",
    "log.tail_advanced.treasure": ", a Hidden Treasure draw",
    "log.mission": "{who} completed {mission} for {vp} VP",
    "log.passed": "{who} passed, returning a head and taking 2 Gold",
    "log.passed.discarded": ", discarding {card}",
    "log.cashed": "{who} cashed a Gold card for 4 Gold",
    "log.reef_kept": "{who} kept a Reef card",
    "log.reef_kept.card": " ({card})",
    "log.reef_deck_empty": "The Reef deck is empty: no card drawn",
    "log.turn_ended": "{who} ended the turn",
    "log.turn_started": "{who} to play",
    "log.game_over": "The game is over",
    "log.tail_blocked": "{who}'s {track} tail is already at the end",
    "log.treasure_kept": "{who} kept a Hidden Treasure",
    "log.treasure_kept.card": " ({card})",
    "log.treasure_used": "{who} used a Hidden Treasure: {effect}",
    "log.reef_played": "{who} played Coral Reef {card}",
    "log.reef_played.gold": " and took {gold} Gold",
    "log.ancestral_declared": "{who} will place the Ancestral Dragon head",
    "log.taken_back_ancestral": "{who} took back the Ancestral Dragon head",
    "log.taken_back_treasure": "{who} took back the Hidden Treasure {card}",
    "log.other": "{who}: {kind}",
    # The viewer's own lines (`render(..., me=seat)`): a clause has a `_mine` form where the
    # viewer's grammar differs (Spanish "Colocaste", English "Your ... tail"); clauses without one
    # read the same for everyone.
    "log.placed_mine": "You placed {card} ({squares} squares)",
    "log.placed.ship_mine": ", took {ships} ship",
    "log.placed.ships_mine": ", took {ships} ships",
    "log.placed.gold_mine": ", gained {gold} Gold",
    "log.placed.reef_draw_mine": ", earned 1 Reef draw",
    "log.placed.reef_draws_mine": ", earned {n} Reef draws",
    "log.placed.cost_mine": ", paid {cost} Gold",
    "log.placed.neighbour_gold_mine": "; you gained {gold} Gold",
    "log.drew_face_up_mine": "You drew {card} face up",
    "log.drew_a_card_face_up_mine": "You drew a card face up",
    "log.drew_from_deck_mine": "You drew {card} from the {deck} deck",
    "log.drew_a_card_from_deck_mine": "You drew a card from the {deck} deck",
    "log.tail_advanced_mine": "Your {track} tail advanced to space {space}",
    "log.mission_mine": "You completed {mission} for {vp} VP",
    "log.passed_mine": "You passed, returning a head and taking 2 Gold",
    "log.cashed_mine": "You cashed a Gold card for 4 Gold",
    "log.reef_kept_mine": "You kept a Reef card",
    "log.turn_ended_mine": "You ended the turn",
    "log.turn_started_mine": "Your turn",
    "log.tail_blocked_mine": "Your {track} tail is already at the end",
    "log.treasure_kept_mine": "You kept a Hidden Treasure",
    "log.treasure_used_mine": "You used a Hidden Treasure: {effect}",
    "log.reef_played_mine": "You played Coral Reef {card}",
    "log.reef_played.gold_mine": " and took {gold} Gold",
    "log.ancestral_declared_mine": "You will place the Ancestral Dragon head",
    "log.taken_back_ancestral_mine": "You took back the Ancestral Dragon head",
    "log.taken_back_treasure_mine": "You took back the Hidden Treasure {card}",
    "log.other_mine": "You: {kind}",
}


def _placed(e: dict[str, Any], who: Any) -> list[Piece]:
    pieces: list[Piece] = [
        ["log.placed", {"who": who, "card": e["card"], "squares": len(e["cells"])}]
    ]
    if e.get("ancestral"):
        pieces.append(["log.placed.ancestral", {}])
    if e["ships"]:
        key = "log.placed.ships" if len(e["ships"]) > 1 else "log.placed.ship"
        pieces.append([key, {"ships": list(e["ships"])}])
    if e["gold_gained"]:
        pieces.append(["log.placed.gold", {"gold": e["gold_gained"]}])
    if e["reef_draws"]:
        n = e["reef_draws"]
        pieces.append(
            ["log.placed.reef_draws", {"n": n}] if n > 1 else ["log.placed.reef_draw", {}]
        )
    if e["cost"]:
        pieces.append(["log.placed.cost", {"cost": e["cost"]}])
    for seat, n in e.get("neighbour_gold", {}).items():
        pieces.append(["log.placed.neighbour_gold", {"neighbour": int(seat), "gold": n}])
    return pieces


def _drew(e: dict[str, Any], who: Any) -> list[Piece]:
    card = e.get("card") or (e.get("secret") or {}).get("card")
    if e["from"] == "market":
        if card:
            return [["log.drew_face_up", {"who": who, "card": card}]]
        return [["log.drew_a_card_face_up", {"who": who}]]
    if card:
        return [["log.drew_from_deck", {"who": who, "card": card, "deck": e["from"]}]]
    return [["log.drew_a_card_from_deck", {"who": who, "deck": e["from"]}]]


def _tail_advanced(e: dict[str, Any], who: Any) -> list[Piece]:
    pieces: list[Piece] = [
        ["log.tail_advanced", {"who": who, "track": e["track"], "space": e["to"]}]
    ]
    if e.get("gold"):  # events logged before the field existed have no `gold`
        pieces.append(["log.tail_advanced.gold", {"gold": e["gold"]}])
    if e.get("treasure"):
        pieces.append(["log.tail_advanced.treasure", {}])
    return pieces


def _secret_card(key: str, e: dict[str, Any], who: Any) -> list[Piece]:
    pieces: list[Piece] = [[key, {"who": who}]]
    if "secret" in e:
        pieces.append([key + ".card", {"card": e["secret"]["card"]}])
    return pieces


def _passed(e: dict[str, Any], who: Any) -> list[Piece]:
    pieces: list[Piece] = [["log.passed", {"who": who}]]
    if e.get("discarded"):
        pieces.append(["log.passed.discarded", {"card": e["discarded"]}])
    return pieces


def _reef_played(e: dict[str, Any], who: Any) -> list[Piece]:
    pieces: list[Piece] = [["log.reef_played", {"who": who, "card": e["card"]}]]
    if e.get("gold"):
        pieces.append(["log.reef_played.gold", {"gold": e["gold"]}])
    return pieces


def _taken_back(e: dict[str, Any], who: Any) -> list[Piece]:
    if e["what"] == "ancestral":
        return [["log.taken_back_ancestral", {"who": who}]]
    return [["log.taken_back_treasure", {"who": who, "card": e["card"]}]]


def _simple(key: str):
    return lambda e, who: [[key, {"who": who}]]


PIECES = {
    "placed": _placed,
    "drew": _drew,
    "mission": lambda e, who: [
        ["log.mission", {"who": who, "mission": e["mission"], "vp": e["vp"]}]
    ],
    "passed": _passed,
    "cashed": _simple("log.cashed"),
    "reef_kept": lambda e, who: _secret_card("log.reef_kept", e, who),
    "reef_deck_empty": lambda e, who: [["log.reef_deck_empty", {}]],
    "turn_ended": _simple("log.turn_ended"),
    "turn_started": _simple("log.turn_started"),
    "game_over": lambda e, who: [["log.game_over", {}]],
    "tail_advanced": _tail_advanced,
    "tail_blocked": lambda e, who: [["log.tail_blocked", {"who": who, "track": e["track"]}]],
    "treasure_kept": lambda e, who: _secret_card("log.treasure_kept", e, who),
    "treasure_used": lambda e, who: [["log.treasure_used", {"who": who, "effect": e["effect"]}]],
    "reef_played": _reef_played,
    "ancestral_declared": _simple("log.ancestral_declared"),
    "taken_back": _taken_back,
}


def line(event: dict[str, Any]) -> list[Piece]:
    """The log line of an event (already filtered for its viewer) as language-neutral pieces."""
    seat = event.get("seat")
    who = seat if isinstance(seat, int) else None
    fn = PIECES.get(event["type"])
    if fn is None:
        return [["log.other", {"who": who, "kind": event["type"].replace("_", " ")}]]
    return fn(event, who)


def word(kind: str, value: Any, wording: dict[str, str]) -> str:
    """A param of a kind worded from `wording` (a catalogue): seats as colours, and so on."""
    if kind in ("who", "neighbour"):
        if value is None:
            return wording["log.someone"]
        return wording[f"colour.{COLOURS[value]}"]
    if kind == "ships":
        return ", ".join(wording[f"ship.{c}"] for c in value)
    if kind in ("deck", "effect", "track"):
        return wording[f"{kind}.{value}"]
    return str(value)


MINE = "_mine"  # the suffix of a clause's key in the viewer's own form


def own_key(
    key: str, params: dict[str, Any], subject: Any, me: int | None, wording: dict[str, str]
) -> str:
    """The key a clause reads with for viewer `me`: its `_mine` form when the clause is about
    the viewer (the line's subject `subject`, the first clause's `who`, or for a clause naming a
    `neighbour`, that neighbour) and the catalogue has one; else `key`. The browser chooses the
    same way (lib/logline.mjs)."""
    about = params.get("neighbour", subject)
    if me is None or about != me:
        return key
    return key + MINE if key + MINE in wording else key


def render(pieces: list[Piece], wording: dict[str, str], me: int | None = None) -> str:
    """A line's text from a catalogue (`ENGLISH`, or another language's: app/i18n/log_lines),
    for viewer `me` (a seat: their own clauses in their own form) or for anyone (None)."""
    subject = pieces[0][1].get("who") if pieces else None
    out = []
    for key, params in pieces:
        values = {name: word(name, value, wording) for name, value in params.items()}
        out.append(wording[own_key(key, params, subject, me, wording)].format(**values))
    return "".join(out)


class LineText(str):
    """A log line in English that keeps its pieces (and its viewer: their own clauses read
    "You placed"), so it can be worded in another language where it is shown
    (app.i18n.translate)."""

    pieces: list[Piece]
    me: int | None

    def __new__(cls, pieces: list[Piece], me: int | None = None) -> LineText:
        made = super().__new__(cls, render(pieces, ENGLISH, me))
        made.pieces = pieces
        made.me = me
        return made

    def __getnewargs__(self) -> tuple[list[Piece], int | None]:  # type: ignore[override]
        return (self.pieces, self.me)


def describe(event: dict[str, Any]) -> str:
    """One line of game log for an event (already filtered for its viewer), in English."""
    return render(line(event), ENGLISH)

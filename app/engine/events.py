"""Readable text for game events (the game log)."""

from __future__ import annotations

from typing import Any

from .state import COLOURS

DECK_WORDS = {"S": "Small", "M": "Medium", "L": "Large"}
EFFECT_WORDS = {
    "reef4": "draw four Reef cards, keep one",
    "no_cost": "no Gold to pay for turbulent waters this turn",
    "triple_gold": "triple Gold from Gold spaces this turn",
    "extra_body": "one extra Dragon body this turn",
    "free_shape": "any shape of the card's size this turn",
    "convert": "a ship converted to another colour",
    "contact_gold": "2 Gold per Dragon in contact this turn",
    "same_deck": "may draw from the same deck this turn",
    "any_tail": "ships advance any tail this turn",
    "two_missions": "two Missions this turn",
}


def _who(event: dict[str, Any]) -> str:
    seat = event.get("seat")
    return f"{COLOURS[seat].capitalize()}" if isinstance(seat, int) else "Someone"


def _placed(e: dict[str, Any]) -> str:
    parts = [f"{_who(e)} placed {e['card']} ({len(e['cells'])} squares)"]
    if e.get("ancestral"):
        parts.append("with the Ancestral head")
    if e["ships"]:
        parts.append(
            "took " + ", ".join(e["ships"]) + " ship" + ("s" if len(e["ships"]) > 1 else "")
        )
    if e["gold_gained"]:
        parts.append(f"gained {e['gold_gained']} Gold")
    if e["reef_draws"]:
        n = e["reef_draws"]
        parts.append(f"earned {n} Reef draw" + ("s" if n > 1 else ""))
    if e["cost"]:
        parts.append(f"paid {e['cost']} Gold")
    text = ", ".join(parts)
    for seat, n in e.get("neighbour_gold", {}).items():
        text += f"; {COLOURS[int(seat)].capitalize()} +{n} Gold"
    return text


def _drew(e: dict[str, Any]) -> str:
    card = e.get("card") or (e.get("secret") or {}).get("card")
    where = "face up" if e["from"] == "market" else f"from the {DECK_WORDS[e['from']]} deck"
    return f"{_who(e)} drew {card + ' ' if card else 'a card '}{where}"


def _tail_advanced(e: dict[str, Any]) -> str:
    text = f"{_who(e)}'s {e['track']} tail advanced to space {e['to']}"
    if e.get("gold"):  # events logged before the field existed have no `gold`
        text += f", +{e['gold']} Gold"
    if e.get("treasure"):
        text += ", a Hidden Treasure draw"
    return text


TEMPLATES = {
    "placed": _placed,
    "drew": _drew,
    "mission": lambda e: f"{_who(e)} completed {e['mission']} for {e['vp']} VP",
    "passed": lambda e: (
        f"{_who(e)} passed, returning a head and taking 2 Gold"
        + (f", discarding {e['discarded']}" if e.get("discarded") else "")
    ),
    "cashed": lambda e: f"{_who(e)} cashed a Gold card for 4 Gold",
    "reef_kept": lambda e: (
        f"{_who(e)} kept a Reef card" + (f" ({e['secret']['card']})" if "secret" in e else "")
    ),
    "reef_deck_empty": lambda e: "The Reef deck is empty: no card drawn",
    "turn_ended": lambda e: f"{_who(e)} ended the turn",
    "turn_started": lambda e: f"{_who(e)} to play",
    "game_over": lambda e: "The game is over",
    "tail_advanced": _tail_advanced,
    "tail_blocked": lambda e: f"{_who(e)}'s {e['track']} tail is already at the end",
    "treasure_kept": lambda e: (
        f"{_who(e)} kept a Hidden Treasure" + (f" ({e['secret']['card']})" if "secret" in e else "")
    ),
    "treasure_used": lambda e: f"{_who(e)} used a Hidden Treasure: {EFFECT_WORDS[e['effect']]}",
    "reef_played": lambda e: (
        f"{_who(e)} played Coral Reef {e['card']}"
        + (f" and took {e['gold']} Gold" if e.get("gold") else "")
    ),
    "ancestral_declared": lambda e: f"{_who(e)} will place the Ancestral Dragon head",
    "taken_back": lambda e: (
        f"{_who(e)} took back the Ancestral Dragon head"
        if e["what"] == "ancestral"
        else f"{_who(e)} took back the Hidden Treasure {e['card']}"
    ),
}


def describe(event: dict[str, Any]) -> str:
    """One line of game log for an event (already filtered for its viewer)."""
    fn = TEMPLATES.get(event["type"])
    if fn is None:
        return f"{_who(event)}: {event['type'].replace('_', ' ')}"
    return fn(event)

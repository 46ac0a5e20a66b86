"""Words the tutorials and the rules page's examples share: deck and treasure names, and the
Starfish example told with the engine's figures."""

from __future__ import annotations

from typing import Any

import app.engine as rules
from app.engine.state import State

from .lessons import NAMES

DECK_NAMES = {"S": "Small", "M": "Medium", "L": "Large"}

# The Hidden Treasure effects (expansion rulebook), in a sentence each.
TREASURE_WORDS = {
    "reef4": "When you draw Reef cards, draw four instead of two and keep one.",
    "no_cost": "This turn Whirlpools and Sea Currents cost no Gold.",
    "triple_gold": "This turn Gold symbols under your Dragon give three times their Gold "
    "(never the Reward Board's).",
    "extra_body": "This turn your Dragon may take one extra body square, touching it.",
    "free_shape": "This turn your Dragon may take any connected shape of the card's size.",
    "convert": "When completing a Mission, turn one of your ships into another colour.",
    "contact_gold": "This turn you get 2 Gold for each other Dragon touching the new one, and "
    "that Gold may pay the placement (R-22).",
    "same_deck": "This turn you may draw from the deck of the card you played.",
    "any_tail": "This turn each ship you take may move any tail you choose.",
    "two_missions": "This turn you may complete two Missions (use it before the first, R-57).",
}


def starfish_text(state: State) -> str:
    """The rulebook's Starfish example as the engine scored this game (R-42, R-43)."""
    scores = rules.final_scores(state)
    whirlpools = scores["realm_whirlpools"]["starfish"]
    parts = []
    for p in sorted(scores["players"], key=lambda p: -p["realm_detail"]["starfish"]["count"]):
        d = p["realm_detail"]["starfish"]
        hidden = f" (with {d['hidden']} Hidden Dragon card)" if d["hidden"] else ""
        parts.append(
            f"{NAMES[p['seat']]} {d['count']} Dragons{hidden}, {d['pieces']} pieces: "
            f"{p['realms']['starfish']} VP"
        )
    return (
        f"The Starfish Realm has {whirlpools} uncovered Whirlpools. "
        + "; ".join(parts)
        + ". Smaug's Hidden Dragon card, revealed at the end, ties him with Haku; the tie goes "
        "to the one with more pieces in the realm (Hidden Dragons do not count for that), so "
        "Haku takes 3 VP per Whirlpool and Smaug, second, half of it, rounded down (R-43)."
    )


def seat_names(count: int) -> list[str]:
    """The players' names in the examples, by seat."""
    return list(NAMES[:count])


def describe_all(events: list[dict[str, Any]]) -> list[str]:
    """Log lines of public events."""
    return [rules.describe(rules.event_for(e, None)) for e in events]

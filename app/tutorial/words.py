"""Words the tutorials and the rules page's examples share: deck, treasure and Bonus tile
names, the players' names, and the Starfish example told with the engine's figures.

The marked texts are English; the functions here give them in the current language
(`app.i18n.current_language`, the request's), each sentence one template filled with the
engine's figures.
"""

from __future__ import annotations

from typing import Any

import app.engine as rules
from app.engine.content import expansion_content
from app.engine.state import State
from app.i18n import gettext

from .lessons import N_, NAMES

DECK_NAMES = {"S": N_("Small"), "M": N_("Medium"), "L": N_("Large")}

# The Hidden Treasure effects (expansion rulebook), in a sentence each.
TREASURE_WORDS = {
    "reef4": N_("When you draw Reef cards, draw four instead of two and keep one."),
    "no_cost": N_("This turn Whirlpools and Sea Currents cost no Gold."),
    "triple_gold": N_(
        "This turn Gold symbols under your Dragon give three times their Gold "
        "(never the Reward Board's)."
    ),
    "extra_body": N_("This turn your Dragon may take one extra body square, touching it."),
    "free_shape": N_("This turn your Dragon may take any connected shape of the card's size."),
    "convert": N_("When completing a Mission, turn one of your ships into another colour."),
    "contact_gold": N_(
        "This turn you get 2 Gold for each other Dragon touching the new one, and "
        "that Gold may pay the placement (R-22)."
    ),
    "same_deck": N_("This turn you may draw from the deck of the card you played."),
    "any_tail": N_("This turn each ship you take may move any tail you choose."),
    "two_missions": N_("This turn you may complete two Missions (use it before the first, R-57)."),
}

# The Hidden Treasures' names in the examples' titles.
TREASURE_NAMES = {
    "reef4": N_("four Reef cards"),
    "no_cost": N_("no cost"),
    "triple_gold": N_("triple Gold"),
    "extra_body": N_("an extra body"),
    "free_shape": N_("a free shape"),
    "convert": N_("a converted ship"),
    "contact_gold": N_("Gold for contacts"),
    "same_deck": N_("the same deck"),
    "any_tail": N_("any tail"),
    "two_missions": N_("two Missions"),
}

# The Bonus tiles' texts (app/engine/content/bonus_tiles.json says them in English: a test
# keeps these the same), marked so they are translated.
BONUS_WORDS = {
    "BT1": N_("3 VP per Hidden Treasure card acquired"),
    "BT2": N_("half the VP from Mission cards, rounded down"),
    "BT3": N_("3/5 VP per Dragon placed in 2 Sea Realms"),
    "BT4": N_("5/7 VP per Pattern card played of the least-used colour"),
    "BT5": N_("5/7 VP per Dragon in the Sea Realm where you have the least presence"),
    "BT6": N_("half the VP from Gold at the end, rounded down"),
    "BT7": N_("4/6 VP per Dragon on the outer edge of the board"),
    "BT8": N_("3/4 VP per Reef card acquired"),
}


def deck_name(deck: str | None) -> str | None:
    """A Pattern deck's name ("Small") in the current language."""
    name = DECK_NAMES.get(deck or "")
    return gettext(name) if name else None


def treasure_words(effect: str) -> str:
    """What a Hidden Treasure does, in the current language (its code if unknown)."""
    words = TREASURE_WORDS.get(effect)
    return gettext(words) if words else effect


def treasure_name(effect: str) -> str:
    words = TREASURE_NAMES.get(effect)
    return gettext(words) if words else effect.replace("_", " ")


def bonus_words(tile_id: str) -> str:
    """A Bonus tile's text in the current language (the engine's English if unknown)."""
    words = BONUS_WORDS.get(tile_id)
    return gettext(words) if words else expansion_content().bonus_tiles[tile_id]["text"]


def seat_name(seat: int) -> str:
    """A player's name in the examples ("You" is the learner's, translated)."""
    return gettext(NAMES[seat])


def seat_names(count: int) -> list[str]:
    """The players' names in the examples, by seat."""
    return [seat_name(seat) for seat in range(count)]


def starfish_text(state: State) -> str:
    """The rulebook's Starfish example as the engine scored this game (R-42, R-43)."""
    scores = rules.final_scores(state)
    whirlpools = scores["realm_whirlpools"]["starfish"]
    parts = []
    for p in sorted(scores["players"], key=lambda p: -p["realm_detail"]["starfish"]["count"]):
        d = p["realm_detail"]["starfish"]
        values = {
            "name": seat_name(p["seat"]),
            "dragons": d["count"],
            "hidden": d["hidden"],
            "pieces": d["pieces"],
            "vp": p["realms"]["starfish"],
        }
        template = (
            N_(
                "{name} {dragons} Dragons (with {hidden} Hidden Dragon card), {pieces} pieces: "
                "{vp} VP"
            )
            if d["hidden"]
            else N_("{name} {dragons} Dragons, {pieces} pieces: {vp} VP")
        )
        parts.append(gettext(template).format(**values))
    # The players' figures are a list (one item each): only the list's separator joins them.
    return " ".join(
        (
            gettext(N_("The Starfish Realm has {whirlpools} uncovered Whirlpools.")).format(
                whirlpools=whirlpools
            ),
            "; ".join(parts) + ".",
            gettext(
                N_(
                    "Smaug's Hidden Dragon card, revealed at the end, ties him with Haku; the tie "
                    "goes to the one with more pieces in the realm (Hidden Dragons do not count "
                    "for that), so Haku takes 3 VP per Whirlpool and Smaug, second, half of it, "
                    "rounded down (R-43)."
                )
            ),
        )
    )


def describe_all(events: list[dict[str, Any]]) -> list[str]:
    """Log lines of public events."""
    return [rules.describe(rules.event_for(e, None)) for e in events]

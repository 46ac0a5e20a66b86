"""The tutorials' lessons: which scripted game each replays, and what each step says.

A lesson is a fixed game (`scripts/<id>.json`, found by tools/tutorial_search.py): the options,
the seed and every move, the learner's tagged with the kind of step it teaches. The words are
here, one text per step kind, written from the rulebooks (shared/rules) with the ruling that
decided a point where one did. `{name}` fields are filled from the engine at the step (the cost
the placement pays, the Gold it lands on, ...), so no number in a text is written by hand.
Every text is English marked for translation: it is translated first (the template, with its
`{name}` places), then filled, so a translation orders the figures as its language does.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

SCRIPTS = Path(__file__).with_name("scripts")


def N_(message: str) -> str:
    """Mark `message` for translation where it is written (Babel extracts it); it is translated
    where it is shown (app.web.api_learn, app.tutorial.examples), in the reader's language."""
    return message


LEARNER = 0  # the learner's seat in every lesson; the other seats are bots
# The players of the rulebook's examples, so its Starfish example reads as it is printed.
NAMES = (N_("You"), "Haku", "Smaug", "Mushu")


@dataclass(frozen=True)
class StepText:
    """What a step says: a title, what to do, why (the rule), and the rulings behind it."""

    title: str
    do: str
    why: str
    rulings: tuple[str, ...] = ()


@dataclass(frozen=True)
class Lesson:
    """One scripted game and where it sits among the tutorials."""

    id: str
    tutorial: str  # "base" (Sea Dragons) or "deep" (Treasures of the Deep)
    title: str
    intro: str
    done: str  # said once the last step is played


LESSONS: dict[str, Lesson] = {
    "base": Lesson(
        "base",
        "base",
        N_("Your first turns"),
        N_(
            "You play orange against three bots: Haku (green), Smaug (purple) and Mushu (pink). "
            "A turn is: play a Pattern card and place its Dragon, maybe complete a Mission, then "
            "draw a card. Follow the highlighted moves; anything else is refused with the reason."
        ),
        N_(
            "That is a whole turn, and every kind of it. Next: how the game ends and who wins "
            "the realms."
        ),
    ),
    "ending": Lesson(
        "ending",
        "base",
        N_("The end and the realm majorities"),
        N_(
            "We played ahead to your last Dragon head. Open the Majorities (button or M) to see "
            "who leads each realm: the board is the rulebook's Starfish example, played for real."
        ),
        N_("{starfish_text}"),
    ),
    "deep": Lesson(
        "deep",
        "deep",
        N_("Treasures of the Deep"),
        N_(
            "The expansion adds the Reward Board: each ship you take moves one of your three tails "
            "along a track, and the spaces reached give Gold, Hidden Treasures or an Arrow that "
            "moves another tail. You also hold one Ancestral head."
        ),
        N_(
            "At the end each track's Bonus tile scores: {bonus_text} A tail at A scores its tile "
            "in full, a tail at or past B half of it, rounded down (R-53). That is the expansion."
        ),
    ),
}

PLACE_HOW = N_(
    "Pick the card {card} in your hand, move the ghost onto the highlighted squares (R rotates, "
    "F mirrors, N jumps to the next legal spot), click to fix it, then Place Dragon."
)

STEPS: dict[str, StepText] = {
    "first_dragon": StepText(
        N_("Play a card, place a Dragon"),
        PLACE_HOW,
        N_(
            "A Dragon takes the shape printed on the card, turned or mirrored as you like, with "
            "the head on any of its squares. At least one square must touch the Central Island or "
            "another player's Dragon, side by side (diagonals never count). This spot covers "
            "{ship_tokens}: ships are taken at once."
        ),
        ("R-21", "R-23"),
    ),
    "draw_other": StepText(
        N_("Draw from another deck"),
        N_(
            "Draw the highlighted card. Try drawing from the {played_deck} deck first: it is "
            "refused."
        ),
        N_(
            "Last, you draw one Pattern card, face up or the top of a deck, but never from the "
            "deck of the card you just played (it was a {played_deck} card). A face-up card taken "
            "is replaced from its deck."
        ),
        ("R-27",),
    ),
    "draw": StepText(
        N_("Draw a card"),
        N_("Draw the highlighted card to end your turn."),
        N_("Any deck but the one of the card you played this turn ({played_deck})."),
        ("R-27",),
    ),
    "touch_other": StepText(
        N_("Touch another player's Dragon, never your own"),
        PLACE_HOW,
        N_(
            "Now the island's sides are filling: a Dragon may also start beside another player's "
            "Dragon, but no square may ever touch one of your own (try it: refused). Each other "
            "player gets 1 Gold for every one of their Dragons the new one touches: here "
            "{neighbours}. You take {ships_taken} and {gold_squares} Gold from the Gold symbols."
        ),
        ("R-21", "R-23", "R-24"),
    ),
    "landing_gold": StepText(
        N_("Whirlpools and Currents cost Gold"),
        PLACE_HOW,
        N_(
            "Each Whirlpool or Sea Current square costs 2 Gold: this spot costs {cost} and you "
            "hold {gold_before}. It is allowed because the Gold you land on pays too: the rewards "
            "come first (+{gold_squares} Gold here), then the cost. A spot you cannot pay even so "
            "is refused (try the other one)."
        ),
        ("R-22",),
    ),
    "reef_dragon": StepText(
        N_("Reef symbols: draw two, keep one"),
        PLACE_HOW,
        N_(
            "A Reef symbol under your Dragon draws 2 Reef cards: you keep one, the other goes "
            "under the deck. Reef cards are ships for Missions, Gold (4 each, cash any time on "
            "your turn), or Hidden Dragons that count in a realm at the end."
        ),
        ("R-23", "R-25"),
    ),
    "keep_reef": StepText(
        N_("Keep one Reef card"),
        N_("Keep the highlighted Reef card."),
        N_(
            "Only you see your Reef cards; the others see how many you hold. The other card goes "
            "to the bottom of the deck, unseen."
        ),
        ("R-25", "R-60"),
    ),
    "mission": StepText(
        N_("Complete a Mission"),
        N_("Open the highlighted Mission in the market and pay with the payment shown."),
        N_(
            "After placing you may complete one Mission: hand in the ships it shows. Two ships of "
            "one colour may stand for one ship of any colour, as here. Its VP count at the end, "
            "and the player with the most Missions gets 5 VP more."
        ),
        ("R-26", "R-41"),
    ),
    "place": StepText(
        N_("Another Dragon"),
        PLACE_HOW,
        N_(
            "The same rules as before: touch the island or another player's Dragon, never your "
            "own, pay 2 Gold per Whirlpool or Current square. This one costs {cost} and gives "
            "{ships_taken} and {gold_squares} Gold."
        ),
        ("R-21", "R-22", "R-23"),
    ),
    "pass": StepText(
        N_("Pass"),
        N_("Open Pass, discard the highlighted card and draw the highlighted one."),
        N_(
            "Instead of a turn you may always pass: a Dragon head goes back to the box (it counts "
            "as a turn played), you swap one card of your hand and take 2 Gold. No Mission on a "
            "pass."
        ),
        ("R-28",),
    ),
    "last_head": StepText(
        N_("Your last Dragon head"),
        PLACE_HOW,
        N_(
            "The game ends once every player has used all their Dragon heads; this is your last "
            "one. Before placing it, read the realm standings (Majorities): in each realm the "
            "player with the most Dragons scores 3 VP per uncovered Whirlpool, second place half, "
            "rounded down. You cannot see the others' Hidden Dragon cards yet."
        ),
        ("R-30", "R-42", "R-43", "R-60"),
    ),
    "last_draw": StepText(
        N_("The last draw"),
        N_("Draw the highlighted card; the bots then play their last heads."),
        N_("A draw still ends your last turn (the card will not be played)."),
        ("R-27", "R-30"),
    ),
    "red_ship": StepText(
        N_("Ships move your tails"),
        PLACE_HOW,
        N_(
            "Every ship you take moves your tail of its colour one space on the Reward Board. This "
            "Dragon takes a red ship: the red tail reaches a Hidden Treasure space."
        ),
        ("R-50", "R-51"),
    ),
    "keep_treasure": StepText(
        N_("Keep a Hidden Treasure"),
        N_("Keep the highlighted Hidden Treasure."),
        N_(
            "A Hidden Treasure space draws 2 Hidden Treasure cards; you keep one, the other goes "
            "under the deck. Each is a one-time power, used at the moment it names, one per turn."
        ),
        ("R-51", "R-54"),
    ),
    "blue_ship": StepText(
        N_("A dark blue ship"),
        PLACE_HOW,
        N_("Dark blue ships have no track of their own: you choose which tail it moves."),
        ("R-50",),
    ),
    "choose_tail": StepText(
        N_("Choose the tail"),
        N_("Choose the highlighted track for the dark blue ship. Try drawing first: refused."),
        N_(
            "A choice that interrupts the turn is answered before anything else. A tail never "
            "moves past A, the end of its track."
        ),
        ("R-25", "R-50"),
    ),
    "decline": StepText(
        N_("Tails move now"),
        N_("Press Decline (use no treasure): the tails move as the ships say."),
        N_(
            "Because you hold a Hidden Treasure, the game stops here before tails move: a treasure "
            "could send them elsewhere. The others see the same stop whatever you hold."
        ),
        ("R-58",),
    ),
    "use_treasure": StepText(
        N_("Use your Hidden Treasure"),
        N_("Use the highlighted Hidden Treasure from your hand, before placing."),
        N_(
            "{treasure_text} It lasts this turn. A used treasure goes to your own discard pile; "
            "Undo takes it back until you place."
        ),
        ("R-54",),
    ),
    "treasure_place": StepText(
        N_("Place with the treasure"),
        PLACE_HOW,
        N_("With the treasure on, this spot costs {cost} Gold and gives {gold_total} Gold."),
        ("R-22", "R-54"),
    ),
    "use_ancestral": StepText(
        N_("The Ancestral head"),
        N_("Press Use the Ancestral head before placing."),
        N_(
            "Once a game your Dragon may take the Ancestral head: at the end that Dragon counts as "
            "two in the realm where its head lies."
        ),
        ("R-56",),
    ),
    "ancestral_place": StepText(
        N_("Where the head lies"),
        # One sentence per template: never glued from translated parts.
        N_(
            "Pick the card {card} in your hand, move the ghost onto the highlighted squares (R "
            "rotates, F mirrors, N jumps to the next legal spot), click to fix it, then Place "
            "Dragon. Put the head on the square marked with the head."
        ),
        N_(
            "The head's square decides the realm where this Dragon counts twice; on a Sea Current "
            "it counts nowhere extra."
        ),
        ("R-56",),
    ),
}


@cache
def script(lesson_id: str) -> dict[str, Any]:
    """The lesson's fixed game: options, seed and every move (found by tools/tutorial_search.py)."""
    return json.loads((SCRIPTS / f"{lesson_id}.json").read_text())


def step_moves(lesson_id: str) -> list[int]:
    """Indices in the script of the learner's moves that are steps."""
    return [i for i, m in enumerate(script(lesson_id)["moves"]) if "step" in m]

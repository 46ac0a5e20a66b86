"""Hints: what the expert would do, seen from the player's own view only, and why in words.

`suggest` is the expert's choice from `view_for(state, seat)` and the legal actions: it never
reads the state, so a hint cannot depend on a card the player may not see (R-60). It runs in a
bot worker process (app/infra/bot_pool.py) within a time budget and a cap on search rounds.

`reasons` words what the suggested action gives, reading the numbers off the engine (the
placement's outcome, app/engine/preview.py, and the realm standings before and after, as this
seat sees them): the rewards and majorities the expert counts, never a rule worked out here.
"""

from __future__ import annotations

import random
from typing import Any

from app.engine.board import REALMS
from app.engine.events import LineText, line
from app.engine.rules import apply
from app.engine.state import State
from app.engine.text import Text, t_
from app.engine.views import event_for, view_for

from .expert import ExpertBot

Json = dict[str, Any]


def suggest(
    view: Json, legal: list[Json], budget_s: float, seed: int, rounds: int | None = None
) -> Json:
    """The expert's action for the viewer of `view` (one element of `legal`)."""
    return ExpertBot(random.Random(seed), budget_s=budget_s, rounds=rounds).choose(view, legal)


def reasons(state: State, seat: int, action: Json, outcome: Json | None) -> list[str]:
    """What `action` gives `seat`, in words: Gold, ships, cards, Reward Board, realms (each line
    marked text, translated where it is shown)."""
    if outcome is None:
        after, events = apply(state, action, seat)
        # As a spectator sees them: a card drawn from a deck is nobody's to know yet.
        lines = [LineText(line(event_for(e, None)), seat) for e in events]
        return [text for text in lines if text][:3] + _realm_lines(state, after, seat)
    lines: list[str] = []
    gold = outcome["gold"]
    if outcome["ships"] == 1:
        lines.append(t_("It takes 1 ship ({colours}).", colours=_ships(outcome)))
    elif outcome["ships"]:
        lines.append(
            t_("It takes {n} ships ({colours}).", n=outcome["ships"], colours=_ships(outcome))
        )
    if gold["total"]:
        lines.append(t_("It gains {gold} Gold.", gold=gold["total"]))
    if outcome["cost"]:
        lines.append(t_("It pays {cost} Gold.", cost=outcome["cost"]))
    if outcome["reef_draws"]:
        lines.append(_reef_draws(outcome["reef_draws"]))
    if outcome["treasure_draws"]:
        lines.append(_treasure_draws(outcome["treasure_draws"]))
    given = sum(n["gold"] for n in outcome["neighbours_gold"])
    if given:
        lines.append(t_("It gives neighbours {gold} Gold.", gold=given))
    if not lines:
        lines.append(t_("It takes no reward."))
    after, _ = apply(state, action, seat)
    return lines + _realm_lines(state, after, seat)


SHIP_NAMES = {"green": t_("green"), "purple": t_("purple"), "red": t_("red"), "blue": t_("blue")}
REALM_NAMES = {
    "starfish": t_("Starfish"),
    "conch": t_("Conch"),
    "seahorse": t_("Seahorse"),
    "turtle": t_("Turtle"),
}


def _ships(outcome: Json) -> Text:
    """The colours taken, each worded in the reader's language, joined by commas."""
    names = [SHIP_NAMES.get(c, c) for c in outcome["ship_colours"]]
    return Text(
        ", ".join("{w" + str(i) + "}" for i in range(len(names))),
        {f"w{i}": name for i, name in enumerate(names)},
    )


def _reef_draws(n: int) -> Text:
    if n == 1:
        return t_("It draws Reef cards once.")
    return t_("It draws Reef cards twice.") if n == 2 else t_("It draws Reef cards {n} times.", n=n)


def _treasure_draws(n: int) -> Text:
    if n == 1:
        return t_("It draws a Hidden Treasure once.")
    if n == 2:
        return t_("It draws a Hidden Treasure twice.")
    return t_("It draws a Hidden Treasure {n} times.", n=n)


def _realm_lines(before: State, after: State, seat: int) -> list[str]:
    """How the realm majorities change for `seat`, as `seat` sees them (its own Hidden Dragons
    only, R-60)."""
    old = {r["realm"]: r for r in view_for(before, seat)["realms"]}
    new = {r["realm"]: r for r in view_for(after, seat)["realms"]}
    lines: list[str] = []
    for realm in REALMS:
        a, b = old[realm]["seats"][seat], new[realm]["seats"][seat]
        if (a["dragons"], a["vp"]) == (b["dragons"], b["vp"]):
            continue
        leaders = new[realm]["leaders"]
        facts = {
            "realm": REALM_NAMES[realm],
            "before": a["dragons"],
            "after": b["dragons"],
            "vp_before": a["vp"],
            "vp_after": b["vp"],
        }
        if seat not in leaders:
            text = t_(
                "{realm}: your Dragons {before} → {after}, others lead, "
                "{vp_before} → {vp_after} VP if the game ended now.",
                **facts,
            )
        elif len(leaders) == 1:
            text = t_(
                "{realm}: your Dragons {before} → {after}, you lead, "
                "{vp_before} → {vp_after} VP if the game ended now.",
                **facts,
            )
        else:
            text = t_(
                "{realm}: your Dragons {before} → {after}, tied for the lead, "
                "{vp_before} → {vp_after} VP if the game ended now.",
                **facts,
            )
        lines.append(text)
    return lines

"""Hints: what the expert would do, seen from the player's own view only, and why in words.

`suggest` is the expert's choice from `view_for(state, seat)` and the legal actions: it never
reads the state, so a hint cannot depend on a card the player may not see (R-60). It runs in a
bot worker process (app/services/bot_pool.py) within a time budget and a cap on search rounds.

`reasons` words what the suggested action gives, reading the numbers off the engine (the
placement's outcome, app/engine/preview.py, and the realm standings before and after, as this
seat sees them): the rewards and majorities the expert counts, never a rule worked out here.
"""

from __future__ import annotations

import random
from typing import Any

from app.engine.board import REALMS
from app.engine.events import describe
from app.engine.rules import apply
from app.engine.state import State
from app.engine.views import event_for, view_for

from .expert import ExpertBot

Json = dict[str, Any]


def suggest(
    view: Json, legal: list[Json], budget_s: float, seed: int, rounds: int | None = None
) -> Json:
    """The expert's action for the viewer of `view` (one element of `legal`)."""
    return ExpertBot(random.Random(seed), budget_s=budget_s, rounds=rounds).choose(view, legal)


def reasons(state: State, seat: int, action: Json, outcome: Json | None) -> list[str]:
    """What `action` gives `seat`, in words: Gold, ships, cards, Reward Board, realms."""
    if outcome is None:
        after, events = apply(state, action, seat)
        # As a spectator sees them: a card drawn from a deck is nobody's to know yet.
        lines = [describe(event_for(e, None)) for e in events]
        return [line for line in lines if line][:3] + _realm_lines(state, after, seat)
    words = []
    gold = outcome["gold"]
    if outcome["ships"]:
        colours = ", ".join(outcome["ship_colours"])
        words.append(f"takes {outcome['ships']} ship{'s' * (outcome['ships'] != 1)} ({colours})")
    if gold["total"]:
        words.append(f"gains {gold['total']} Gold")
    if outcome["cost"]:
        words.append(f"pays {outcome['cost']} Gold")
    if outcome["reef_draws"]:
        words.append(f"draws Reef cards {_times(outcome['reef_draws'])}")
    if outcome["treasure_draws"]:
        words.append(f"draws a Hidden Treasure {_times(outcome['treasure_draws'])}")
    given = sum(n["gold"] for n in outcome["neighbours_gold"])
    if given:
        words.append(f"gives neighbours {given} Gold")
    lines = [("It " + ", ".join(words) + ".") if words else "It takes no reward."]
    after, _ = apply(state, action, seat)
    return lines + _realm_lines(state, after, seat)


def _times(n: int) -> str:
    return {1: "once", 2: "twice"}.get(n, f"{n} times")


def _realm_lines(before: State, after: State, seat: int) -> list[str]:
    """How the realm majorities change for `seat`, as `seat` sees them (its own Hidden Dragons
    only, R-60)."""
    old = {r["realm"]: r for r in view_for(before, seat)["realms"]}
    new = {r["realm"]: r for r in view_for(after, seat)["realms"]}
    lines = []
    for realm in REALMS:
        a, b = old[realm]["seats"][seat], new[realm]["seats"][seat]
        if (a["dragons"], a["vp"]) == (b["dragons"], b["vp"]):
            continue
        leaders = new[realm]["leaders"]
        lead = (
            "others lead"
            if seat not in leaders
            else ("you lead" if len(leaders) == 1 else "tied for the lead")
        )
        lines.append(
            f"{realm.capitalize()}: your Dragons {a['dragons']} → {b['dragons']}, {lead}, "
            f"{a['vp']} → {b['vp']} VP if the game ended now."
        )
    return lines

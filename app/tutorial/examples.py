"""The rules page's examples as positions built and scored by the engine.

Each example is a public view (`view_for(state, None)`, R-60: a spectator's) of a real
position, the squares to mark, and the figures the engine gives for it:

- Smaug's placement (the rulebook's example): a scripted game (scripts/smaug.json, found by
  app.tutorial.search) at Smaug's turn; the figures are `preview.outcome` of the placement,
  and the board shows the Dragon placed.
- The Starfish majority: the end of the ending lesson's game, scored by `final_scores`.
- Each Hidden Treasure: a position of the expansion lesson's game where the learner is about to
  place, with the treasure put in hand; the figures are the best placement's outcome with the
  treasure used and without it, both from `apply`.
- Each Bonus tile: the board at the end of a greedy bots' game (fixed seed), with the tile's
  value for every player from `bonus.tail_detail`.

Built once per process (they never change).
"""

from __future__ import annotations

import random
from dataclasses import replace
from functools import cache
from typing import Any

from pydantic import BaseModel

import app.engine as rules
from app.bots import GreedyBot
from app.engine import preview
from app.engine.bonus import tail_detail
from app.engine.content import expansion_content
from app.engine.state import GameOptions, State

from .lessons import LEARNER, NAMES, script
from .words import TREASURE_WORDS, seat_names, starfish_text

Json = dict[str, Any]
BONUS_SEED = 7  # the greedy game whose end shows the Bonus tiles
# A Treasure shown at a placement: the learner's turn of the expansion lesson where it places.
TREASURE_STEP = "treasure_place"
# Treasures whose effect shows in a placement's outcome; the others act at another moment.
AT_PLACING = ("no_cost", "triple_gold", "extra_body", "free_shape", "contact_gold")


class ExampleOut(BaseModel):
    id: str
    kind: str  # "placement", "majority", "treasure", "bonus"
    title: str
    text: str  # the example in words, with the engine's figures
    view: Json  # a spectator's view of the position
    marks: list[list[int]]  # squares to outline
    figures: list[Json]  # [{label, value}]: the engine's numbers the text cites
    names: list[str]


class ExamplesOut(BaseModel):
    examples: list[ExampleOut]


def _replay(data: Json, upto: int | None = None) -> State:
    moves = data["moves"] if upto is None else data["moves"][:upto]
    return rules.replay(
        GameOptions.from_dict(data["options"]),
        data["seed"],
        [(m["seat"], m["action"]) for m in moves],
    )


def smaug() -> Json:
    data = script("smaug")
    before = _replay(data)
    action = data["example"]
    o = preview.outcome(before, 2, action)
    after, _ = rules.apply(before, action, 2)
    near = ", ".join(f"{NAMES[n['seat']]} +{n['gold']}" for n in o["neighbours_gold"])
    colours = " and ".join(o["ship_colours"])
    return {
        "id": "smaug",
        "kind": "placement",
        "title": "Smaug's placement",
        "text": (
            f"Smaug (purple) plays a Large card and lays 1 head and 4 bodies beside a pink and a "
            f"green Dragon. He takes the {colours} ships and {o['gold']['squares']} Gold from "
            f"the Gold symbol, and pays {o['cost']} Gold for the Whirlpool he covers. Then the "
            f"Dragons he touches pay out: {near}."
        ),
        "view": rules.view_for(after, None),
        "marks": action["cells"],
        "figures": [
            {"label": "ships taken", "value": o["ships"]},
            {"label": "Gold from symbols", "value": o["gold"]["squares"]},
            {"label": "cost", "value": o["cost"]},
            *(
                {"label": f"{NAMES[n['seat']]} gets", "value": n["gold"]}
                for n in o["neighbours_gold"]
            ),
        ],
        "names": seat_names(4),
    }


def starfish() -> Json:
    end = _replay(script("ending"))
    scores = rules.final_scores(end)
    starfish_squares = [[r, c] for r in range(7) for c in range(7)]
    return {
        "id": "starfish",
        "kind": "majority",
        "title": "The Starfish majority",
        "text": starfish_text(end),
        "view": rules.view_for(end, None),
        "marks": starfish_squares,
        "figures": [
            *(
                {
                    "label": f"{NAMES[p['seat']]} ({p['realm_detail']['starfish']['count']} "
                    f"Dragons, {p['realm_detail']['starfish']['pieces']} pieces)",
                    "value": p["realms"]["starfish"],
                }
                for p in scores["players"]
            ),
            {"label": "uncovered Whirlpools", "value": scores["realm_whirlpools"]["starfish"]},
        ],
        "names": seat_names(4),
    }


def _treasure_base() -> State:
    data = script("deep")
    i = next(i for i, m in enumerate(data["moves"]) if m.get("step") == "use_treasure")
    return _replay(data, i)


def _showing(plain: State, used: State, card: str) -> tuple[Json, Json | None] | None:
    """The placement where the treasure changes most: (its outcome with the treasure, the same
    placement's outcome without it, or None where it is legal only with the treasure)."""
    try:
        found = preview.outcomes(used, LEARNER, card)
    except rules.EngineError:
        return None
    best: tuple[int, Json, Json | None] | None = None
    for o in found:
        same = preview.outcome(plain, LEARNER, o["action"]) if _legal(plain, o["action"]) else None
        if same is None:
            gain = 10
        else:
            gain = (same["cost"] - o["cost"]) + (o["gold"]["total"] - same["gold"]["total"])
        if best is None or gain > best[0]:
            best = (gain, o, same)
    return (best[1], best[2]) if best else None


def treasure(card: str, effect: str, base: State) -> Json:
    figures: list[Json] = []
    marks: list[list[int]] = []
    text = TREASURE_WORDS.get(effect, effect)
    if effect in AT_PLACING:
        s = base.clone()
        me = s.players[LEARNER]
        me.treasures = [card]
        hand_card = me.hand[0]
        used, _ = rules.apply(s, {"type": "use_treasure", "card": card}, LEARNER)
        shown = _showing(s, used, hand_card)
        if shown is not None:
            with_it, same = shown
            marks = with_it["action"]["cells"]
            figures = [
                {"label": "with it: cost", "value": with_it["cost"]},
                {"label": "with it: Gold gained", "value": with_it["gold"]["total"]},
            ]
            if same is not None:
                figures += [
                    {"label": "without: cost", "value": same["cost"]},
                    {"label": "without: Gold gained", "value": same["gold"]["total"]},
                ]
            else:
                figures.append({"label": "without: legal", "value": "no"})
            text += (
                f" Here, {hand_card} on the marked squares: with the treasure it costs "
                f"{with_it['cost']} and gains {with_it['gold']['total']} Gold"
                + (
                    f"; without, {same['cost']} and {same['gold']['total']}."
                    if same is not None
                    else "; without it that spot is not legal."
                )
            )
    else:
        text += " It acts away from the placement, so the board only shows where it was held."
    return {
        "id": f"treasure-{effect}",
        "kind": "treasure",
        "title": f"Hidden Treasure: {effect.replace('_', ' ')} ({card})",
        "text": text,
        "view": rules.view_for(base, None),
        "marks": marks,
        "figures": figures,
        "names": seat_names(4),
    }


def _legal(state: State, action: Json) -> bool:
    try:
        rules.apply(state, action, LEARNER)
    except rules.EngineError:
        return False
    return True


def _bonus_end() -> State:
    state = rules.new_game(GameOptions(players=4, expansion=True), BONUS_SEED)
    bots = {s: GreedyBot(random.Random(BONUS_SEED * 10 + s)) for s in range(4)}
    while not state.over:
        seat = rules.to_act(state)
        assert seat is not None
        legal = rules.legal_actions(state, seat)
        state, _ = rules.apply(state, bots[seat].choose(rules.view_for(state, seat), legal), seat)
    return state


def bonus(tile_id: str, end: State) -> Json:
    tile = expansion_content().bonus_tiles[tile_id]
    # The tile on the green track of this game: tail_detail scores it for every player.
    s = replace(end, reward={**end.reward, "bonus": {**end.reward["bonus"], "green": tile_id}})
    figures = []
    for seat in range(len(s.players)):
        d = tail_detail(s, seat, "green")
        figures.append({"label": f"{NAMES[seat]}: tile worth", "value": d["tile"]})
    return {
        "id": f"bonus-{tile_id}",
        "kind": "bonus",
        "title": f"Bonus tile {tile_id}",
        "text": f"{tile['text']} (the second value with 4 or 5 players), at most 20 VP. Below, "
        "each player's value of it on this board, the end of a bots' game: a tail at A scores "
        "it in full, a tail at or past B half, rounded down (R-53).",
        "view": rules.view_for(end, None),
        "marks": [],
        "figures": figures,
        "names": seat_names(4),
    }


@cache
def all_examples() -> Json:
    """Every example (built once: they never change)."""
    out = [smaug(), starfish()]
    base = _treasure_base()
    seen: set[str] = set()
    for card, effect in expansion_content().treasures.items():
        if effect not in seen:
            seen.add(effect)
            out.append(treasure(card, effect, base))
    end = _bonus_end()
    out.extend(bonus(t, end) for t in sorted(expansion_content().bonus_tiles))
    return {"examples": out}

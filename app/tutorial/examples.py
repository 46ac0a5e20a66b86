"""The rules page's examples as positions built and scored by the engine.

Each example is a public view (`view_for(state, None)`, R-60: a spectator's) of a real
position, the squares to mark, and the figures the engine gives for it:

- Smaug's placement (the rulebook's example): a scripted game (scripts/smaug.json, found by
  tools/tutorial_search.py) at Smaug's turn; the figures are `preview.outcome` of the placement,
  and the board shows the Dragon placed.
- The Starfish majority: the end of the ending lesson's game, scored by `final_scores`.
- Each Hidden Treasure: a position of the expansion lesson's game where the learner is about to
  place, with the treasure put in hand; the figures are the best placement's outcome with the
  treasure used and without it, both from `apply`.
- Each Bonus tile: the board at the end of a greedy bots' game (fixed seed), with the tile's
  value for every player from `bonus.tail_detail`.

The positions and figures are built once per process (they never change); the words are the
English marked texts, given in the current language (the request's) and kept per language, each
sentence one template filled with the engine's figures.
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
from app.i18n import current_language, gettext

from .lessons import LEARNER, N_, script
from .words import bonus_words, seat_name, seat_names, starfish_text, treasure_name, treasure_words

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


def say(template: str, **values: Any) -> str:
    """A marked template in the current language, filled."""
    return gettext(template).format(**values)


@cache
def _smaug_position() -> tuple[State, Json, Json]:
    """Smaug's placement: the board after it, the action, and its outcome."""
    data = script("smaug")
    before = _replay(data)
    action = data["example"]
    o = preview.outcome(before, 2, action)
    after, _ = rules.apply(before, action, 2)
    return after, action, o


def smaug() -> Json:
    after, action, o = _smaug_position()
    near = ", ".join(
        say(N_("{name} +{gold}"), name=seat_name(n["seat"]), gold=n["gold"])
        for n in o["neighbours_gold"]
    )
    colours = o["ship_colours"]
    ships = (
        say(
            N_("the {first} and {second} ships"),
            first=_ship(colours[0]),
            second=_ship(colours[1]),
        )
        if len(colours) == 2
        else ", ".join(_ship(c) for c in colours)
    )
    return {
        "id": "smaug",
        "kind": "placement",
        "title": say(N_("Smaug's placement")),
        "text": say(
            N_(
                "Smaug (purple) plays a Large card and lays 1 head and 4 bodies beside a pink and "
                "a green Dragon. He takes {ships} and {gold} Gold from the Gold symbol, and pays "
                "{cost} Gold for the Whirlpool he covers. Then the Dragons he touches pay out: "
                "{near}."
            ),
            ships=ships,
            gold=o["gold"]["squares"],
            cost=o["cost"],
            near=near,
        ),
        "view": rules.view_for(after, None),
        "marks": action["cells"],
        "figures": [
            {"label": say(N_("ships taken")), "value": o["ships"]},
            {"label": say(N_("Gold from symbols")), "value": o["gold"]["squares"]},
            {"label": say(N_("cost")), "value": o["cost"]},
            *(
                {"label": say(N_("{name} gets"), name=seat_name(n["seat"])), "value": n["gold"]}
                for n in o["neighbours_gold"]
            ),
        ],
        "names": seat_names(4),
    }


def _ship(colour: str) -> str:
    """A ship's colour as the log words it, in the current language."""
    from app.i18n.log_lines import wording  # the client catalogues: read only when used

    return wording(current_language()).get(f"ship.{colour}", colour)


@cache
def _ending() -> tuple[State, Json]:
    end = _replay(script("ending"))
    return end, rules.final_scores(end)


def starfish() -> Json:
    end, scores = _ending()
    starfish_squares = [[r, c] for r in range(7) for c in range(7)]
    return {
        "id": "starfish",
        "kind": "majority",
        "title": say(N_("The Starfish majority")),
        "text": starfish_text(end),
        "view": rules.view_for(end, None),
        "marks": starfish_squares,
        "figures": [
            *(
                {
                    "label": say(
                        N_("{name} ({dragons} Dragons, {pieces} pieces)"),
                        name=seat_name(p["seat"]),
                        dragons=p["realm_detail"]["starfish"]["count"],
                        pieces=p["realm_detail"]["starfish"]["pieces"],
                    ),
                    "value": p["realms"]["starfish"],
                }
                for p in scores["players"]
            ),
            {
                "label": say(N_("uncovered Whirlpools")),
                "value": scores["realm_whirlpools"]["starfish"],
            },
        ],
        "names": seat_names(4),
    }


@cache
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


@cache
def _treasure_shown(card: str, effect: str) -> tuple[str, tuple[Json, Json | None] | None]:
    """The hand card placed and the placement the treasure changes most (None if it acts away
    from the placement, or changes none)."""
    base = _treasure_base()
    s = base.clone()
    me = s.players[LEARNER]
    me.treasures = [card]
    hand_card = me.hand[0]
    if effect not in AT_PLACING:
        return hand_card, None
    used, _ = rules.apply(s, {"type": "use_treasure", "card": card}, LEARNER)
    return hand_card, _showing(s, used, hand_card)


def treasure(card: str, effect: str, base: State) -> Json:
    figures: list[Json] = []
    marks: list[list[int]] = []
    text = treasure_words(effect)
    hand_card, shown = _treasure_shown(card, effect)
    if effect not in AT_PLACING:
        text += " " + say(
            N_("It acts away from the placement, so the board only shows where it was held.")
        )
    elif shown is not None:
        with_it, same = shown
        marks = with_it["action"]["cells"]
        figures = [
            {"label": say(N_("with it: cost")), "value": with_it["cost"]},
            {"label": say(N_("with it: Gold gained")), "value": with_it["gold"]["total"]},
        ]
        if same is not None:
            figures += [
                {"label": say(N_("without: cost")), "value": same["cost"]},
                {"label": say(N_("without: Gold gained")), "value": same["gold"]["total"]},
            ]
            text += " " + say(
                N_(
                    "Here, {card} on the marked squares: with the treasure it costs {cost} and "
                    "gains {gold} Gold; without, {cost_without} and {gold_without}."
                ),
                card=hand_card,
                cost=with_it["cost"],
                gold=with_it["gold"]["total"],
                cost_without=same["cost"],
                gold_without=same["gold"]["total"],
            )
        else:
            figures.append({"label": say(N_("without: legal")), "value": say(N_("no"))})
            text += " " + say(
                N_(
                    "Here, {card} on the marked squares: with the treasure it costs {cost} and "
                    "gains {gold} Gold; without it that spot is not legal."
                ),
                card=hand_card,
                cost=with_it["cost"],
                gold=with_it["gold"]["total"],
            )
    return {
        "id": f"treasure-{effect}",
        "kind": "treasure",
        "title": say(N_("Hidden Treasure: {name} ({card})"), name=treasure_name(effect), card=card),
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


@cache
def _bonus_end() -> State:
    state = rules.new_game(GameOptions(players=4, expansion=True), BONUS_SEED)
    bots = {s: GreedyBot(random.Random(BONUS_SEED * 10 + s)) for s in range(4)}
    while not state.over:
        seat = rules.to_act(state)
        assert seat is not None
        legal = rules.legal_actions(state, seat)
        state, _ = rules.apply(state, bots[seat].choose(rules.view_for(state, seat), legal), seat)
    return state


@cache
def _tile_values(tile_id: str) -> tuple[int, ...]:
    """The tile's value for every player at the end of the bots' game."""
    end = _bonus_end()
    # The tile on the green track of this game: tail_detail scores it for every player.
    s = replace(end, reward={**end.reward, "bonus": {**end.reward["bonus"], "green": tile_id}})
    return tuple(tail_detail(s, seat, "green")["tile"] for seat in range(len(s.players)))


def bonus(tile_id: str, end: State) -> Json:
    figures = [
        {"label": say(N_("{name}: tile worth"), name=seat_name(seat)), "value": value}
        for seat, value in enumerate(_tile_values(tile_id))
    ]
    return {
        "id": f"bonus-{tile_id}",
        "kind": "bonus",
        "title": say(N_("Bonus tile {tile}"), tile=tile_id),
        "text": say(
            N_(
                "{tile_text} (the second value with 4 or 5 players), at most 20 VP. Below, each "
                "player's value of it on this board, the end of a bots' game: a tail at A scores "
                "it in full, a tail at or past B half, rounded down (R-53)."
            ),
            tile_text=bonus_words(tile_id),
        ),
        "view": rules.view_for(end, None),
        "marks": [],
        "figures": figures,
        "names": seat_names(4),
    }


def all_examples() -> Json:
    """Every example, in the current language."""
    return _examples(current_language())


@cache
def _examples(language: str) -> Json:
    # Kept per language: `language` is the current one (all_examples), so the words are in it.
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

"""Finds the fixed games the tutorials replay, and writes them to app/tutorial/scripts/.

A tutorial is a real game: every move of it, the learner's and the bots', is an engine action
from a fixed seed. Which seed shows which lesson is found here by playing games and keeping the
first one where each lesson's situation arises (a placement that can only be paid with the Gold
it lands on, a mission paid with two ships for one, the rulebook's Starfish majority, ...). The
learner's moves are chosen by a lesson plan, the other seats by the greedy bot (or, for the
ending, by a plan that builds the rulebook's example); each learner decision becomes a step.

    python -m tools.tutorial_search            # prints what it finds
    python -m tools.tutorial_search --write    # and rewrites the scripts

The scripts are committed: the search is run when a rules change breaks a lesson (the lesson
tests fail), never at run time.
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import app.engine as rules
from app.bots import GreedyBot
from app.engine import preview
from app.engine.board import REALM_MASKS, mask_of
from app.engine.content import content
from app.engine.explain import explain
from app.engine.shapes import orientations
from app.engine.state import GameOptions, State

Json = dict[str, Any]
SCRIPTS = Path(__file__).resolve().parents[1] / "app" / "tutorial" / "scripts"
LEARNER = 0
STARFISH = REALM_MASKS["starfish"]


class Recorder:
    """A game being played, with every move kept (the learner's tagged with its step kind)."""

    def __init__(self, options: GameOptions, seed: int) -> None:
        self.options = options
        self.seed = seed
        self.state = rules.new_game(options, seed)
        self.moves: list[Json] = []

    def play(self, seat: int, action: Json, step: str | None = None, tries: Any = None) -> list:
        self.state, events = rules.apply(self.state, action, seat)
        move: Json = {"seat": seat, "action": rules.canonical_action(action)}
        if step:
            move["step"] = step
        if tries:
            move["tries"] = tries
        self.moves.append(move)
        return events

    def script(self, **extra: Any) -> Json:
        return {"options": self.options.to_dict(), "seed": self.seed, **extra, "moves": self.moves}


def outcome(state: State, seat: int, action: Json) -> Json:
    return preview.outcome(state, seat, action)


def places(state: State, seat: int) -> list[Json]:
    return [a for a in rules.legal_actions(state, seat) if a["type"] == "place"]


def refused(state: State, seat: int, card: str, code: str, near: Json | None = None) -> Json | None:
    """A placement of `card` the engine refuses with reason `code`, nearest to `near`."""
    shape = content().shapes[content().pattern_shape[card]]
    best: tuple[int, Json] | None = None
    centre = near["cells"][0] if near else (7, 7)
    for o in orientations(shape):
        for r0 in range(15):
            for c0 in range(15):
                cells = [[r0 + r, c0 + c] for r, c in o]
                if any(r > 14 or c > 14 for r, c in cells):
                    continue
                action = {"type": "place", "card": card, "cells": cells, "head": cells[0]}
                dist = abs(r0 - centre[0]) + abs(c0 - centre[1])
                if best is not None and dist >= best[0]:
                    continue
                why = explain(state, seat, action)
                if why is not None and why.code == code:
                    best = (dist, action)
    return best[1] if best else None


def tries_for(state: State, seat: int, action: Json, codes: tuple[str, ...]) -> list[Json]:
    out = []
    for code in codes:
        found = refused(state, seat, action["card"], code, action)
        if found is not None:
            out.append({"action": found, "reason": code})
    return out


def in_realm(action: Json, realm_mask: int) -> bool:
    return bool(mask_of(tuple(c) for c in action["cells"]) & realm_mask)


def bot_move(bots: dict[int, GreedyBot], state: State, seat: int) -> Json:
    legal = rules.legal_actions(state, seat)
    return bots[seat].choose(rules.view_for(state, seat), legal)


# --- the base tutorial: one game, the learner's first turns ---------------------------------

BASE_PLAN = ("first_dragon", "touch_other", "landing_gold", "reef_dragon", "mission", "pass")


def _place_for(state: State, lesson: str) -> tuple[Json, Json] | None:
    """The learner's placement for `lesson` now, with its outcome, or None."""
    me = state.players[LEARNER]
    scored = []
    for a in places(state, LEARNER):
        o = outcome(state, LEARNER, a)
        value = 3 * o["ships"] + o["gold"]["total"] - o["cost"]
        touches = bool(o["neighbours_gold"])
        if lesson == "first_dragon":
            ok = o["cost"] == 0 and o["ships"] >= 1
        elif lesson == "touch_other":
            ok = touches and o["cost"] == 0 and o["ships"] + o["gold"]["squares"] >= 2
        elif lesson == "landing_gold":
            ok = o["cost"] > 0 and me.gold < o["cost"] and not o["cashed"]
        elif lesson == "reef_dragon":
            ok = o["reef_draws"] >= 1
        else:  # any placement: prefer ships (the mission needs them)
            ok = True
        if ok:
            scored.append((value, a, o))
    if not scored:
        return None
    scored.sort(key=lambda x: -x[0])
    return scored[0][1], scored[0][2]


def _two_for_one(state: State) -> Json | None:
    """A mission the learner can pay now with two ships of a colour standing for one."""
    missions = content().missions
    for a in rules.legal_actions(state, LEARNER):
        if a["type"] != "mission":
            continue
        need = len(missions[a["mission"]].ships)
        paid = sum(a["tokens"].values())
        if paid > need and not a["cards"]:
            return a
    return None


def _learner_turns(rec: Recorder, seed: int, plan: list[str]) -> Iterator[State]:
    """Each state where the learner is to act, while `plan` has lessons left (the caller plays
    the learner's move and takes the lessons it teaches off the plan); the greedy bots, seeded
    from `seed`, play every other seat in between."""
    bots = {s: GreedyBot(random.Random(seed * 10 + s)) for s in (1, 2, 3)}
    while plan:
        s = rec.state
        seat = rules.to_act(s)
        if seat != LEARNER:
            rec.play(seat, bot_move(bots, s, seat))
            continue
        yield s


def _learner_draw(rec: Recorder, step: str, tries: bool) -> None:
    s = rec.state
    draws = [a for a in rules.legal_actions(s, LEARNER) if a["type"] == "draw"]
    market = [a for a in draws if a["source"] == "market"]
    action = (market or draws)[0]
    t = []
    if tries:
        t = [
            {
                "action": {"type": "draw", "source": "deck", "deck": s.turn.played_deck},
                "reason": "played_deck",
            }
        ]
    rec.play(LEARNER, action, step, t)


def _learner_pending(rec: Recorder) -> None:
    s = rec.state
    for a in rules.legal_actions(s, LEARNER):
        if a["type"] == "keep_reef":
            rec.play(LEARNER, a, "keep_reef")
            return
        if a["type"] in ("decline", "choose_tail", "keep_treasure"):
            rec.play(LEARNER, a, a["type"])
            return
    raise RuntimeError("unknown pending decision")


def base_game(seed: int, layouts: tuple[str, ...] | None = None) -> Json | None:
    rec = Recorder(GameOptions(players=4, first_player=0, layouts=layouts), seed)
    plan = list(BASE_PLAN)
    turns = 0
    draws_seen = 0
    for s in _learner_turns(rec, seed, plan):
        if s.pending:
            _learner_pending(rec)
            continue
        if s.turn.phase == "place":
            turns += 1
            if turns > 7:
                return None
            lesson = plan[0]
            if lesson == "pass":
                a = next(a for a in rules.legal_actions(s, LEARNER) if a["type"] == "pass")
                rec.play(LEARNER, a, "pass")
                plan.pop(0)
                continue
            found = _place_for(s, lesson) if lesson != "mission" else _place_for(s, "any")
            if found is None:
                if lesson in ("first_dragon", "touch_other"):
                    return None
                found = _place_for(s, "any")
                if found is None:
                    return None
                rec.play(LEARNER, found[0], "place")
                continue
            action, _o = found
            codes = {
                "first_dragon": ("not_touching", "on_island"),
                "touch_other": ("touches_own",),
                "landing_gold": ("cannot_afford",),
            }.get(lesson, ())
            step = lesson if lesson != "mission" else "place"
            rec.play(LEARNER, action, step, tries_for(s, LEARNER, action, codes))
            if lesson != "mission":
                plan.pop(0)
            continue
        if s.turn.phase == "mission" and plan and plan[0] == "mission":
            m = _two_for_one(s)
            if m is not None:
                rec.play(LEARNER, m, "mission")
                plan.pop(0)
                continue
        draws_seen += 1
        _learner_draw(rec, "draw_other" if draws_seen == 1 else "draw", draws_seen == 1)
    return rec.script(id="base")


# --- the ending: the rulebook's Starfish example, then the last heads ------------------------

# The rulebook's example: Haku (green) 4 Dragons in the Starfish Realm, Smaug (purple) 3 and a
# Hidden Dragon card, the others 2 each; 7 uncovered Whirlpools (layout 1A has exactly 7).
STARFISH_TARGET = {0: 2, 1: 4, 2: 3, 3: 2}
ENDING_LAYOUTS = ("1A", "2B", "3B", "4A")


def _hidden_starfish(card: str) -> bool:
    r = content().reefs[card]
    return r.kind == "hidden_dragon" and r.realm == "starfish"


def _starfish_count(state: State, seat: int) -> int:
    return sum(1 for d in state.dragons if d.owner == seat and d.mask & STARFISH)


def _ending_move(state: State, seat: int, rng: random.Random) -> Json:
    legal = rules.legal_actions(state, seat)
    p = state.players[seat]
    if state.pending:
        keeps = [a for a in legal if a["type"] == "keep_reef"]
        want = [a for a in keeps if _hidden_starfish(a["card"])]
        if seat == 2 and want:
            return want[0]
        others = [a for a in keeps if not _hidden_starfish(a["card"])]
        return (others or keeps)[0]
    if state.turn.phase != "place":
        return next(a for a in legal if a["type"] in ("draw", "end_turn"))
    whirl = state.board.whirlpools & STARFISH
    need = STARFISH_TARGET[seat] - _starfish_count(state, seat)
    ok = []
    for a in legal:
        if a["type"] != "place":
            continue
        m = mask_of(tuple(c) for c in a["cells"])
        if m & whirl:
            continue
        if need <= 0 and m & STARFISH:
            continue
        ok.append((a, m))
    if need > 0:
        inside = [x for x in ok if x[1] & STARFISH]
        ok = inside or ok
    wants_reef = seat == 2 and not any(_hidden_starfish(c) for c in p.reefs)
    if wants_reef:
        reefy = [x for x in ok if x[1] & state.board.reef_spaces]
        ok = reefy or ok
    if ok:
        # Haku wins the tie on pieces: he places big Dragons in the realm, Smaug small ones.
        if seat == 1:
            ok.sort(key=lambda x: -(x[1] & STARFISH).bit_count())
        elif seat == 2:
            ok.sort(key=lambda x: (x[1] & STARFISH).bit_count())
        else:
            rng.shuffle(ok)
        return ok[0][0]
    return next(a for a in legal if a["type"] == "pass")


def ending_game(seed: int) -> Json | None:
    rec = Recorder(GameOptions(players=4, first_player=0, layouts=ENDING_LAYOUTS), seed)
    rng = random.Random(seed)
    last_turn = False
    while not rec.state.over:
        s = rec.state
        seat = rules.to_act(s)
        action = _ending_move(s, seat, rng)
        step = None
        if seat == LEARNER:
            if s.turn.phase == "place" and not s.pending and s.players[LEARNER].heads == 1:
                last_turn = True
            if last_turn:
                step = (
                    "last_head"
                    if action["type"] in ("place", "pass")
                    else "last_draw"
                    if action["type"] == "draw"
                    else action["type"]
                )
        rec.play(seat, action, step)
        if seat == LEARNER and last_turn and action["type"] in ("draw", "pass", "end_turn"):
            last_turn = False
    s = rec.state
    detail = rules.final_scores(s)
    star = {p["seat"]: p["realm_detail"]["starfish"] for p in detail["players"]}
    counts = {k: v["count"] for k, v in star.items()}
    if counts != {0: 2, 1: 4, 2: 4, 3: 2} or star[2]["hidden"] != 1:
        return None
    if star[1]["pieces"] <= star[2]["pieces"]:
        return None
    return rec.script(id="ending")


# --- Treasures of the Deep: tails, a dark blue ship, a Hidden Treasure, the Ancestral head ----

DEEP_PLAN = ("red_ship", "blue_ship", "use_treasure", "ancestral")
EASY_TREASURES = ("no_cost", "triple_gold", "contact_gold")  # no square editing needed


def _treasure_effect(card: str) -> str:
    from app.engine.content import expansion_content

    return expansion_content().treasures[card]


def _deep_place(state: State, lesson: str) -> Json | None:
    best = None
    for a in places(state, LEARNER):
        o = outcome(state, LEARNER, a)
        colours = o["ship_colours"]
        if lesson == "red_ship":
            ok = "red" in colours and "blue" not in colours and o["cost"] == 0
        elif lesson == "blue_ship":
            ok = colours.count("blue") == 1 and o["cost"] == 0
        elif lesson == "use_treasure":
            ok = o["cost"] > 0 or o["gold"]["treasures"] > 0
        else:
            ok = True
        if ok:
            value = 3 * o["ships"] + o["gold"]["total"] - o["cost"]
            if best is None or value > best[0]:
                best = (value, a)
    return best[1] if best else None


def deep_game(seed: int) -> Json | None:
    rec = Recorder(GameOptions(players=4, expansion=True, first_player=0), seed)
    plan = list(DEEP_PLAN)
    turns = 0
    for s in _learner_turns(rec, seed, plan):
        legal = rules.legal_actions(s, LEARNER)
        if s.pending:
            kind = s.pending[0]["kind"]
            if kind == "treasure":
                keeps = [a for a in legal if _treasure_effect(a["card"]) in EASY_TREASURES]
                if not keeps:
                    return None
                rec.play(LEARNER, keeps[0], "keep_treasure")
            elif kind == "tail":
                # a pending choice comes first; drawing now is refused.
                early = {"type": "draw", "source": "deck", "deck": "S"}
                rec.play(
                    LEARNER,
                    legal[0],
                    "choose_tail",
                    [{"action": early, "reason": "decision_pending"}],
                )
            else:
                _learner_pending(rec)
            continue
        if s.turn.phase == "place":
            lesson = plan[0]
            if lesson == "use_treasure" and not s.turn.effects:
                use = [a for a in legal if a["type"] == "use_treasure"]
                if not use:
                    return None
                # Only worth it where the treasure changes the outcome: look one move ahead.
                after, _ = rules.apply(s, use[0], LEARNER)
                if _deep_place(after, "use_treasure") is None:
                    return None
                rec.play(LEARNER, use[0], "use_treasure")
                continue
            if lesson == "ancestral" and not s.turn.ancestral:
                rec.play(LEARNER, {"type": "use_ancestral"}, "use_ancestral")
                continue
            turns += 1
            if turns > 6:
                return None
            action = _deep_place(s, lesson)
            if action is None:
                if lesson in ("red_ship", "use_treasure", "ancestral"):
                    return None
                action = _deep_place(s, "any")
                if action is None:
                    return None
                rec.play(LEARNER, action, "place")
                continue
            step = {"use_treasure": "treasure_place", "ancestral": "ancestral_place"}.get(
                lesson, lesson
            )
            rec.play(LEARNER, action, step)
            plan.pop(0)
            continue
        _learner_draw(rec, "draw", False)
    # Finish the turn, so the last position is the bots' answer to it.
    while rules.to_act(rec.state) == LEARNER:
        s = rec.state
        if s.pending:
            _learner_pending(rec)
        else:
            _learner_draw(rec, "draw", False)
    return rec.script(id="deep")


# --- the rulebook's placement example: Smaug's Dragon -------------------------------------

SMAUG, HAKU, MUSHU = 2, 1, 3


def _smaug_example(state: State) -> Json | None:
    """A placement of Smaug's like the rulebook's: 5 squares beside a pink and a green Dragon,
    a red and a green ship, 1 Gold symbol, one Whirlpool (2 Gold); Mushu and Haku +1 each."""
    for a in places(state, SMAUG):
        if len(a["cells"]) != 5:
            continue
        o = outcome(state, SMAUG, a)
        near = {n["seat"]: n["gold"] for n in o["neighbours_gold"]}
        if (
            sorted(o["ship_colours"]) == ["green", "red"]
            and o["gold"]["squares"] == 1
            and o["cost"] == 2
            and near == {HAKU: 1, MUSHU: 1}
            and not o["reef_draws"]
        ):
            return a
    return None


def smaug_game(seed: int) -> Json | None:
    rec = Recorder(GameOptions(players=4), seed)
    bots = {s: GreedyBot(random.Random(seed * 10 + s)) for s in range(4)}
    while not rec.state.over and len(rec.moves) < 120:
        s = rec.state
        seat = rules.to_act(s)
        if seat == SMAUG and s.turn.phase == "place" and not s.pending:
            found = _smaug_example(s)
            if found is not None:
                return rec.script(id="smaug", example=found)
        rec.play(seat, bot_move(bots, s, seat))
    return None


SEARCHES: dict[str, Callable[[int], Json | None]] = {
    "base": base_game,
    "ending": ending_game,
    "deep": deep_game,
    "smaug": smaug_game,
}


def search(name: str, start: int = 1, tries: int = 400) -> Json:
    for seed in range(start, start + tries):
        found = SEARCHES[name](seed)
        if found is not None:
            return found
    raise SystemExit(f"no seed in {start}..{start + tries - 1} shows the {name} lessons")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true")
    parser.add_argument("names", nargs="*", default=list(SEARCHES))
    args = parser.parse_args()
    for name in args.names:
        found = search(name)
        steps = [m["step"] for m in found["moves"] if "step" in m]
        print(name, "seed", found["seed"], len(found["moves"]), "moves;", " ".join(steps))
        if args.write:
            path = SCRIPTS / f"{name}.json"
            path.write_text(json.dumps(found, indent=None, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()

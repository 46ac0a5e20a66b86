"""A tutorial position: the lesson's game replayed by the engine up to the learner's next step.

Nothing is stored: the client keeps the learner's answers (its actions at the steps so far) and
sends them; the server replays the script from its seed, applying the learner's own answer at
each step (checked against the step's move first) and the bots' scripted moves between them.
So going back a step is replaying one answer fewer, and a position is always a real engine
state. The learner sees `view_for(state, learner)` only (R-60): the bots' hands, the deck order
and the script's later moves never leave the server.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import app.engine as rules
from app.bots import hint
from app.engine import listed_form, preview
from app.engine.content import expansion_content
from app.engine.events import LineText
from app.engine.expansion_cards import ancestral_placement
from app.engine.explain import Reason, explain
from app.engine.state import GameOptions, State
from app.i18n import gettext, ngettext, t_, translate_outcome
from app.shared.errors import ServiceError

from .lessons import LEARNER, LESSONS, N_, STEPS, Lesson, script, step_moves
from .words import bonus_words, deck_name, seat_name, starfish_text, treasure_words

Json = dict[str, Any]


@dataclass
class Position:
    """Where a lesson stands after the learner's answers."""

    lesson: Lesson
    state: State
    step: int  # the step to play now (== the answers given); == steps when the lesson is done
    steps: int
    move: Json | None  # the script's move at this step (None when done)
    log: list[str] = field(default_factory=list)  # LineText: worded where shown

    @property
    def done(self) -> bool:
        return self.move is None


def lesson_of(lesson_id: str) -> Lesson:
    """The lesson, or `not_found`."""
    lesson = LESSONS.get(lesson_id)
    if lesson is None:
        raise ServiceError("not_found", t_("no lesson {lesson_id}", lesson_id=repr(lesson_id)))
    return lesson


def matches(state: State, expected: Json, given: Json) -> bool:
    """Whether the learner's answer is the step's move. The head of a Dragon may go on any of its
    squares (R-12), except that the Ancestral head's square decides its realm (R-56): the
    engine's `listed_form` says which placements are the same move."""
    try:
        g = listed_form(state, given)
    except rules.EngineError:
        return False
    e = listed_form(state, expected)
    if e["type"] == "mission" and g["type"] == "mission":
        return (e["mission"], e["tokens"], sorted(e["cards"])) == (
            g["mission"],
            g["tokens"],
            sorted(g["cards"]),
        )
    return e == g


def position(lesson_id: str, answers: list[Json]) -> Position:
    """The lesson's position after `answers` (the learner's actions at its first steps).

    An answer that is not its step's move is refused (`bad_answers`): the client's history is
    not this lesson's, so it starts again.
    """
    lesson = lesson_of(lesson_id)
    data = script(lesson_id)
    steps = len(step_moves(lesson_id))
    if len(answers) > steps:
        raise ServiceError(
            "bad_answers",
            t_("this lesson has {steps} steps, not {answers}", steps=steps, answers=len(answers)),
        )
    state = rules.new_game(GameOptions.from_dict(data["options"]), data["seed"])
    log: list[str] = []
    step = 0
    for move in data["moves"]:
        action = move["action"]
        if "step" in move:
            if step == len(answers):
                return Position(lesson, state, step, steps, move, log)
            if not matches(state, action, answers[step]):
                raise ServiceError(
                    "bad_answers", t_("answer {step} is not that step's move", step=step + 1)
                )
            action = answers[step]
            step += 1
        state, events = rules.apply(state, action, move["seat"])
        log.extend(LineText(rules.line(rules.event_for(e, LEARNER)), LEARNER) for e in events)
    return Position(lesson, state, step, steps, None, log)


def explain_here(pos: Position, action: Any) -> Reason | None:
    """Why the engine refuses `action` here (None: it would take it)."""
    return explain(pos.state, LEARNER, action)


def lesson_reason(pos: Position) -> Json:
    """The refusal of a legal move that is not this step's (a tutorial's own reason)."""
    assert pos.move is not None
    step = fill(pos, STEPS[pos.move["step"]].do)
    return {
        "code": "lesson_step",
        "facts": {"expected": pos.move["action"]},
        "text": t_("That move is legal, but this lesson asks for another one: {step}", step=step),
    }


def submit(lesson_id: str, answers: list[Json], action: Any) -> Position:
    """The position after the learner answers this step with `action`; refused (with the
    engine's reason, or the lesson's) if the engine or the step does not take it."""
    pos = position(lesson_id, answers)
    if pos.done:
        raise ServiceError("lesson_done", "this lesson is finished")
    why = explain_here(pos, action)
    if why is not None:
        raise ServiceError(why.engine_code or "not_allowed", why.text, reason=why.to_json())
    if not matches(pos.state, pos.move["action"], action):  # type: ignore[index]
        reason = lesson_reason(pos)
        raise ServiceError("not_allowed", reason["text"], reason=reason)
    return position(lesson_id, [*answers, rules.canonical_action(action)])


def outcomes(pos: Position, card: str) -> list[Json]:
    """The engine's outcome of every legal placement of `card` (the ghost's preview)."""
    if pos.done:
        raise ServiceError("lesson_done", "this lesson is finished")
    try:
        return [translate_outcome(o) for o in preview.outcomes(pos.state, LEARNER, card)]
    except rules.EngineError as exc:
        raise ServiceError(exc.code, exc.message) from None


# --- the words of a step, with the engine's numbers ------------------------------------------


def facts(pos: Position) -> Json:
    """The numbers a step's text cites, read off the engine (and its words, in the current
    language)."""
    s = pos.state
    me = s.players[LEARNER]
    out: Json = {"gold_before": me.gold, "played_deck": deck_name(s.turn.played_deck)}
    move = pos.move
    if move is None:
        return out
    action = move["action"]
    if action["type"] == "place":
        o = preview.outcome(s, LEARNER, action)
        near = [
            gettext(N_("{name} +{gold}")).format(name=seat_name(n["seat"]), gold=n["gold"])
            for n in o["neighbours_gold"]
        ]
        out.update(
            card=action["card"],
            cost=o["cost"],
            ships=o["ships"],
            # The count with its noun, in the plural form the language gives it.
            ship_tokens=ngettext("{n} ship token", "{n} ship tokens", o["ships"]).format(
                n=o["ships"]
            ),
            ships_taken=ngettext("{n} ship", "{n} ships", o["ships"]).format(n=o["ships"]),
            gold_squares=o["gold"]["squares"],
            gold_total=o["gold"]["total"],
            neighbours=", ".join(near) or gettext(N_("nobody")),
        )
    if action["type"] == "use_treasure":
        effect = expansion_content().treasures[action["card"]]
        out["treasure_text"] = treasure_words(effect)
    return out


def fill(pos: Position, text: str) -> str:
    """`text` (a marked template) in the current language, its `{fields}` then filled from the
    engine (unknown fields stay as written)."""
    values = facts(pos)
    text = gettext(text)

    class Keep(dict):  # type: ignore[type-arg]
        def __missing__(self, key: str) -> str:
            return "{" + key + "}"

    return text.format_map(Keep(values))


# A track's Bonus tile, one template per track (the colour agrees with the noun in Spanish).
TRACK_BONUS = {
    "green": N_("green track: {tile} (max 20)"),
    "purple": N_("purple track: {tile} (max 20)"),
    "red": N_("red track: {tile} (max 20)"),
}


def done_text(pos: Position) -> str:
    """What the lesson says once played through, with the engine's final figures, in the
    current language."""
    values: Json = {}
    if pos.state.over:
        values["starfish_text"] = starfish_text(pos.state)
    if pos.state.options.expansion:
        tiles = expansion_content().bonus_tiles
        bonus = pos.state.reward["bonus"]
        # A list, one item per track: only the list's separator joins them.
        values["bonus_text"] = (
            "; ".join(
                gettext(TRACK_BONUS[track]).format(tile=bonus_words(tile))
                for track, tile in bonus.items()
                if tile in tiles
            )
            + "."
        )
    text = gettext(pos.lesson.done)

    class Keep(dict):  # type: ignore[type-arg]
        def __missing__(self, key: str) -> str:
            return ""

    return text.format_map(Keep(values))


def target(pos: Position) -> Json | None:
    """What the step asks for, for the client to highlight: the action and its squares."""
    if pos.move is None:
        return None
    action = pos.move["action"]
    out: Json = {"action": action}
    if action["type"] == "place":
        out["cells"] = action["cells"]
        out["head"] = action["head"] if ancestral_placement(pos.state) else None
    return out


def gives(pos: Position) -> list[str]:
    """What the step's move gives the learner, in the hints' words (app/bots/hint.py: the
    engine's outcome and the realm standings as the learner sees them)."""
    if pos.move is None:
        return []
    action = pos.move["action"]
    if action["type"] not in ("place", "mission", "pass"):
        return []
    outcome = preview.outcome(pos.state, LEARNER, action) if action["type"] == "place" else None
    return hint.reasons(pos.state, LEARNER, action, outcome)

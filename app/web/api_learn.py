"""The tutorials' API (/api/learn): lesson positions replayed by the engine, the learner's
moves checked against the engine and the lesson, and the rules page's example positions.

Nothing is stored and no sign-in is needed: the client sends the learner's answers so far and
the server replays the lesson's fixed game (app/tutorial/session.py). Every answer sees only
the learner's view (R-60). Every text is in the reader's language: the lessons' marked
templates are translated first, then filled with the engine's figures (app/tutorial/session.py).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path
from pydantic import BaseModel, Field

import app.engine as rules
from app.i18n import gettext, t_, translate, translate_reason
from app.shared.errors import ServiceError
from app.tutorial import examples, session
from app.tutorial.lessons import LEARNER, LESSONS, N_, NAMES, STEPS, step_moves
from app.tutorial.words import seat_names
from app.web.deps import SettingsDep
from app.web.errors import errors

router = APIRouter(prefix="/api/learn", tags=["learn"])

Json = dict[str, Any]
LessonId = Annotated[str, Path(min_length=1, max_length=16, pattern=r"^[a-z]+$")]
# No action of the engine has more fields than this, nor is longer (a place lists 6 squares).
Action = Annotated[dict[str, Any], Field(max_length=8)]


class AnswersIn(BaseModel):
    answers: list[Action] = Field(default_factory=list, max_length=256)


class ActIn(AnswersIn):
    action: Action


class OutcomesIn(AnswersIn):
    card: str = Field(min_length=1, max_length=16)


class LessonOut(BaseModel):
    id: str
    tutorial: str  # "base" (Sea Dragons) or "deep" (Treasures of the Deep)
    title: str
    intro: str
    steps: int


class LessonsOut(BaseModel):
    lessons: list[LessonOut]


class StepTextOut(BaseModel):
    title: str
    do: str  # what to do
    why: str  # the rule, in words, with the engine's numbers
    rulings: list[str]  # the rulings (R-xx) that decided a point


class TryOut(BaseModel):
    label: str  # what the refused move is ("a Dragon touching nothing")
    action: Json  # send it: the engine refuses it, with its reason


class PositionOut(BaseModel):
    lesson: str
    title: str
    intro: str
    step: int  # the step to play now, from 0; == steps once the lesson is done
    steps: int
    done: bool
    done_text: str | None  # what the lesson says once done, with the engine's final figures
    seat: int  # the learner's seat
    names: list[str]
    view: Json  # engine.view_for(state, learner): the learner's view only
    legal_actions: list[Json]  # every action the engine would take now (not only the step's)
    text: StepTextOut | None
    target: Json | None  # {action, cells?, head?}: what the step asks for, to highlight
    tries: list[TryOut]
    gives: list[str]  # what the step's move gives, in the hints' words (app/bots/hint.py)
    log: list[str]


class ReasonOut(BaseModel):
    code: str
    facts: Json
    text: str


class ExplainOut(BaseModel):
    legal: bool
    reason: ReasonOut | None


class OutcomesOut(BaseModel):
    outcomes: list[Json]


def _answers(body: AnswersIn, settings: Any) -> list[Json]:
    if len(body.answers) > settings.learn_answers_max:
        raise ServiceError(
            "invalid_request",
            t_(
                "answers: at most {learn_answers_max} of them",
                learn_answers_max=settings.learn_answers_max,
            ),
        )
    return list(body.answers)


# An unknown lesson 404, lesson_done 409, a body over the size limit 413, a refused move,
# bad_answers or a bad body 422; 503 as everywhere.
LESSON_ERRORS = errors(404, 409, 413, 422, 503)

TRY_LABELS = {
    "not_touching": N_("Try a spot touching nothing"),
    "on_island": N_("Try a spot on the island"),
    "touches_own": N_("Try a spot touching your own Dragon"),
    "cannot_afford": N_("Try a spot you cannot pay for"),
    "played_deck": N_("Try drawing from the deck you played"),
    "decision_pending": N_("Try drawing before you choose"),
}
TRY_OTHER = N_("Try another move")


def position_out(pos: session.Position) -> Json:
    """The learner's document of a position."""
    move = pos.move
    text = None
    if move is not None:
        t = STEPS[move["step"]]
        text = {
            "title": gettext(t.title),
            "do": session.fill(pos, t.do),
            "why": session.fill(pos, t.why),
            "rulings": list(t.rulings),
        }
    tries = [
        {"label": gettext(TRY_LABELS.get(x["reason"], TRY_OTHER)), "action": x["action"]}
        for x in (move or {}).get("tries", [])
    ]
    return {
        "lesson": pos.lesson.id,
        "title": gettext(pos.lesson.title),
        "intro": gettext(pos.lesson.intro),
        "step": pos.step,
        "steps": pos.steps,
        "done": pos.done,
        "done_text": session.done_text(pos) if pos.done else None,
        "seat": LEARNER,
        "names": seat_names(len(pos.state.players)),
        "view": rules.view_for(pos.state, LEARNER),
        "legal_actions": [] if pos.done else rules.legal_actions(pos.state, LEARNER),
        "text": text,
        "target": session.target(pos),
        "tries": tries,
        "gives": [translate(line) for line in session.gives(pos)],
        "log": [translate(line) for line in pos.log],
    }


@router.get("", response_model=LessonsOut, responses=errors(503))
def lessons() -> Json:
    """The lessons of both tutorials, in order."""
    return {
        "lessons": [
            {
                "id": x.id,
                "tutorial": x.tutorial,
                "title": gettext(x.title),
                "intro": gettext(x.intro),
                "steps": len(step_moves(x.id)),
            }
            for x in LESSONS.values()
        ]
    }


@router.get("/examples", response_model=examples.ExamplesOut, responses=errors(503))
def rule_examples() -> Json:
    """The rules page's example positions, built and scored by the engine (public views)."""
    return examples.all_examples()


@router.post("/{lesson}/position", response_model=PositionOut, responses=LESSON_ERRORS)
def lesson_position(lesson: LessonId, body: AnswersIn, settings: SettingsDep) -> Json:
    """The position after the learner's answers (its actions at the steps so far): going back a
    step is asking with one answer fewer. Answers that are not the steps' moves: 422
    bad_answers."""
    return position_out(session.position(lesson, _answers(body, settings)))


@router.post("/{lesson}/act", response_model=PositionOut, responses=LESSON_ERRORS)
def lesson_act(lesson: LessonId, body: ActIn, settings: SettingsDep) -> Json:
    """Play the step: the next position, or the refusal with its `reason` (the engine's, or
    `lesson_step` for a legal move the step does not ask for)."""
    return position_out(session.submit(lesson, _answers(body, settings), body.action))


@router.post("/{lesson}/explain", response_model=ExplainOut, responses=LESSON_ERRORS)
def lesson_explain(lesson: LessonId, body: ActIn, settings: SettingsDep) -> Json:
    """Why the engine would refuse `action` at this step (null `reason` if it would not)."""
    pos = session.position(lesson, _answers(body, settings))
    why = session.explain_here(pos, body.action)
    return {"legal": why is None, "reason": translate_reason(why.to_json()) if why else None}


@router.post("/{lesson}/outcomes", response_model=OutcomesOut, responses=LESSON_ERRORS)
def lesson_outcomes(lesson: LessonId, body: OutcomesIn, settings: SettingsDep) -> Json:
    """The engine's outcome of every legal placement of a hand card (the ghost's preview)."""
    pos = session.position(lesson, _answers(body, settings))
    return {"outcomes": session.outcomes(pos, body.card)}


__all__ = ["NAMES", "router"]

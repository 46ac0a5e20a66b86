"""Hints for the seat to act at unrated tables: the expert's move from that seat's view only."""

from __future__ import annotations

import zlib
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any

from sqlalchemy.orm import Session

import app.engine as rules
from app.bots.hint import reasons, suggest
from app.engine import preview
from app.i18n import translate
from app.infra.bot_pool import WorkerProcesses
from app.services.play.previews import seat_to_act
from app.services.tables.lobby import visible_game
from app.settings import Settings
from app.shared.errors import ServiceError
from app.shared.state_cache import hints_of

# A worker may need to start (a few seconds) before it thinks: waited for on top of the budget.
WORKER_START_S = 20.0


def hint(
    db: Session,
    game_id: int,
    user_id: int,
    version: int,
    settings: Settings,
    workers: WorkerProcesses,
) -> Any:
    """`{version, action, reasons}`: what the expert would do now for the caller's seat.

    Refused at rated tables (`rated_table`): a hint there would be help from outside the game.
    The expert sees `view_for(state, seat)` only (R-60). The same position always gets the same
    hint, so asking again tells nothing new and costs no search: the first answer is kept per
    process (SEADRAGONS_HINT_CACHE_POSITIONS), because a search that the time budget ended
    rather than its rounds (a busy server) would otherwise answer differently; a process that
    has not kept it searches anew, seeded by the game and version.
    """
    if visible_game(db, game_id, user_id).rated:
        raise ServiceError("rated_table", "hints are for unrated tables only")
    _game, state, seat = seat_to_act(db, game_id, user_id, version)
    kept = hints_of(db)  # one seat acts at a version: the version names the seat too
    answer = kept.get(game_id, version)
    if answer is None:
        answer = hint_for(state, seat, game_id, version, settings, workers)
        kept.put(game_id, version, answer)
    return answer


def hint_for(
    state: Any,
    seat: int,
    game_id: int,
    version: int,
    settings: Settings,
    workers: WorkerProcesses,
) -> Any:
    """The hint for `seat` in `state` (see `hint`): the search runs in a bot worker."""
    view = rules.view_for(state, seat)
    legal = rules.legal_actions(state, seat)
    seed = zlib.crc32(f"{game_id}:{version}:{seat}".encode())
    budget = settings.hint_budget_seconds
    try:
        action = workers.run(
            budget + WORKER_START_S,
            suggest,
            view,
            legal,
            budget,
            seed,
            settings.hint_rounds,
        )
    except FutureTimeout:
        raise ServiceError("unavailable", "no hint in time; try again shortly", 5) from None
    outcome = preview.outcome(state, seat, action) if action["type"] == "place" else None
    return {
        "version": version,
        "action": action,
        "summary": rules.parse_action(action).describe(),
        "reasons": reasons(state, seat, action, outcome),
    }


def in_language(answer: dict[str, Any]) -> dict[str, Any]:
    """A hint with its words in the current language (they are marked text until shown)."""
    return {
        **answer,
        "summary": translate(answer["summary"]),
        "reasons": [translate(line) for line in answer["reasons"]],
    }

"""Where a game to analyse comes from: the database (a finished game) or a recorded JSON line.

The recorded form is what `seadragons simulate --record` writes: {options, seed, actions:
[[seat, action], ...]} (an optional "id" names the game; without one it is "recorded-<seed>").
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.db.models.games import Game, Move
from app.engine import GameOptions
from app.i18n import t_
from app.settings import Settings
from app.shared.errors import ServiceError

from .game import GameRecord, ReviewSettings
from .labels import Thresholds


def review_settings(settings: Settings) -> ReviewSettings:
    """The review's budget and thresholds from the server's settings (raises ValueError)."""
    return ReviewSettings(
        rounds=settings.review_rounds,
        plies=settings.review_rollout_plies,
        prune_points=settings.review_prune_points,
        sample=settings.review_rollout_sample,
        leaf=settings.review_leaf,
        turns=settings.review_rollout_turns,
        thresholds=Thresholds(
            inaccuracy=settings.review_inaccuracy_points,
            mistake=settings.review_mistake_points,
            blunder=settings.review_blunder_points,
        ),
    )


def record_from_db(db: Session, game_id: int) -> GameRecord:
    """A finished game's record; `not_found` or `not_finished` otherwise (nothing else said)."""
    game = db.get(Game, game_id)
    if game is None:
        raise ServiceError("not_found", t_("no game {game_id}", game_id=game_id))
    if game.status != "finished" or game.seed is None:
        raise ServiceError(
            "not_finished",
            t_("game {game_id} is {status}, not finished", game_id=game_id, status=game.status),
        )
    rows = db.execute(
        select(Move.seat, Move.action).where(Move.game_id == game_id).order_by(Move.seq)
    )
    moves = [(seat, action) for seat, action in rows]
    return GameRecord(str(game.id), GameOptions.from_dict(game.options), game.seed, moves)


def record_from_json(line: dict[str, Any]) -> GameRecord:
    """One recorded game (raises ValueError with what is wrong)."""
    try:
        options = GameOptions.from_dict(line["options"])
        seed = int(line["seed"])
        moves = [(int(seat), dict(action)) for seat, action in line["actions"]]
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"not a recorded game ({exc!r}): needs options, seed, actions") from exc
    return GameRecord(str(line.get("id") or f"recorded-{seed}"), options, seed, moves)


def records_from_lines(lines: Iterable[str]) -> Iterator[GameRecord]:
    """The games of a JSON-lines file (blank lines skipped; ValueError names the bad line)."""
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            yield record_from_json(json.loads(text))
        except ValueError as exc:
            raise ValueError(f"line {number}: {exc}") from exc

"""Reviews a server can afford: analyses on request, in a bounded queue, the watched first.

An analysis costs about a minute of CPU (docs/benchmarks.md), a whole game's moves about 0.2 s,
so analyses are not made for every finished game but asked for (the replay's "Analyse this
game"), and only a worker (role "worker" or "all", app/roles.py) runs them:

- at most `queue_max` analyses wait or run at once: past it a request is answered 503
  `review_queue_full` with how many wait and, as Retry-After, the expected wait;
- at most `per_user` of them asked for by one account: past it, 429 `review_user_limit`;
- a game has one analysis job: asking again (anyone) is the same job and its place in line;
- the requester's page polls the analysis while it waits; each of their polls marks the job
  watched for `watch_s` seconds, and watched jobs are claimed before the others
  (app/infra/jobs.py `waited_on_last`): whoever is looking gets theirs first;
- automatically, only rated games, and only while fewer than `auto_rated_below` analyses wait
  (0, the default: never; see docs/review.md for the figures behind it).

Nothing is said about an analysis, its queue or its place in line before the game's end, or for
a game the caller may not see (R-60): those refusals come first.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from app.db.models.games import Game
from app.db.models.jobs import Job
from app.db.models.reviews import GameAnalysis
from app.i18n import t_
from app.services.reviews.analysis import KIND, enqueue, job_key
from app.services.tables.lobby import visible_game
from app.settings import Settings
from app.shared.clock import now_in
from app.shared.errors import ServiceError

Json = dict[str, Any]
OPEN = ("pending", "running")
_DEFAULTS = Settings.model_fields


@dataclass(frozen=True)
class QueueLimits:
    """The queue's bounds (SEADRAGONS_REVIEW_QUEUE_MAX, _PER_USER, _WATCH_SECONDS,
    _EXPECTED_SECONDS); without settings, their defaults (one place says what they are)."""

    queue_max: int = _DEFAULTS["review_queue_max"].default
    per_user: int = _DEFAULTS["review_per_user"].default
    watch_s: float = _DEFAULTS["review_watch_seconds"].default
    expected_s: float = _DEFAULTS["review_expected_seconds"].default

    @classmethod
    def from_settings(cls, settings: Any) -> QueueLimits:
        return cls(
            settings.review_queue_max,
            settings.review_per_user,
            settings.review_watch_seconds,
            settings.review_expected_seconds,
        )


def _finished_game(db: Session, game_id: int, user_id: int | None, invite: str | None) -> Game:
    game = visible_game(db, game_id, user_id, invite_code=invite)
    if game.status != "finished":
        # Nothing about the analysis (not even whether one is queued) before the end.
        raise ServiceError(
            "not_finished",
            t_("game {game_id} is {status}, not finished", game_id=game_id, status=game.status),
        )
    return game


def _job(db: Session, game_id: int) -> Job | None:
    return db.scalar(select(Job).where(Job.kind == KIND, Job.key == job_key(game_id)))


def _open_count(db: Session, requested_by: int | None = None) -> int:
    query = select(func.count()).select_from(Job).where(Job.kind == KIND, Job.status.in_(OPEN))
    if requested_by is not None:
        query = query.where(Job.requested_by == requested_by)
    return int(db.scalar(query) or 0)


def _order(job: Job, now: datetime) -> tuple[int, datetime, int]:
    """The claim order (app/infra/jobs.py): watched first, then the oldest."""
    watched = job.wanted_until is not None and job.wanted_until > now
    return (0 if watched else 1, job.run_after, job.id)


def position_of(db: Session, job: Job, now: datetime) -> int:
    """1 for the next analysis to start; the waiting jobs are at most the queue's bound."""
    waiting = db.scalars(select(Job).where(Job.kind == KIND, Job.status == "pending")).all()
    mine = _order(job, now)
    return 1 + sum(1 for other in waiting if other.id != job.id and _order(other, now) < mine)


def status_of(db: Session, job: Job | None, limits: QueueLimits, now: datetime) -> Json:
    """What a client may know of an analysis under way (errors stay in the log)."""
    if job is None or job.status == "done":  # done: its analysis row is read first
        return {"status": "none"}
    out: Json = {"status": job.status}
    progress = job.progress or {}
    total = progress.get("total") or 0
    out["percent"] = round(100 * progress.get("done", 0) / total) if total else 0
    if job.status == "pending":
        place = position_of(db, job, now)
        # At one analysis at a time: the ones ahead, then this one.
        out.update(position=place, wait_seconds=round(place * limits.expected_s))
    if job.status == "failed":
        out["message"] = "the analysis failed; it may be retried"
    return out


def _watched(
    db: Session, job: Job, user_id: int | None, limits: QueueLimits, now: datetime
) -> None:
    """The requester is looking: their waiting job goes first for `watch_s` more seconds."""
    if user_id is None or job.requested_by != user_id or job.status != "pending":
        return
    until = now + timedelta(seconds=limits.watch_s)
    db.execute(update(Job).where(Job.id == job.id).values(wanted_until=until))
    db.commit()
    db.refresh(job)


def analysis_of(
    db: Session,
    game_id: int,
    user_id: int | None,
    invite_code: str | None = None,
    limits: QueueLimits | None = None,
) -> tuple[Json | None, Json]:
    """(the stored analysis or None, its status) of a finished game the caller may see; the
    requester asking (their page polling) keeps their waiting job watched."""
    limits = limits or QueueLimits()
    _finished_game(db, game_id, user_id, invite_code)
    row = db.get(GameAnalysis, game_id)
    if row is not None:
        return row.analysis, {"status": "done", "percent": 100}
    job = _job(db, game_id)
    now = now_in(db)
    if job is not None:
        _watched(db, job, user_id, limits, now)
    return None, status_of(db, job, limits, now)


def request_analysis(
    db: Session,
    game_id: int,
    user_id: int | None,
    invite_code: str | None = None,
    limits: QueueLimits | None = None,
) -> Json:
    """Queue a finished game's analysis (or retry a failed one), within the queue's bounds;
    commits. Idempotent: a game has one analysis job, a stored analysis is never recomputed
    here. `user_id` None: the server's own request (no per-account bound)."""
    limits = limits or QueueLimits()
    _finished_game(db, game_id, user_id, invite_code)
    if db.get(GameAnalysis, game_id) is not None:
        return {"status": "done", "percent": 100}
    now = now_in(db)
    job = _job(db, game_id)
    if job is not None and job.status in OPEN:  # already in line: the same job, its place
        _watched(db, job, user_id, limits, now)
        return status_of(db, job, limits, now)
    _check_room(db, user_id, limits)
    wanted = now + timedelta(seconds=limits.watch_s) if user_id is not None else None
    if job is None:
        enqueue(db, game_id, requested_by=user_id, wanted_until=wanted)
    else:  # failed (or done, its analysis since deleted): again, as this caller's request
        db.execute(
            update(Job)
            .where(Job.id == job.id, Job.status.in_(("failed", "done")))
            .values(
                status="pending",
                attempts=0,
                error=None,
                progress=None,
                run_after=now,
                updated_at=now,
                finished_at=None,
                requested_by=user_id,
                wanted_until=wanted,
            )
        )
    db.commit()
    job = _job(db, game_id)
    return status_of(db, job, limits, now)


def _check_room(db: Session, user_id: int | None, limits: QueueLimits) -> None:
    """Refuse a new request past the account's bound or the queue's (two requests at the same
    instant may both pass: the bound holds to within the requests in flight)."""
    if user_id is not None:
        mine = _open_count(db, user_id)
        if mine >= limits.per_user:
            raise ServiceError(
                "review_user_limit",
                t_(
                    "you have {count} analyses waiting; ask for another when one is done",
                    count=mine,
                ),
                retry_after=limits.expected_s,
            )
    queued = _open_count(db)
    if queued >= limits.queue_max:
        minutes = max(1, round(queued * limits.expected_s / 60))
        raise ServiceError(
            "review_queue_full",
            t_(
                "the analysis queue is busy ({queued} games in line): "
                "try again later, in about {minutes} min",
                queued=queued,
                minutes=minutes,
            ),
            retry_after=limits.expected_s,
        )


def auto_review(below: int) -> Any:
    """The finish effect for analyses the server sets off itself: a rated game's, while fewer
    than `below` analyses wait (0: never). In the finishing move's transaction."""

    def effect(db: Session, game_id: int) -> None:
        if below <= 0:
            return
        rated = db.scalar(select(Game.rated).where(Game.id == game_id))
        if rated and _open_count(db) < below:
            enqueue(db, game_id)

    return effect

"""Game analyses as background jobs: enqueued with a game's finish (or on demand for older
games), run once across instances by the job queue (app/infra/jobs.py), stored in
`game_analyses`, served only for finished games (R-60: before the end an analysis would tell
one seat about another's cards and chances).

The job cuts the analysis into PARTS parts run one after another in niced worker processes
(app/review/pool.py), and reports its progress after each ("analysing: 40%"). Analysis jobs
have their own runner (`SEADRAGONS_REVIEW_CONCURRENCY` workers per process), so a long analysis
never delays the other jobs.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session, sessionmaker

from app.db.models import Game, GameAnalysis, Job
from app.i18n import t_
from app.infra import jobs
from app.review import FORMAT
from app.review.game import assemble, check_finished
from app.review.pool import AnalysisPool
from app.review.source import record_from_db, review_settings
from app.services.tables.lobby import visible_game
from app.settings import Settings
from app.shared.clock import now_in
from app.shared.errors import ServiceError

KIND = "game_analysis"
PARTS = 10  # progress steps of one analysis
MAX_ATTEMPTS = 3

Json = dict[str, Any]


def job_key(game_id: int) -> str:
    return f"game:{game_id}"


def enqueue(db: Session, game_id: int) -> None:
    """In the caller's transaction (the finishing move's): this game's one analysis job."""
    jobs.enqueue(db, KIND, job_key(game_id), {"game_id": game_id}, max_attempts=MAX_ATTEMPTS)


def parts(total: int, count: int = PARTS) -> list[tuple[int, int]]:
    """`count` (or fewer) consecutive ranges of moves covering 0..total."""
    bounds = sorted({round(total * k / count) for k in range(count + 1)})
    return list(pairwise(bounds))


def job_handler(settings: Settings, pool: AnalysisPool) -> jobs.Handler:
    """The `game_analysis` handler: the analysis, stored with the job's "done" (one commit)."""

    def analyse(db: Session, ctx: jobs.JobContext) -> None:
        assert ctx.payload is not None
        game_id = int(ctx.payload["game_id"])
        record = record_from_db(db, game_id)
        db.commit()  # no transaction stays open through a minute of CPU
        check_finished(record)
        how = review_settings(settings)
        entries: list[Json] = []
        cpu = 0.0
        total = len(record.moves)
        for start, stop in parts(total):
            part, seconds = pool.run_part(record, how, start, stop)
            entries.extend(part)
            cpu += seconds
            ctx.report({"done": stop, "total": total})
        document = assemble(record, how, entries)
        db.execute(delete(GameAnalysis).where(GameAnalysis.game_id == game_id))
        db.add(
            GameAnalysis(
                game_id=game_id, format=FORMAT, analysis=document, cpu_seconds=round(cpu, 3)
            )
        )

    return analyse


def runner_for(
    sessions: sessionmaker[Session], settings: Settings
) -> tuple[jobs.JobRunner, AnalysisPool]:
    """This process's analysis runner and its niced workers (`SEADRAGONS_REVIEW_*`)."""
    pool = AnalysisPool(settings.review_concurrency, settings.review_nice)
    runner = jobs.JobRunner(
        sessions,
        {KIND: job_handler(settings, pool)},
        workers=settings.review_concurrency,
        poll_s=settings.jobs_poll_seconds,
        lease_s=settings.jobs_lease_seconds,
        retry_s=settings.jobs_retry_seconds,
    )
    return runner, pool


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


def status_of(job: Job | None) -> Json:
    """What a client may know of an analysis under way (errors stay in the log)."""
    if job is None or job.status == "done":  # done: its analysis row is read first
        return {"status": "none"}
    out: Json = {"status": job.status}
    progress = job.progress or {}
    total = progress.get("total") or 0
    out["percent"] = round(100 * progress.get("done", 0) / total) if total else 0
    if job.status == "failed":
        out["message"] = "the analysis failed; it may be retried"
    return out


def analysis_of(
    db: Session, game_id: int, user_id: int | None, invite_code: str | None = None
) -> tuple[Json | None, Json]:
    """(the stored analysis or None, its status) of a finished game the caller may see."""
    _finished_game(db, game_id, user_id, invite_code)
    row = db.get(GameAnalysis, game_id)
    if row is not None:
        return row.analysis, {"status": "done", "percent": 100}
    return None, status_of(_job(db, game_id))


def request_analysis(
    db: Session, game_id: int, user_id: int | None, invite_code: str | None = None
) -> Json:
    """Queue a finished game's analysis (an older game's), or retry a failed one; commits.
    Idempotent: a game has one analysis job, and a stored analysis is never recomputed here."""
    _finished_game(db, game_id, user_id, invite_code)
    if db.get(GameAnalysis, game_id) is not None:
        return {"status": "done", "percent": 100}
    job = _job(db, game_id)
    if job is None:
        enqueue(db, game_id)
    elif job.status == "failed":
        now = now_in(db)
        db.execute(
            update(Job)
            .where(Job.id == job.id, Job.status == "failed")
            .values(
                status="pending",
                attempts=0,
                error=None,
                progress=None,
                run_after=now,
                updated_at=now,
                finished_at=None,
            )
        )
    db.commit()
    return status_of(_job(db, game_id))

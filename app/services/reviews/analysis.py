"""Game analyses as background jobs: enqueued on request (app/services/reviews/requests.py:
the bounded queue, per-account limits, the watched requester first) or, if the settings allow,
when a rated game finishes; run once across workers by the job queue (app/infra/jobs.py),
stored in `game_analyses`, served only for finished games (R-60: before the end an analysis
would tell one seat about another's cards and chances).

The job cuts the analysis into PARTS parts run one after another in niced worker processes
(app/review/pool.py), and reports its progress after each ("analysing: 40%"). Analysis jobs
have their own runner (`SEADRAGONS_REVIEW_CONCURRENCY` workers per process), so a long analysis
never delays the other jobs.
"""

from __future__ import annotations

from datetime import datetime
from itertools import pairwise
from typing import Any

from sqlalchemy import delete
from sqlalchemy.orm import Session, sessionmaker

from app.db.models.reviews import GameAnalysis
from app.infra import jobs
from app.review import FORMAT
from app.review.game import assemble, check_finished
from app.review.pool import AnalysisPool
from app.review.source import record_from_db, review_settings
from app.settings import Settings

KIND = "game_analysis"
PARTS = 10  # progress steps of one analysis
MAX_ATTEMPTS = 3

Json = dict[str, Any]


def job_key(game_id: int) -> str:
    return f"game:{game_id}"


def enqueue(
    db: Session,
    game_id: int,
    requested_by: int | None = None,
    wanted_until: datetime | None = None,
) -> None:
    """In the caller's transaction: this game's one analysis job (a second is ignored)."""
    jobs.enqueue(
        db,
        KIND,
        job_key(game_id),
        {"game_id": game_id},
        max_attempts=MAX_ATTEMPTS,
        requested_by=requested_by,
        wanted_until=wanted_until,
    )


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

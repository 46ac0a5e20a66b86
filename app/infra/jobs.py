"""A small durable job queue in the database: background work that must happen exactly once.

- `enqueue(db, kind, key, payload)` adds a job inside the caller's transaction (so the job
  exists if and only if the work that causes it commits); a second enqueue of the same
  `(kind, key)` is a no-op, which makes enqueuing idempotent.
- Workers claim a due job (first one somebody waits on, `wanted_until`, then the oldest) with
  `SELECT ... FOR UPDATE SKIP LOCKED` on Postgres (two workers never wait for or take the same
  row) and a compare-and-set UPDATE on SQLite (its write lock serialises claims). A claim
  sets a lease (`claimed_until`) and a random token (`claimed_by`); a worker that dies leaves
  the lease to run out, and the job is claimed again.
- The handler runs in its own session, and the job is marked done in that same transaction,
  only if the lease is still the worker's: the handler's writes and "done" commit together or
  not at all. A handler that raises is retried after a doubling back-off, `max_attempts`
  times in all, then marked failed with its error. A handler's database effects happen once;
  anything else it does (a file, an email) must be idempotent itself.
- `ctx.report(progress)` stores progress (any JSON), committed on its own so that readers see
  it while the job runs. The lease is kept by the worker itself while the handler runs
  (`lease_kept`: extended every third of it), so a handler slower than the lease on a busy
  machine keeps its job; only a worker that dies (or loses the database) lets it run out.

The `JobRunner` runs `JOBS_WORKERS` workers per server process, started from the app's
lifespan; each polls every `JOBS_POLL_SECONDS`, or at once after `wake()`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from anyio import to_thread
from sqlalchemy import and_, case, or_, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session, sessionmaker

from app.db.models.jobs import Job
from app.shared.clock import clock_in, now_in

log = logging.getLogger(__name__)

ERROR_CHARS = 1000


@dataclass
class JobContext:
    """What a handler gets: the job's identity and payload, and a way to report progress."""

    id: int
    kind: str
    key: str
    payload: dict[str, Any] | None
    attempt: int
    report: Callable[[dict[str, Any]], bool] = field(repr=False)


# A handler does the work in `db` (its own session) and returns; the runner commits.
Handler = Callable[[Session, JobContext], None]


def enqueue(
    db: Session,
    kind: str,
    key: str,
    payload: dict[str, Any] | None = None,
    *,
    max_attempts: int = 5,
    run_after: datetime | None = None,
    requested_by: int | None = None,
    wanted_until: datetime | None = None,
) -> None:
    """Add a job in the caller's transaction (not committed here); a duplicate is ignored.
    `requested_by`: the account that asked for it; `wanted_until`: someone waits on it until
    then, which puts it first in the claim order."""
    now = now_in(db)
    values = {
        "requested_by": requested_by,
        "wanted_until": wanted_until,
        "kind": kind,
        "key": key,
        "payload": payload,
        "status": "pending",
        "attempts": 0,
        "max_attempts": max_attempts,
        "run_after": run_after or now,
        "created_at": now,
        "updated_at": now,
    }
    dialect = db.get_bind().dialect.name
    maker = pg_insert if dialect == "postgresql" else sqlite_insert
    statement = maker(Job).values(**values).on_conflict_do_nothing(index_elements=["kind", "key"])
    db.execute(statement)


def _claimable(now: datetime, kinds: list[str]) -> Any:
    return and_(
        Job.kind.in_(kinds),
        or_(
            and_(Job.status == "pending", Job.run_after <= now),
            and_(Job.status == "running", Job.claimed_until < now),  # a crashed worker's
        ),
    )


def waited_on_last(now: datetime) -> Any:
    """The claim order's first key: 0 for a job someone is waiting on now, else 1."""
    return case((Job.wanted_until > now, 0), else_=1)


@dataclass(frozen=True)
class Claim:
    """A job this worker holds until `until` (unless it reports progress, which extends it)."""

    id: int
    token: str
    attempt: int


def claim(
    db: Session, kinds: list[str], lease_s: float, now: datetime | None = None
) -> Claim | None:
    """Claim the oldest due job of one of `kinds`; commits. None when nothing is due.

    A job whose lease ran out with its attempts spent is marked failed instead.
    """
    now = now or now_in(db)
    for _ in range(10):  # a row another worker took between our SELECT and UPDATE: look again
        query = select(Job.id, Job.attempts, Job.max_attempts).where(_claimable(now, kinds))
        query = query.order_by(waited_on_last(now), Job.run_after, Job.id).limit(1)
        if db.get_bind().dialect.name == "postgresql":
            query = query.with_for_update(skip_locked=True)
        row = db.execute(query).first()
        if row is None:
            db.rollback()
            return None
        job_id, attempts, max_attempts = row
        if attempts >= max_attempts:  # the last try's worker died: do not run it again
            db.execute(
                update(Job)
                .where(Job.id == job_id, _claimable(now, kinds))
                .values(
                    status="failed",
                    error="the worker stopped (lease ran out) on the last attempt",
                    finished_at=now,
                    updated_at=now,
                    claimed_by=None,
                )
            )
            db.commit()
            continue
        token = secrets.token_hex(8)
        result = db.execute(
            update(Job)
            .where(Job.id == job_id, _claimable(now, kinds))
            .values(
                status="running",
                attempts=Job.attempts + 1,
                claimed_until=now + timedelta(seconds=lease_s),
                claimed_by=token,
                updated_at=now,
            )
            .execution_options(synchronize_session=False)
        )
        if result.rowcount == 1:
            db.commit()
            return Claim(job_id, token, attempts + 1)
        db.rollback()
    return None


def _held(claimed: Claim) -> Any:
    return and_(Job.id == claimed.id, Job.status == "running", Job.claimed_by == claimed.token)


def report_progress(
    sessions: sessionmaker[Session], claimed: Claim, progress: dict[str, Any], lease_s: float
) -> bool:
    """Store progress and extend the lease; False if the lease is no longer this worker's."""
    now = clock_in(sessions).now()
    return _update_held(sessions, claimed, progress=progress, updated_at=now, lease_s=lease_s)


def extend_lease(sessions: sessionmaker[Session], claimed: Claim, lease_s: float) -> bool:
    """Push the lease `lease_s` past now; False if it is no longer this worker's."""
    return _update_held(sessions, claimed, lease_s=lease_s)


def _update_held(
    sessions: sessionmaker[Session], claimed: Claim, *, lease_s: float, **values: Any
) -> bool:
    """Set `values` and a lease `lease_s` from now on the job, in a transaction of its own, if
    this worker still holds it."""
    until = clock_in(sessions).now() + timedelta(seconds=lease_s)
    with sessions() as db:
        result = db.execute(update(Job).where(_held(claimed)).values(claimed_until=until, **values))
        db.commit()
        return result.rowcount == 1


@contextlib.contextmanager
def lease_kept(sessions: sessionmaker[Session], claimed: Claim, lease_s: float) -> Iterator[None]:
    """Extend the lease every third of it while the block runs, from a thread of its own (the
    handler's thread is busy with the work, or waits on other processes). Without it a
    handler had to report within every lease, and one whose steps outlasted it (an analysis
    on a busy machine) could be claimed again while it still ran."""
    stop = threading.Event()

    def keep() -> None:
        while not stop.wait(lease_s / 3):
            try:
                if not extend_lease(sessions, claimed, lease_s):
                    return  # taken over or finished: nothing left to keep
            except Exception as exc:  # the database away: the next beat tries again
                log.warning("job %s: lease not extended: %s", claimed.id, exc)

    keeper = threading.Thread(target=keep, name=f"job-lease-{claimed.id}", daemon=True)
    keeper.start()
    try:
        yield
    finally:
        # Not joined: a beat blocked on the handler's own uncommitted write (SQLite has one
        # writer) would hold the handler up; a late beat at most extends a lease the runner is
        # about to end, and does nothing once the job has left this claim.
        stop.set()


def run_claimed(
    sessions: sessionmaker[Session],
    claimed: Claim,
    handlers: Mapping[str, Handler],
    *,
    lease_s: float,
    retry_s: float,
) -> str:
    """Run one claimed job to done, a retry, or failed; returns the job's new status."""
    with sessions() as db:
        job = db.get(Job, claimed.id)
        if job is None or job.claimed_by != claimed.token:
            return "lost"
        ctx = JobContext(
            job.id,
            job.kind,
            job.key,
            job.payload,
            claimed.attempt,
            lambda progress: report_progress(sessions, claimed, progress, lease_s),
        )
        max_attempts = job.max_attempts
        db.commit()
        try:
            with lease_kept(sessions, claimed, lease_s):
                handlers[ctx.kind](db, ctx)
            db.flush()
            now = now_in(db)
            done = db.execute(
                update(Job)
                .where(_held(claimed))
                .values(
                    status="done", finished_at=now, updated_at=now, claimed_until=None, error=None
                )
                .execution_options(synchronize_session=False)
            )
            if done.rowcount != 1:  # the lease ran out and another worker has it: keep nothing
                db.rollback()
                log.warning("job %s %s: lease lost, its work was rolled back", ctx.kind, ctx.key)
                return "lost"
            db.commit()
            return "done"
        except Exception as exc:
            db.rollback()
            error = f"{type(exc).__name__}: {exc}"[:ERROR_CHARS]
            log.warning("job %s %s failed (try %d): %s", ctx.kind, ctx.key, ctx.attempt, error)
    final = claimed.attempt >= max_attempts
    now = clock_in(sessions).now()
    values: dict[str, Any] = {"error": error, "updated_at": now, "claimed_until": None}
    if final:
        values.update(status="failed", finished_at=now)
    else:
        values.update(
            status="pending",
            run_after=now + timedelta(seconds=retry_s * 2 ** (claimed.attempt - 1)),
        )
    with sessions() as db:
        db.execute(update(Job).where(_held(claimed)).values(**values))
        db.commit()
    return values["status"]


class JobRunner:
    """`workers` loops claiming and running jobs of the kinds in `handlers`; start/stop with the
    app's lifespan. `run_due()` runs every due job once, in the caller's thread (tests, CLI)."""

    def __init__(
        self,
        sessions: sessionmaker[Session],
        handlers: Mapping[str, Handler],
        *,
        workers: int = 1,
        poll_s: float = 1.0,
        lease_s: float = 60.0,
        retry_s: float = 10.0,
    ) -> None:
        self.sessions = sessions
        self.handlers = dict(handlers)
        self.workers = workers
        self.poll_s = poll_s
        self.lease_s = lease_s
        self.retry_s = retry_s
        self.finished: dict[str, int] = {}  # status -> count, for logs and tests
        self._tasks: list[asyncio.Task[None]] = []
        self._wake: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    async def start(self) -> None:
        """Begin working (at app startup); no workers or no handlers: nothing runs."""
        if self._tasks or self.workers <= 0 or not self.handlers:
            return
        self._loop = asyncio.get_running_loop()
        self._wake = asyncio.Event()
        self._tasks = [self._loop.create_task(self._work()) for _ in range(self.workers)]

    async def stop(self) -> None:
        """Stop (at app shutdown): a job in flight finishes or its lease runs out."""
        tasks, self._tasks = self._tasks, []
        self._loop = None
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    def wake(self) -> None:
        """Look for jobs now rather than at the next poll (from any thread)."""
        loop, wake = self._loop, self._wake
        if loop is not None and wake is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(wake.set)

    def run_one(self) -> str | None:
        """Claim and run one due job; its new status, or None when nothing is due."""
        with self.sessions() as db:
            claimed = claim(db, list(self.handlers), self.lease_s)
        if claimed is None:
            return None
        status = run_claimed(
            self.sessions, claimed, self.handlers, lease_s=self.lease_s, retry_s=self.retry_s
        )
        self.finished[status] = self.finished.get(status, 0) + 1
        return status

    def run_due(self, limit: int = 10_000) -> int:
        """Run due jobs until none is left (or `limit`); returns how many ran."""
        ran = 0
        while ran < limit and self.run_one() is not None:
            ran += 1
        return ran

    async def _work(self) -> None:
        assert self._wake is not None
        while True:
            try:
                ran = await to_thread.run_sync(self.run_one)
            except Exception:
                log.exception("job worker pass failed")  # the database away: try next poll
                ran = None
            if ran is not None:
                continue  # there may be more
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.poll_s)


def runner_for(
    sessions: sessionmaker[Session], settings: Any, handlers: Mapping[str, Handler]
) -> JobRunner:
    """The app's runner, configured by the `SEADRAGONS_JOBS_*` settings."""
    return JobRunner(
        sessions,
        handlers,
        workers=settings.jobs_workers,
        poll_s=settings.jobs_poll_seconds,
        lease_s=settings.jobs_lease_seconds,
        retry_s=settings.jobs_retry_seconds,
    )

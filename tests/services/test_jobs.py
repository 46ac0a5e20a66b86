"""The durable job queue on SQLite and Postgres: idempotent enqueue, leases, retries, progress."""

from __future__ import annotations

import asyncio
import threading
from datetime import timedelta

import pytest
from sqlalchemy import func, select, update
from sqlalchemy.orm import Session, sessionmaker

from app.db.models.base import utcnow
from app.db.models.jobs import Job
from app.infra import jobs


def _job(sessions: sessionmaker[Session], kind: str, key: str) -> Job:
    with sessions() as db:
        job = db.scalar(select(Job).where(Job.kind == kind, Job.key == key))
        assert job is not None
        db.expunge(job)
        return job


def _count(sessions: sessionmaker[Session], kind: str) -> int:
    with sessions() as db:
        return db.scalar(select(func.count()).select_from(Job).where(Job.kind == kind)) or 0


def _effect(db: Session, ctx: jobs.JobContext) -> None:
    """A database write the job makes: another job row, rolled back with the job's run."""
    jobs.enqueue(db, "effect", f"{ctx.key}:{ctx.attempt}")


def test_enqueue_twice_is_one_job_run_once(sessions: sessionmaker[Session]) -> None:
    with sessions() as db:
        jobs.enqueue(db, "work", "g1", {"game": 1})
        jobs.enqueue(db, "work", "g1", {"game": 1})
        db.commit()
    with sessions() as db:
        jobs.enqueue(db, "work", "g1")  # a later transaction: still the one job
        db.commit()
    seen: list[dict] = []
    runner = jobs.JobRunner(sessions, {"work": lambda db, ctx: seen.append(ctx.payload)})
    assert runner.run_due() == 1
    assert runner.run_due() == 0
    assert seen == [{"game": 1}]
    job = _job(sessions, "work", "g1")
    assert (job.status, job.attempts, job.finished_at is not None) == ("done", 1, True)


def test_a_job_not_committed_does_not_exist(sessions: sessionmaker[Session]) -> None:
    with sessions() as db:
        jobs.enqueue(db, "work", "gone")
        db.rollback()
    assert _count(sessions, "work") == 0


def test_a_failing_job_is_retried_then_failed_with_its_error(
    sessions: sessionmaker[Session],
) -> None:
    with sessions() as db:
        jobs.enqueue(db, "work", "bad", max_attempts=3)
        db.commit()
    calls: list[int] = []

    def fail(db: Session, ctx: jobs.JobContext) -> None:
        calls.append(ctx.attempt)
        _effect(db, ctx)
        raise RuntimeError("no luck")

    runner = jobs.JobRunner(sessions, {"work": fail}, retry_s=3600)
    assert runner.run_due() == 1
    job = _job(sessions, "work", "bad")
    assert (job.status, job.attempts) == ("pending", 1)
    assert job.run_after > utcnow() + timedelta(seconds=3000)  # backed off
    assert "RuntimeError: no luck" in (job.error or "")
    runner.retry_s = 0  # the next retries are due at once
    with sessions() as db:
        db.execute(update(Job).where(Job.key == "bad").values(run_after=utcnow()))
        db.commit()
    assert runner.run_due() == 2
    job = _job(sessions, "work", "bad")
    assert (job.status, job.attempts, calls) == ("failed", 3, [1, 2, 3])
    assert _count(sessions, "effect") == 0  # every failed run's writes were rolled back


def test_a_crashed_workers_job_runs_again_after_its_lease(
    sessions: sessionmaker[Session],
) -> None:
    with sessions() as db:
        jobs.enqueue(db, "work", "crash")
        db.commit()
    with sessions() as db:
        crashed = jobs.claim(db, ["work"], lease_s=60)  # claimed, then the worker dies
    assert crashed is not None and crashed.attempt == 1
    with sessions() as db:
        assert jobs.claim(db, ["work"], lease_s=60) is None  # the lease still holds
    with sessions() as db:
        later = utcnow() + timedelta(seconds=61)
        again = jobs.claim(db, ["work"], lease_s=60, now=later)
    assert again is not None and again.attempt == 2
    assert jobs.run_claimed(sessions, again, {"work": _effect}, lease_s=60, retry_s=0) == "done"
    # The first worker coming back to life cannot finish (or write) anything: not its lease.
    assert jobs.run_claimed(sessions, crashed, {"work": _effect}, lease_s=60, retry_s=0) == "lost"
    assert _count(sessions, "effect") == 1
    assert _job(sessions, "work", "crash").status == "done"


def test_a_worker_whose_lease_ran_out_mid_run_keeps_nothing(
    sessions: sessionmaker[Session],
) -> None:
    with sessions() as db:
        jobs.enqueue(db, "work", "slow")
        db.commit()
    with sessions() as db:
        first = jobs.claim(db, ["work"], lease_s=60)
    assert first is not None

    def slow(db: Session, ctx: jobs.JobContext) -> None:
        # Meanwhile the lease runs out and another worker takes the job over and finishes it
        # (before this run writes: SQLite has one writer at a time).
        with sessions() as other:
            second = jobs.claim(other, ["work"], 60, now=utcnow() + timedelta(seconds=61))
        assert second is not None
        jobs.run_claimed(sessions, second, {"work": _effect}, lease_s=60, retry_s=0)
        _effect(db, ctx)

    assert jobs.run_claimed(sessions, first, {"work": slow}, lease_s=60, retry_s=0) == "lost"
    with sessions() as db:
        keys = list(db.scalars(select(Job.key).where(Job.kind == "effect")))
    assert keys == ["slow:2"]  # only the second run's write


def test_the_last_attempts_crash_marks_the_job_failed(sessions: sessionmaker[Session]) -> None:
    with sessions() as db:
        jobs.enqueue(db, "work", "fragile", max_attempts=1)
        db.commit()
    with sessions() as db:
        assert jobs.claim(db, ["work"], lease_s=60) is not None
    with sessions() as db:
        assert jobs.claim(db, ["work"], 60, now=utcnow() + timedelta(seconds=61)) is None
    job = _job(sessions, "work", "fragile")
    assert job.status == "failed" and "lease ran out" in (job.error or "")


def test_progress_is_visible_while_the_job_runs_and_extends_the_lease(
    sessions: sessionmaker[Session],
) -> None:
    with sessions() as db:
        jobs.enqueue(db, "work", "long")
        db.commit()
    seen: list[object] = []

    def long(db: Session, ctx: jobs.JobContext) -> None:
        before = _job(sessions, "work", "long").claimed_until
        assert ctx.report({"done": 3, "of": 10})
        job = _job(sessions, "work", "long")
        seen.append(job.progress)
        assert before is not None and job.claimed_until is not None
        assert job.claimed_until >= before

    runner = jobs.JobRunner(sessions, {"work": long}, lease_s=5)
    assert runner.run_due() == 1
    assert seen == [{"done": 3, "of": 10}]
    assert _job(sessions, "work", "long").status == "done"


def test_a_handler_slower_than_its_lease_keeps_its_job(
    sessions: sessionmaker[Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The worker extends the lease while the handler runs: no step of it has to report within
    the lease, as an analysis's steps on a busy machine did not."""
    lease_s = 0.3  # kept every 0.1 s
    with sessions() as db:
        jobs.enqueue(db, "work", "slow")
        db.commit()
    with sessions() as db:
        claimed = jobs.claim(db, ["work"], lease_s=lease_s)
    assert claimed is not None
    first_until = _job(sessions, "work", "slow").claimed_until
    assert first_until is not None
    extended = threading.Event()
    real_extend = jobs.extend_lease

    def extend(*args: object, **kwargs: object) -> bool:
        kept = real_extend(*args, **kwargs)  # type: ignore[arg-type]
        if kept:
            extended.set()
        return kept

    monkeypatch.setattr(jobs, "extend_lease", extend)
    taken: list[object] = []

    def slow(db: Session, ctx: jobs.JobContext) -> None:
        # Without reporting, wait for the worker to extend the lease, then ask for the job as
        # another worker would once the lease's first end has passed.
        assert extended.wait(10), "the lease was never extended"
        with sessions() as other:
            later = first_until + timedelta(seconds=0.1)
            taken.append(jobs.claim(other, ["work"], lease_s, now=later))
        _effect(db, ctx)

    status = jobs.run_claimed(sessions, claimed, {"work": slow}, lease_s=lease_s, retry_s=0)
    assert taken == [None]  # nobody could take it over
    assert status == "done"
    job = _job(sessions, "work", "slow")
    assert (job.status, job.attempts) == ("done", 1)


def test_only_the_runners_kinds_are_claimed(sessions: sessionmaker[Session]) -> None:
    with sessions() as db:
        jobs.enqueue(db, "other", "x")
        db.commit()
    assert jobs.JobRunner(sessions, {"work": _effect}).run_due() == 0
    assert _job(sessions, "other", "x").status == "pending"


def test_two_workers_at_once_run_each_job_exactly_once(sessions: sessionmaker[Session]) -> None:
    with sessions() as db:
        for i in range(30):
            jobs.enqueue(db, "work", f"k{i}")
        db.commit()
    ran: list[str] = []
    lock = threading.Lock()

    def record(db: Session, ctx: jobs.JobContext) -> None:
        with lock:
            ran.append(ctx.key)

    runners = [jobs.JobRunner(sessions, {"work": record}) for _ in range(3)]
    threads = [threading.Thread(target=r.run_due) for r in runners]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert sorted(ran) == sorted(f"k{i}" for i in range(30))
    with sessions() as db:
        statuses = set(db.scalars(select(Job.status).where(Job.kind == "work")))
    assert statuses == {"done"}


@pytest.mark.timeout(60)
def test_the_runner_started_from_a_loop_does_enqueued_jobs(
    sessions: sessionmaker[Session],
) -> None:
    done = threading.Event()
    runner = jobs.JobRunner(sessions, {"work": lambda db, ctx: done.set()}, workers=2, poll_s=30)

    async def scenario() -> None:
        await runner.start()
        try:
            with sessions() as db:
                jobs.enqueue(db, "work", "soon")
                db.commit()
            runner.wake()  # without it the next poll is 30 s away
            while not done.is_set():
                await asyncio.sleep(0.01)
        finally:
            await runner.stop()

    asyncio.run(scenario())
    assert done.is_set()

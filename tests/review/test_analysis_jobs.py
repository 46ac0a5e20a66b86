"""Analyses as durable jobs: enqueued on request, run once across instances and after a crash,
progress while running, a failed one retried; nothing for an unfinished game (R-60)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool

import pytest
from sqlalchemy import delete, select
from sqlalchemy.orm import Session, sessionmaker

from app.db.models.accounts import User
from app.db.models.base import utcnow
from app.db.models.games import Game
from app.db.models.jobs import Job
from app.db.models.reviews import GameAnalysis
from app.db.session import make_sessionmaker
from app.infra import jobs
from app.review import analyse_game
from app.review.pool import AnalysisPool
from app.review.source import record_from_db, review_settings
from app.services.reviews import analysis
from app.services.reviews.requests import analysis_of, request_analysis
from app.settings import Settings
from app.shared.errors import ServiceError

from .conftest import play_to_the_end

# The wait told for the one analysis ahead: the setting's default, whatever it is.
ONE_AHEAD = Settings.model_fields["review_expected_seconds"].default

# Every test here has the expert analyse a whole game (seconds of CPU each).
pytestmark = pytest.mark.slow

# The subject is the queue, not the search: the smallest search that still judges each move
# (one round, rollouts of 8 actions scoring 4 of the legal ones a step; docs/review.md).
SETTINGS = Settings(
    review_rounds=1, review_concurrency=0, review_rollout_plies=8, review_rollout_sample=4
)
LiveGame = Callable[..., tuple[Game, list[User]]]


class CountingPool(AnalysisPool):
    """Runs parts in the caller's thread and counts them (per game)."""

    def __init__(self) -> None:
        super().__init__(0, 0)
        self.parts: list[str] = []
        self.lock = threading.Lock()

    def run_part(self, record, settings, start, stop):  # type: ignore[no-untyped-def]
        with self.lock:
            self.parts.append(record.game_id)
        return super().run_part(record, settings, start, stop)


def _runner(sessions: sessionmaker[Session], pool: AnalysisPool) -> jobs.JobRunner:
    return jobs.JobRunner(sessions, {analysis.KIND: analysis.job_handler(SETTINGS, pool)})


def _analysis_jobs(db: Session) -> list[Job]:
    db.expire_all()
    return list(db.scalars(select(Job).where(Job.kind == analysis.KIND)))


def _finished(db: Session, live_game: LiveGame) -> int:
    """A finished game whose analysis was asked for."""
    game, _ = live_game(2)
    play_to_the_end(db, game.id)
    assert request_analysis(db, game.id, None)["status"] == "pending"
    return game.id


def test_a_request_enqueues_one_analysis_and_the_job_stores_the_clis_json(
    db: Session, sessions: sessionmaker[Session], live_game: LiveGame
) -> None:
    game, _ = live_game(2)
    play_to_the_end(db, game.id, stop_before=20)
    assert _analysis_jobs(db) == []  # nothing while the game runs
    play_to_the_end(db, game.id)
    assert _analysis_jobs(db) == []  # nor at its end: analyses are asked for
    request_analysis(db, game.id, None)
    [job] = _analysis_jobs(db)
    assert (job.status, job.payload) == ("pending", {"game_id": game.id})
    pending = {"status": "pending", "percent": 0, "position": 1, "wait_seconds": ONE_AHEAD}
    assert analysis_of(db, game.id, None) == (None, pending)

    pool = CountingPool()
    assert _runner(sessions, pool).run_due() == 1
    expected = analyse_game(record_from_db(db, game.id), review_settings(SETTINGS))
    document, status = analysis_of(db, game.id, None)
    assert document == expected
    assert status == {"status": "done", "percent": 100}
    [job] = _analysis_jobs(db)
    total = len(expected["moves"])
    assert job.status == "done" and job.progress == {"done": total, "total": total}
    assert len(pool.parts) == len(analysis.parts(total)) == analysis.PARTS


def test_progress_is_visible_while_the_analysis_runs(
    db: Session, sessions: sessionmaker[Session], live_game: LiveGame
) -> None:
    game_id = _finished(db, live_game)
    halfway = threading.Event()
    go_on = threading.Event()
    done_at: list[int] = []  # where the fifth part starts (what four covered), and of how many

    class PausingPool(CountingPool):
        def run_part(self, record, settings, start, stop):  # type: ignore[no-untyped-def]
            if len(self.parts) == 4:
                done_at[:] = [start, len(record.moves)]
                halfway.set()
                assert go_on.wait(120)
            return super().run_part(record, settings, start, stop)

    worker = threading.Thread(target=_runner(sessions, PausingPool()).run_due)
    worker.start()
    try:
        assert halfway.wait(120)
        # Four parts of ten: 40%, give or take the rounding of the parts' bounds to whole moves.
        want = round(100 * done_at[0] / done_at[1])
        assert abs(want - 40) <= 5
        with sessions() as other:
            assert analysis_of(other, game_id, None) == (
                None,
                {"status": "running", "percent": want},
            )
    finally:
        go_on.set()
        worker.join(120)
    assert analysis_of(db, game_id, None)[1]["status"] == "done"


def test_two_instances_run_the_analysis_once(db: Session, engine, live_game: LiveGame) -> None:
    game_id = _finished(db, live_game)
    pools = [CountingPool(), CountingPool()]
    # Two instances: their own connection pools and sessions on the same database.
    runners = [_runner(make_sessionmaker(engine), pool) for pool in pools]
    threads = [threading.Thread(target=r.run_due) for r in runners]
    for t in threads:
        t.start()
    for t in threads:
        t.join(300)
    assert sorted(len(p.parts) for p in pools) == [0, analysis.PARTS]
    db.expire_all()
    assert db.scalar(select(GameAnalysis.game_id)) == game_id
    assert [j.status for j in _analysis_jobs(db)] == ["done"]


def test_after_a_crash_the_analysis_runs_again_once(
    db: Session, sessions: sessionmaker[Session], live_game: LiveGame
) -> None:
    game_id = _finished(db, live_game)
    with sessions() as s:
        crashed = jobs.claim(s, [analysis.KIND], lease_s=0.05)  # claimed, then the worker dies
    assert crashed is not None
    while utcnow() <= _analysis_jobs(db)[0].claimed_until:  # wait for the lease to run out
        time.sleep(0.02)
    pool = CountingPool()
    assert _runner(sessions, pool).run_due() == 1
    [job] = _analysis_jobs(db)
    assert (job.status, job.attempts) == ("done", 2)
    assert len(pool.parts) == analysis.PARTS
    # The dead worker coming back finishes nothing: the lease is no longer its.
    handlers = {analysis.KIND: analysis.job_handler(SETTINGS, pool)}
    assert jobs.run_claimed(sessions, crashed, handlers, lease_s=60, retry_s=0) == "lost"
    assert db.scalar(select(GameAnalysis.game_id)) == game_id


class DyingPool(CountingPool):
    """Its worker process dies on the first `dies` parts."""

    def __init__(self, dies: int) -> None:
        super().__init__()
        self.dies = dies

    def run_part(self, record, settings, start, stop):  # type: ignore[no-untyped-def]
        if self.dies > 0:
            self.dies -= 1
            raise BrokenProcessPool("a worker died")
        return super().run_part(record, settings, start, stop)


def test_a_dead_worker_means_a_retry_and_a_failed_analysis_can_be_retried(
    db: Session, sessions: sessionmaker[Session], live_game: LiveGame
) -> None:
    game_id = _finished(db, live_game)
    runner = jobs.JobRunner(
        sessions,
        {analysis.KIND: analysis.job_handler(SETTINGS, DyingPool(analysis.MAX_ATTEMPTS))},
        retry_s=0,
    )
    while runner.run_due():  # every attempt dies
        pass
    [job] = _analysis_jobs(db)
    assert job.status == "failed" and "BrokenProcessPool" in (job.error or "")
    _, status = analysis_of(db, game_id, None)
    assert status["status"] == "failed" and "BrokenProcessPool" not in str(status)

    assert request_analysis(db, game_id, None)["status"] == "pending"
    assert _runner(sessions, CountingPool()).run_due() == 1
    assert analysis_of(db, game_id, None)[1] == {"status": "done", "percent": 100}
    # Asking again changes nothing: the stored analysis is the answer.
    assert request_analysis(db, game_id, None) == {"status": "done", "percent": 100}
    assert len(_analysis_jobs(db)) == 1


def test_an_older_game_is_analysed_on_demand_once(
    db: Session, sessions: sessionmaker[Session], live_game: LiveGame
) -> None:
    game_id = _finished(db, live_game)
    db.execute(delete(Job).where(Job.kind == analysis.KIND))  # as before analyses existed
    db.commit()  # (and as a game's end leaves it now)
    assert analysis_of(db, game_id, None) == (None, {"status": "none"})
    assert request_analysis(db, game_id, None)["status"] == "pending"
    assert request_analysis(db, game_id, None)["status"] == "pending"
    assert len(_analysis_jobs(db)) == 1
    assert _runner(sessions, CountingPool()).run_due() == 1
    assert analysis_of(db, game_id, None)[0] is not None


def test_an_unfinished_game_has_no_analysis_and_cannot_get_one(
    db: Session, live_game: LiveGame
) -> None:
    """R-60: before the end, neither an analysis nor whether one is queued."""
    game, _ = live_game(2)
    play_to_the_end(db, game.id, stop_before=10)
    for call in (analysis_of, request_analysis):
        with pytest.raises(ServiceError) as refused:
            call(db, game.id, None)
        assert refused.value.code == "not_finished"
    assert _analysis_jobs(db) == []

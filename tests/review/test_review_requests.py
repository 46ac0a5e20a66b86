"""Review requests (app/services/reviews/requests.py) on both databases: a place in line, one
job per game, the queue's bound and the account's, the watching requester first, refusals for
games that are not over or not there (R-60), and rated games' automatic reviews."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from sqlalchemy import select, update
from sqlalchemy.orm import Session, sessionmaker

from app.db.models.accounts import User
from app.db.models.games import Game
from app.db.models.jobs import Job
from app.infra import jobs
from app.services.accounts import users
from app.services.reviews import analysis
from app.services.reviews.requests import (
    QueueLimits,
    analysis_of,
    auto_review,
    request_analysis,
)
from app.services.tables import lobby
from app.shared.clock import FakeClock
from app.shared.errors import ServiceError
from tests.services.clocked import clock, sessions

from .conftest import play_to_the_end

__all__ = ["clock", "sessions"]  # fixtures: the sessions on the test's FakeClock

LIMITS = QueueLimits(queue_max=3, per_user=2, watch_s=30.0, expected_s=60.0)


@pytest.fixture
def person(db: Session) -> Callable[[str], User]:
    return lambda name: users.start_guest(db, name, None, None)[0]


@pytest.fixture
def ended(db: Session, person: Callable[[str], User]) -> Callable[[], int]:
    """A game marked finished (the queue reads only the status; one test plays a game out)."""

    def make() -> int:
        host, other = person("Host"), person("Other")
        game = lobby.create_game(db, host, 2)
        lobby.join_game(db, game.id, other)
        lobby.start_game(db, game.id, host)
        db.execute(update(Game).where(Game.id == game.id).values(status="finished"))
        db.commit()
        return game.id

    return make


def _analysis_jobs(db: Session) -> list[Job]:
    db.expire_all()
    return list(db.scalars(select(Job).where(Job.kind == analysis.KIND).order_by(Job.id)))


def test_a_request_takes_a_place_in_line_and_asking_again_is_the_same_job(
    db: Session, person: Callable[[str], User], ended: Callable[[], int]
) -> None:
    ann, bob = person("Ann"), person("Bob")
    first, second = ended(), ended()
    assert request_analysis(db, first, ann.id, limits=LIMITS) == {
        "status": "pending",
        "percent": 0,
        "position": 1,
        "wait_seconds": 60,
    }
    out = request_analysis(db, second, bob.id, limits=LIMITS)
    assert (out["position"], out["wait_seconds"]) == (2, 120)
    # Bob asks for Ann's game too, Ann again: one job, its place unchanged, nobody's quota used.
    assert request_analysis(db, first, bob.id, limits=LIMITS)["position"] == 1
    assert request_analysis(db, first, ann.id, limits=LIMITS)["position"] == 1
    jobs_now = _analysis_jobs(db)
    assert [(j.key, j.requested_by) for j in jobs_now] == [
        (analysis.job_key(first), ann.id),
        (analysis.job_key(second), bob.id),
    ]


def test_the_full_queue_says_busy_with_the_wait_and_the_account_bound_holds(
    db: Session, person: Callable[[str], User], ended: Callable[[], int]
) -> None:
    ann, bob, cid = person("Ann"), person("Bob"), person("Cid")
    games = [ended() for _ in range(5)]
    request_analysis(db, games[0], ann.id, limits=LIMITS)
    request_analysis(db, games[1], ann.id, limits=LIMITS)
    with pytest.raises(ServiceError) as mine:
        request_analysis(db, games[2], ann.id, limits=LIMITS)
    assert mine.value.code == "review_user_limit"
    assert mine.value.retry_after == 60
    request_analysis(db, games[2], bob.id, limits=LIMITS)  # the queue's third and last place
    with pytest.raises(ServiceError) as full:
        request_analysis(db, games[3], cid.id, limits=LIMITS)
    assert full.value.code == "review_queue_full"
    assert full.value.retry_after == 60
    assert "3 games in line" in full.value.message and "about 3 min" in full.value.message
    assert len(_analysis_jobs(db)) == 3  # the refusals changed nothing
    # A done analysis frees a place (and Ann's quota).
    db.execute(update(Job).where(Job.key == analysis.job_key(games[0])).values(status="done"))
    db.commit()
    assert request_analysis(db, games[3], ann.id, limits=LIMITS)["status"] == "pending"


def test_the_requester_who_is_looking_goes_first(
    db: Session,
    sessions: sessionmaker[Session],
    clock: FakeClock,
    person: Callable[[str], User],
    ended: Callable[[], int],
) -> None:
    ann, bob, cid = person("Ann"), person("Bob"), person("Cid")
    limits = QueueLimits(queue_max=10, per_user=2, watch_s=30.0, expected_s=60.0)
    games = [ended() for _ in range(3)]
    for game_id, who in zip(games, (ann, bob, cid), strict=True):
        request_analysis(db, game_id, who.id, limits=limits)
        clock.advance(1)
    # All three asked within the watch: the order they asked in.
    assert [analysis_of(db, g, None, limits=limits)[1]["position"] for g in games] == [1, 2, 3]
    clock.advance(60)  # nobody looked since: still first come, first served
    assert [analysis_of(db, g, None, limits=limits)[1]["position"] for g in games] == [1, 2, 3]
    # Someone else looking at Cid's game changes nothing; Cid looking puts it first.
    assert analysis_of(db, games[2], ann.id, limits=limits)[1]["position"] == 3
    assert analysis_of(db, games[2], cid.id, limits=limits)[1]["position"] == 1
    assert analysis_of(db, games[0], None, limits=limits)[1]["position"] == 2
    with sessions() as worker:
        claimed = jobs.claim(worker, [analysis.KIND], lease_s=60)
    assert claimed is not None
    assert db.get(Job, claimed.id).key == analysis.job_key(games[2])  # type: ignore[union-attr]
    # Once Cid stops looking the others follow in the order they asked.
    clock.advance(31)
    with sessions() as worker:
        nxt = jobs.claim(worker, [analysis.KIND], lease_s=60)
    assert nxt is not None
    assert db.get(Job, nxt.id).key == analysis.job_key(games[0])  # type: ignore[union-attr]


def test_unknown_and_unfinished_games_are_refused_and_nothing_is_queued(
    db: Session, person: Callable[[str], User], ended: Callable[[], int]
) -> None:
    """R-60: before the end neither an analysis nor a place in line, full queue or not."""
    ann = person("Ann")
    host, other = person("Host"), person("Other")
    live = lobby.create_game(db, host, 2)
    lobby.join_game(db, live.id, other)
    lobby.start_game(db, live.id, host)
    full = QueueLimits(queue_max=1, per_user=1)
    request_analysis(db, ended(), ann.id, limits=full)  # the queue is now full, Ann at her bound
    for call in (request_analysis, analysis_of):
        for who in (host.id, ann.id, None):
            with pytest.raises(ServiceError) as refused:
                call(db, live.id, who, limits=full)
            assert refused.value.code == "not_finished"
            assert "queue" not in refused.value.message and "line" not in refused.value.message
            with pytest.raises(ServiceError) as unknown:
                call(db, 987654, who, limits=full)
            assert unknown.value.code == "not_found"
    assert len(_analysis_jobs(db)) == 1


def test_a_played_out_game_is_queued_once_on_request_not_at_its_end(
    db: Session, person: Callable[[str], User]
) -> None:
    host, other = person("Host"), person("Other")
    game = lobby.create_game(db, host, 2)
    lobby.join_game(db, game.id, other)
    lobby.start_game(db, game.id, host)
    play_to_the_end(db, game.id)
    assert _analysis_jobs(db) == []
    assert analysis_of(db, game.id, other.id, limits=LIMITS) == (None, {"status": "none"})
    assert request_analysis(db, game.id, other.id, limits=LIMITS)["position"] == 1
    assert request_analysis(db, game.id, host.id, limits=LIMITS)["position"] == 1
    assert len(_analysis_jobs(db)) == 1


def test_rated_games_are_reviewed_automatically_only_below_the_setting(
    db: Session, ended: Callable[[], int], person: Callable[[str], User]
) -> None:
    rated, unrated, late = ended(), ended(), ended()
    db.execute(update(Game).where(Game.id.in_([rated, late])).values(rated=True))
    db.commit()
    auto_review(0)(db, rated)  # the default: never
    assert _analysis_jobs(db) == []
    auto_review(1)(db, unrated)  # not rated
    auto_review(1)(db, rated)
    db.commit()
    assert [j.key for j in _analysis_jobs(db)] == [analysis.job_key(rated)]
    assert _analysis_jobs(db)[0].requested_by is None  # nobody's quota
    auto_review(1)(db, late)  # one waits already: the queue is not short enough
    db.commit()
    assert len(_analysis_jobs(db)) == 1

"""Results and ratings on SQLite and Postgres: exactly once, quitters last, recompute."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

import app.engine as rules
from app.db.models.accounts import User
from app.db.models.base import utcnow
from app.db.models.games import Game
from app.db.models.jobs import Job
from app.db.models.ratings import GameResult, Rating
from app.infra import jobs
from app.services.play import games
from app.services.ratings import results as ratings
from app.services.reviews.job_handlers import job_handlers
from app.services.tables import lobby, seats
from app.shared.errors import ServiceError
from tests.moves import play_seat

MakeAccount = Callable[[str], User]


@pytest.fixture
def make_account(db: Session) -> MakeAccount:
    def make(name: str) -> User:
        user = User(display_name=name, username=name.lower(), password_hash="x")
        db.add(user)
        db.commit()
        return user

    return make


def _rated_game(
    db: Session, people: list[User], bots: tuple[str, ...] = (), *, rated: bool = True, **kw: Any
) -> Game:
    game = lobby.create_game(db, people[0], len(people) + len(bots), rated=rated, **kw)
    for user in people[1:]:
        lobby.join_game(db, game.id, user)
    for level in bots:
        seats.add_bot(db, game.id, people[0], level)
    return lobby.start_game(db, game.id, people[0])


def _move(db: Session, game: Game) -> tuple[int, dict[str, Any], Any]:
    state = games.load_state(db, game)
    seat = rules.to_act(state)
    return seat, rules.legal_actions(state, seat)[0], state


def _play(db: Session, game_id: int, *, stop_before_last: bool = False) -> Game:
    """Play the first legal action for whoever is to act, to the end (or just before it)."""
    while True:
        game = lobby.get_game(db, game_id)
        if game.status != "live":
            return game
        seat, action, state = _move(db, game)
        if stop_before_last and rules.is_over(rules.apply(state, action, seat)[0]):
            return game
        play_seat(db, game.id, seat, game.version, action)


def _runner(sessions: sessionmaker[Session]) -> jobs.JobRunner:
    return jobs.JobRunner(sessions, job_handlers())


def _results(db: Session, game_id: int) -> list[GameResult]:
    db.expire_all()
    return list(
        db.scalars(
            select(GameResult).where(GameResult.game_id == game_id).order_by(GameResult.seat)
        )
    )


def _ratings(db: Session) -> dict[tuple[int, str], tuple[float, float, int, int]]:
    db.expire_all()
    return {
        (r.user_id, r.variant): (r.mu, r.sigma, r.display, r.games)
        for r in db.scalars(select(Rating))
    }


def test_a_rated_game_is_rated_once_by_the_job_enqueued_with_its_finish(
    db: Session, sessions: sessionmaker[Session], make_account: MakeAccount
) -> None:
    ann, bob = make_account("Ann"), make_account("Bob")
    game = _play(db, _rated_game(db, [ann, bob], ("greedy",)).id)
    assert game.status == "finished"
    job = db.scalar(select(Job).where(Job.kind == ratings.KIND))
    assert job is not None and job.key == f"game:{game.id}" and job.status == "pending"
    assert _results(db, game.id) == []  # not yet: the job does it
    assert _runner(sessions).run_due() == 1
    rows = _results(db, game.id)
    assert [r.seat for r in rows] == [0, 1, 2]
    assert all(r.rated for r in rows)
    places = ratings.rm.placings(game.final_scores, [False] * 3)
    assert [r.place for r in rows] == places
    assert [r.total for r in rows] == [p["total"] for p in game.final_scores["players"]]
    bot = rows[2]
    assert bot.user_id is None and bot.bot_level == "greedy" and bot.mu_after is None
    after = _ratings(db)
    assert set(after) == {(ann.id, "base"), (bob.id, "base")}
    assert all(v[3] == 1 for v in after.values())
    # Once only: enqueuing again, running again, or calling the recorder again changes nothing.
    ratings.enqueue_results(db, game.id)
    db.commit()
    assert _runner(sessions).run_due() == 0
    assert ratings.record_results(db, game.id) is False
    db.rollback()
    assert _ratings(db) == after
    assert len(_results(db, game.id)) == 3


def test_a_crash_between_the_finish_and_the_rating_only_delays_it(
    db: Session, sessions: sessionmaker[Session], make_account: MakeAccount
) -> None:
    ann, bob = make_account("Ann"), make_account("Bob")
    game = _play(db, _rated_game(db, [ann, bob]).id)
    with sessions() as other:  # a worker claims the job and dies before committing anything
        crashed = jobs.claim(other, [ratings.KIND], lease_s=60)
    assert crashed is not None
    assert _runner(sessions).run_due() == 0  # its lease holds: nobody else rates yet
    assert _results(db, game.id) == []
    with sessions() as other:  # the lease runs out: another instance takes the job
        again = jobs.claim(other, [ratings.KIND], 60, now=utcnow() + timedelta(seconds=61))
    assert again is not None
    handlers = job_handlers()
    assert jobs.run_claimed(sessions, again, handlers, lease_s=60, retry_s=1) == "done"
    assert jobs.run_claimed(sessions, crashed, handlers, lease_s=60, retry_s=1) == "lost"
    assert len(_results(db, game.id)) == 2
    assert {v[3] for v in _ratings(db).values()} == {1}


def test_two_instances_finishing_the_same_game_rate_it_once(
    db: Session,
    sessions: sessionmaker[Session],
    make_account: MakeAccount,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ann, bob = make_account("Ann"), make_account("Bob")
    game = _play(db, _rated_game(db, [ann, bob]).id, stop_before_last=True)
    seat, action, _ = _move(db, game)
    barrier = threading.Barrier(2)
    real_apply = rules.apply

    def together(*args: Any) -> Any:  # both past the early checks before either commits
        result = real_apply(*args)
        barrier.wait(timeout=20)
        return result

    monkeypatch.setattr(rules, "apply", together)
    outcomes: list[Any] = [None, None]

    def finish(i: int) -> None:
        with sessions() as own:
            try:
                outcomes[i] = play_seat(own, game.id, seat, game.version, action).status
            except ServiceError as exc:
                outcomes[i] = exc.code

    threads = [threading.Thread(target=finish, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    monkeypatch.setattr(rules, "apply", real_apply)
    # The loser's refusal is worded from one read of the game: the other move ended it.
    assert sorted(outcomes) == ["finished", "game_over"]
    assert db.scalar(select(func.count()).select_from(Job).where(Job.kind == ratings.KIND)) == 1
    # Two instances' runners at once: one rates, the other finds nothing to do.
    runners = [_runner(sessions) for _ in range(2)]
    workers = [threading.Thread(target=r.run_due) for r in runners]
    for t in workers:
        t.start()
    for t in workers:
        t.join(60)
    assert sum(r.finished.get("done", 0) for r in runners) == 1
    assert len(_results(db, game.id)) == 2
    assert {v[3] for v in _ratings(db).values()} == {1}


def test_a_player_who_left_ranks_last_and_loses_rating(
    db: Session, sessions: sessionmaker[Session], make_account: MakeAccount
) -> None:
    ann, bob, cat = make_account("Ann"), make_account("Bob"), make_account("Cat")
    game = _rated_game(db, [ann, bob, cat])
    seats.leave_game(db, game.id, ann)  # Ann walks away; her seat is played on (first legal)
    game = _play(db, game.id)
    assert _runner(sessions).run_due() == 1
    rows = _results(db, game.id)
    assert rows[0].quit and rows[0].place == 3
    assert [r.quit for r in rows[1:]] == [False, False]
    assert rows[0].mu_after is not None and rows[0].mu_before is not None
    assert rows[0].mu_after < rows[0].mu_before


def test_a_seat_a_bot_kept_ranks_last(
    db: Session, sessions: sessionmaker[Session], make_account: MakeAccount
) -> None:
    ann, bob = make_account("Ann"), make_account("Bob")
    game = _rated_game(db, [ann, bob])
    seats.hand_seat_to_bot(db, game.id, bob, "random")  # held by a bot at the end
    game = _play(db, game.id)
    _runner(sessions).run_due()
    rows = _results(db, game.id)
    assert [r.quit for r in rows] == [False, True]
    assert [r.place for r in rows] == [1, 2]


def test_unrated_and_abandoned_games_keep_results_but_move_no_rating(
    db: Session, sessions: sessionmaker[Session], make_account: MakeAccount
) -> None:
    ann, bob = make_account("Ann"), make_account("Bob")
    unrated = _play(db, _rated_game(db, [ann, bob], rated=False).id)
    abandoned = _rated_game(db, [ann, bob])
    seats.leave_game(db, abandoned.id, ann)
    seats.leave_game(db, abandoned.id, bob)
    abandoned = _play(db, abandoned.id)
    assert _runner(sessions).run_due() == 2
    for game in (unrated, abandoned):
        rows = _results(db, game.id)
        assert len(rows) == 2 and not any(r.rated for r in rows)
        assert all(r.mu_after is None for r in rows)
    assert _ratings(db) == {}


def test_an_unfinished_or_cancelled_game_is_never_recorded(
    db: Session, make_account: MakeAccount
) -> None:
    ann, bob = make_account("Ann"), make_account("Bob")
    live = _rated_game(db, [ann, bob])
    assert ratings.record_results(db, live.id) is False
    open_table = lobby.create_game(db, ann, 2, rated=True)
    lobby.leave_game(db, open_table.id, ann)
    assert ratings.record_results(db, open_table.id) is False
    assert _results(db, live.id) == [] and _results(db, open_table.id) == []


def test_guests_cannot_open_or_join_rated_tables(
    db: Session, make_user: Callable[[str], User], make_account: MakeAccount
) -> None:
    guest, ann = make_user("Guest"), make_account("Ann")
    with pytest.raises(ServiceError) as err:
        lobby.create_game(db, guest, 2, rated=True)
    assert err.value.code == "account_required"
    table = lobby.create_game(db, ann, 2, rated=True)
    with pytest.raises(ServiceError) as err:
        lobby.join_game(db, table.id, guest)
    assert err.value.code == "account_required"
    assert lobby.get_game(db, table.id).seats[1].user_id is None  # nothing changed
    lobby.join_game(db, lobby.create_game(db, ann, 2).id, guest)  # unrated: welcome


def test_variants_have_their_own_ratings(
    db: Session, sessions: sessionmaker[Session], make_account: MakeAccount
) -> None:
    ann, bob = make_account("Ann"), make_account("Bob")
    _play(db, _rated_game(db, [ann, bob]).id)
    _play(db, _rated_game(db, [ann, bob], expansion=True).id)
    _runner(sessions).run_due()
    assert set(_ratings(db)) == {(u, v) for u in (ann.id, bob.id) for v in ("base", "expansion")}


def test_recompute_rebuilds_the_same_numbers(
    db: Session, sessions: sessionmaker[Session], make_account: MakeAccount
) -> None:
    ann, bob, cat = make_account("Ann"), make_account("Bob"), make_account("Cat")
    lineups: list[tuple[list[User], tuple[str, ...]]] = [
        ([ann, bob], ("greedy",)),
        ([bob, cat], ()),
        ([cat, ann, bob], ("random",)),
        ([ann, cat], ()),
    ]
    for people, bots in lineups:
        _play(db, _rated_game(db, people, bots).id)
        _runner(sessions).run_due()  # rated in turn, as a live server would
    before = _ratings(db)
    history = [
        (r.game_id, r.seat, r.mu_before, r.sigma_before, r.mu_after, r.sigma_after, r.display_after)
        for r in db.scalars(select(GameResult).order_by(GameResult.id))
    ]
    assert before[(ann.id, "base")][3] == 3
    # Wreck the ratings, then rebuild them from the stored results.
    db.query(Rating).update({"mu": 1.0, "sigma": 1.0})
    db.commit()
    assert ratings.recompute(db) == {"games": 4, "ratings": 3, "profile_summaries": 8}
    assert _ratings(db) == before
    db.expire_all()
    assert [
        (r.game_id, r.seat, r.mu_before, r.sigma_before, r.mu_after, r.sigma_after, r.display_after)
        for r in db.scalars(select(GameResult).order_by(GameResult.id))
    ] == history


def test_the_recompute_command_gives_the_same_numbers(
    db: Session,
    sessions: sessionmaker[Session],
    make_account: MakeAccount,
    database_url: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from app.cli import main

    ann, bob = make_account("Ann"), make_account("Bob")
    for _ in range(2):
        _play(db, _rated_game(db, [ann, bob], ("random",)).id)
    monkeypatch.setenv("SEADRAGONS_DATABASE_URL", database_url)
    assert main(["jobs", "run"]) == 0  # the jobs the finishes enqueued
    assert '"ran": 2' in capsys.readouterr().out
    before = _ratings(db)
    assert {v[3] for v in before.values()} == {2}
    db.query(Rating).delete()
    db.commit()
    assert main(["ratings", "recompute"]) == 0
    assert '"games": 2' in capsys.readouterr().out
    assert _ratings(db) == before


def test_the_waiting_room_prediction_favours_the_stronger_seat(
    db: Session, make_account: MakeAccount
) -> None:
    ann = make_account("Ann")
    table = lobby.create_game(db, ann, 3, rated=True)
    seats.add_bot(db, table.id, ann, "expert")
    seats.add_bot(db, table.id, ann, "random")
    guess = {g["seat"]: g for g in ratings.prediction(db, lobby.get_game(db, table.id))}
    assert set(guess) == {0, 1, 2}
    assert guess[1]["win"] > guess[2]["win"]
    assert guess[1]["place"] < guess[2]["place"]


def test_equal_ratings_share_a_rank_on_the_leaderboard_and_the_profile(
    db: Session, make_account: MakeAccount
) -> None:
    from app.services.ratings import leaderboard, profiles
    from app.settings import Settings

    settings = Settings(rating_provisional_sigma=100.0, leaderboard_page_size=2)
    people = [make_account(n) for n in ("Ann", "Bob", "Cat", "Dan")]
    for user, display in zip(people, (1500, 1400, 1400, 1300), strict=True):
        db.add(
            Rating(user_id=user.id, variant="base", mu=25.0, sigma=3.0, display=display, games=9)
        )
    db.commit()
    first = leaderboard.leaderboard(db, "base", 1, settings)
    second = leaderboard.leaderboard(db, "base", 2, settings)
    ranks = [e["rank"] for e in first["entries"] + second["entries"]]
    assert ranks == [1, 2, 2, 4]
    assert (first["total"], first["pages"]) == (4, 2)
    shown = profiles.profile(db, "cat", settings)["ratings"][0]
    assert (shown["rank"], shown["rating"]) == (2, 1400)


def test_a_seat_a_bot_kept_after_two_timeouts_ranks_last(
    db: Session, sessions: sessionmaker[Session], make_account: MakeAccount
) -> None:
    from app.services.play import deadlines

    ann, bob = make_account("Ann"), make_account("Bob")
    game = _rated_game(db, [ann, bob], clock={"mode": "daily", "per_turn": 3600})
    later = utcnow() + timedelta(days=2)
    timeouts = 0
    while True:  # Ann's first two turns run out (the sweep hands them to a bot); Bob plays
        game = lobby.get_game(db, game.id)
        if game.status != "live":
            break
        ann_seat = game.seats[0]
        if timeouts < 2 and game.to_act == 0 and ann_seat.bot_level is None:
            claimed = deadlines.claim_timeout(db, later, "random", 2, set())
            assert isinstance(claimed, deadlines.Timeout) and claimed.seat == 0
            timeouts += 1
            continue
        seat, action, _ = _move(db, game)
        play_seat(db, game.id, seat, game.version, action)
    assert timeouts == 2
    assert game.seats[0].bot_level == "random"  # kept after the second timeout in a row
    _runner(sessions).run_due()
    rows = _results(db, game.id)
    assert [r.quit for r in rows] == [True, False]
    assert [r.place for r in rows] == [2, 1]

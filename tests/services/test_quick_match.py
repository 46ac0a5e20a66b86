"""Quick match (app/services/matching): pools fill tables whole, on SQLite and Postgres; the
races (many guests joining and leaving at once), expiry and bots after a wait on a FakeClock,
the caps, and the quit counter's longer wait."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from app.db.models.accounts import User
from app.db.models.games import Game, Seat
from app.db.models.matching import PoolEntry
from app.db.models.ratings import GameResult
from app.services.accounts import users
from app.services.matching import pools
from app.services.matching.choice import ANY, Choice, Waiter, pick
from app.services.matching.penalties import QuitRule
from app.services.matching.rules import MatchRules
from app.services.tables import lobby
from app.shared.clock import FakeClock
from app.shared.errors import ServiceError
from tests.services.clocked import clock, sessions
from tests.services.races import in_threads

__all__ = ["clock", "sessions"]  # fixtures: the sessions on the test's FakeClock

RULES = MatchRules(
    entry_seconds=30,
    bots_after_seconds=60,
    bot_level="random",
    any_players_with_bots=3,
    max_pools_per_user=3,
    max_entries_per_address=30,
    live_initial_seconds=600,
    live_per_turn_seconds=10,
    daily_seconds=86400,
    quit=QuitRule(quits=2, window_hours=24, delay_seconds=60, max_seconds=300),
)
THREE = Choice(3, False, "live", False)
TWO = Choice(2, False, "live", False)


def _guests(db: Session, count: int, prefix: str = "G") -> list[User]:
    return [users.start_guest(db, f"{prefix}{i}", None, None)[0] for i in range(count)]


def _check_tables(db: Session) -> list[Game]:
    """Every matched table is whole (live, every seat a distinct person or a bot), every person
    sits at one table at most, and every matched entry's owner sits at its table."""
    db.expire_all()
    games = list(db.scalars(select(Game).where(Game.status != "cancelled")))
    seated: list[int] = []
    for g in games:
        assert g.status == "live", g.id
        assert all(not s.is_empty for s in g.seats), g.id
        people = [s.user_id for s in g.seats if s.user_id is not None]
        assert len(people) == len(set(people))
        seated += people
    assert len(seated) == len(set(seated)), "a person seated twice"
    for e in db.scalars(select(PoolEntry).where(PoolEntry.game_id.is_not(None))):
        assert (
            db.scalar(
                select(func.count(Seat.id)).where(
                    Seat.game_id == e.game_id, Seat.user_id == e.user_id
                )
            )
            == 1
        )
    return games


def test_a_pool_fills_a_table_in_one_go(db: Session) -> None:
    a, b, c = _guests(db, 3)
    first = pools.join(db, a, THREE, RULES)
    assert (first.status, first.waiting) == ("waiting", 1)
    assert pools.join(db, b, THREE, RULES).waiting == 2
    assert db.scalar(select(func.count(Game.id))) == 0  # nothing half-made while waiting
    last = pools.join(db, c, THREE, RULES)
    assert last.status == "matched" and last.game_id is not None
    game = lobby.get_game(db, last.game_id)
    assert game.status == "live" and game.players == 3 and not game.rated
    assert [s.user_id for s in game.seats] == [a.id, b.id, c.id]
    assert game.clock is not None and game.clock["mode"] == "live"
    assert pools.entry(db, a, first.id, RULES).game_id == game.id
    _check_tables(db)


def test_any_fills_a_sized_table_and_one_player_is_seated_once(db: Session) -> None:
    a, b = _guests(db, 2)
    pools.join(db, a, Choice(ANY, False, "daily", False), RULES)
    pools.join(db, a, Choice(2, False, "daily", False), RULES)  # a in two pools of one scope
    pools.join(db, a, Choice(2, True, "daily", False), RULES)  # and in another scope
    seen = pools.join(db, b, Choice(2, False, "daily", False), RULES)
    assert seen.status == "matched"
    game = lobby.get_game(db, seen.game_id)  # type: ignore[arg-type]
    assert sorted(s.user_id for s in game.seats) == sorted([a.id, b.id])  # type: ignore[type-var]
    assert game.clock["mode"] == "daily"  # type: ignore[index]
    # a's other entries went with the match: a waits nowhere any more, each page leads there
    assert {(e.status, e.game_id) for e in pools.entries(db, a, RULES)} == {("matched", game.id)}
    _check_tables(db)


def test_rated_pools_seat_accounts_only(db: Session) -> None:
    guest = _guests(db, 1)[0]
    rated = Choice(2, False, "live", True)
    with pytest.raises(ServiceError) as refused:
        pools.join(db, guest, rated, RULES)
    assert refused.value.code == "account_required"
    assert db.scalar(select(func.count(PoolEntry.id))) == 0  # nothing stored
    one, two = (users.register(db, f"acc{i}", "long-password", None, None)[0] for i in range(2))
    pools.join(db, one, rated, RULES)
    pools.join(db, guest, Choice(2, False, "live", False), RULES)  # an unrated pool apart
    made = pools.join(db, two, rated, RULES)
    game = lobby.get_game(db, made.game_id)  # type: ignore[arg-type]
    assert game.rated and {s.user_id for s in game.seats} == {one.id, two.id}


def test_pairing_by_rating_takes_the_nearest_when_the_pool_allows() -> None:
    never = lambda _name, _names: False  # noqa: E731
    waiters = [
        Waiter(1, 1, 2, 1500, "a"),  # the oldest: the anchor
        Waiter(2, 2, 2, 900, "b"),
        Waiter(3, 3, ANY, 1480, "c"),
        Waiter(4, 4, 3, 1500, "d"),  # wants 3 players: not for a 2-player table
    ]
    size, table = pick(waiters, True, never)  # type: ignore[misc]
    assert (size, [w.user_id for w in table]) == (2, [1, 3])
    # unrated: by age
    size, table = pick(waiters, False, never)  # type: ignore[misc]
    assert [w.user_id for w in table] == [1, 2]
    # "any" anchors take the largest table the pool fills; names alike never share one
    anys = [Waiter(i, i, ANY, None, n) for i, n in enumerate(["Ann", "ann", "Bob", "Cy"])]
    clash = lambda name, names: name.casefold() in [n.casefold() for n in names]  # noqa: E731
    size, table = pick(anys, False, clash)  # type: ignore[misc]
    assert (size, [w.name for w in table]) == (3, ["Ann", "Bob", "Cy"])
    assert pick([Waiter(1, 1, 3, None, "x"), Waiter(2, 1, ANY, None, "x")], False, clash) is None


def test_many_guests_joining_and_leaving_at_once(
    sessions: sessionmaker[Session], db: Session
) -> None:
    """24 guests join a 3-player pool at once while a third of them leave again at once: every
    table is whole, nobody sits twice, and fewer than three ready entries are left waiting."""
    people = _guests(db, 24)
    ids = [u.id for u in people]
    leavers = set(random.Random(7).sample(range(24), 8))
    entries: dict[int, int] = {}

    def work(i: int) -> object:
        with sessions() as s:
            user = s.get(User, ids[i])
            assert user is not None
            view = pools.join(s, user, THREE, RULES)
            entries[i] = view.id
            if i in leavers and view.status == "waiting":
                try:
                    pools.leave(s, user, view.id)
                except ServiceError as exc:  # matched between the join and the leave
                    return exc.code
                return "left"
            return view.status

    outcomes = in_threads(24, work)
    assert all(o in ("waiting", "matched", "left", "already_matched") for o in outcomes), outcomes
    games = _check_tables(db)
    assert all(g.players == 3 for g in games)
    waiting = db.scalar(select(func.count(PoolEntry.id)).where(PoolEntry.game_id.is_(None)))
    assert (waiting or 0) < 3  # three waiting would have been seated
    seated = {s.user_id for g in games for s in g.seats}
    left = {ids[i] for i, o in enumerate(outcomes) if o == "left"}
    assert not seated & left  # a player who left is at no table
    assert len(seated) + len(left) + (waiting or 0) == 24


def test_many_guests_in_several_pools_at_once(
    sessions: sessionmaker[Session], db: Session, clock: FakeClock
) -> None:
    """Each of 15 guests waits in three overlapping pools (2, 3 and any), all made ready at the
    same moment (each left two games lately: 60 s to wait); then every waiting page renews at
    once, each renewal trying to make tables: one seat per guest, every table whole."""
    people = _guests(db, 15)
    host = _guests(db, 1, "H")[0]
    game = lobby.create_game(db, host, 2)
    for i, u in enumerate(people):
        for k in range(2):
            db.add(_left(game.id, 2 * i + k, u.id, clock.now()))
    db.commit()
    lobby.cancel_game(db, game.id, host)
    ids = [u.id for u in people]
    LONG = MatchRules(**{**RULES.__dict__, "entry_seconds": 300})
    choices = [Choice(2, False, "live", False), THREE, Choice(ANY, False, "live", False)]
    entry_ids: list[int] = [0] * 45

    def join(i: int) -> object:
        with sessions() as s:
            user = s.get(User, ids[i // 3])
            assert user is not None
            view = pools.join(s, user, choices[i % 3], LONG)
            entry_ids[i] = view.id
            return view.status

    assert set(in_threads(45, join)) == {"waiting"}
    assert _check_tables(db) == []  # none made yet: all wait out their delay
    clock.advance(61)

    def stay(i: int) -> object:
        with sessions() as s:
            user = s.get(User, ids[i // 3])
            assert user is not None
            return pools.stay(s, user, entry_ids[i], LONG).status

    outcomes = in_threads(45, stay)
    assert set(outcomes) <= {"waiting", "matched"}, outcomes
    games = _check_tables(db)
    assert games
    seated = {s.user_id for g in games for s in g.seats}
    waiting = set(
        db.scalars(select(PoolEntry.user_id).where(PoolEntry.game_id.is_(None)).distinct())
    )
    assert not seated & waiting  # a seated player waits nowhere
    assert len(waiting) < 2  # two waiting "any"s would make a table
    assert len(seated) + len(waiting) == 15


def test_an_entry_expires_unless_the_waiting_page_renews_it(db: Session, clock: FakeClock) -> None:
    a, b, c = _guests(db, 3)
    gone = pools.join(db, a, TWO, RULES)
    clock.advance(31)
    assert pools.join(db, b, TWO, RULES).status == "waiting"  # a stopped waiting
    with pytest.raises(ServiceError) as expired:
        pools.stay(db, a, gone.id, RULES)
    assert expired.value.code in ("entry_expired", "not_found")
    # b's page renews the entry every few seconds: 50 s later it is still there
    for _ in range(5):
        clock.advance(10)
        assert pools.stay(db, b, pools.entries(db, b, RULES)[0].id, RULES).status == "waiting"
    assert pools.join(db, c, TWO, RULES).status == "matched"
    _check_tables(db)


def test_bots_fill_the_table_after_the_wait(db: Session, clock: FakeClock) -> None:
    a, b = _guests(db, 2)
    mine = pools.join(db, a, Choice(4, True, "live", False), RULES)
    assert mine.bots_at == mine.created_at + timedelta(seconds=60)
    with pytest.raises(ServiceError) as early:
        pools.start_with_bots(db, a, mine.id, RULES)
    assert early.value.code == "too_early" and early.value.retry_after
    with pytest.raises(ServiceError) as theirs:  # someone else's entry does not exist for b
        pools.start_with_bots(db, b, mine.id, RULES)
    assert theirs.value.code == "not_found"
    for _ in range(6):
        clock.advance(10)
        pools.stay(db, a, mine.id, RULES)
    done = pools.start_with_bots(db, a, mine.id, RULES)
    game = lobby.get_game(db, done.game_id)  # type: ignore[arg-type]
    assert game.status == "live" and game.players == 4 and not game.rated
    assert game.options["expansion"] is True
    assert game.seats[0].user_id == a.id
    assert [s.bot_level for s in game.seats[1:]] == ["random"] * 3
    with pytest.raises(ServiceError) as again:
        pools.leave(db, a, mine.id)
    assert again.value.code == "already_matched"
    _check_tables(db)


def test_any_with_bots_takes_the_configured_size(db: Session, clock: FakeClock) -> None:
    a = _guests(db, 1)[0]
    mine = pools.join(db, a, Choice(ANY, False, "daily", False), RULES)
    clock.advance(29)
    pools.stay(db, a, mine.id, RULES)
    clock.advance(29)
    pools.stay(db, a, mine.id, RULES)
    clock.advance(2)
    game = lobby.get_game(db, pools.start_with_bots(db, a, mine.id, RULES).game_id)  # type: ignore[arg-type]
    assert game.players == 3 and game.clock["mode"] == "daily"  # type: ignore[index]


def test_a_player_waits_in_a_few_pools_at_most(db: Session) -> None:
    a = _guests(db, 1)[0]
    for players in (2, 3, 4):
        pools.join(db, a, Choice(players, False, "daily", False), RULES)
    pools.join(db, a, Choice(2, False, "daily", False), RULES)  # the same pool again: renewed
    with pytest.raises(ServiceError) as capped:
        pools.join(db, a, Choice(5, False, "daily", False), RULES)
    assert capped.value.code == "too_many_pools"
    assert db.scalar(select(func.count(PoolEntry.id)).where(PoolEntry.user_id == a.id)) == 3


def test_entries_per_address_are_capped(db: Session) -> None:
    rules = MatchRules(**{**RULES.__dict__, "max_entries_per_address": 2})
    people = _guests(db, 3)
    for i, u in enumerate(people[:2]):
        pools.join(db, u, Choice(i + 2, False, "daily", False), rules, address="addr-1")
    with pytest.raises(ServiceError) as capped:
        pools.join(db, people[2], Choice(5, False, "daily", False), rules, address="addr-1")
    assert capped.value.code == "too_many_entries"
    assert pools.entries(db, people[2], rules) == []
    pools.join(db, people[2], Choice(5, False, "daily", False), rules, address="addr-2")


def test_someone_elses_entry_is_not_there(db: Session) -> None:
    a, b = _guests(db, 2)
    mine = pools.join(db, a, THREE, RULES)
    for call in (pools.stay, pools.entry):
        with pytest.raises(ServiceError) as refused:
            call(db, b, mine.id, RULES)
        assert refused.value.code == "not_found"
    with pytest.raises(ServiceError) as refused:
        pools.leave(db, b, mine.id)
    assert refused.value.code == "not_found"
    assert pools.entry(db, a, mine.id, RULES).status == "waiting"


def test_a_malformed_choice_is_refused() -> None:
    for players, pace in ((1, "live"), (6, "live"), (3, "weekly")):
        with pytest.raises(ServiceError) as bad:
            Choice.checked(players, False, pace, False)
        assert bad.value.code == "invalid_choice"


def _left(game_id: int, seat: int, user_id: int, when: object) -> GameResult:
    """A finished game's result whose seat its owner did not play to the end."""
    return GameResult(
        game_id=game_id,
        seat=seat,
        user_id=user_id,
        variant="base",
        players=2,
        rated=False,
        place=2,
        quit=True,
        total=0,
        gold=0,
        ships=0,
        missions=0,
        most_missions=0,
        realms=0,
        finished_at=when,
    )


def _left_games(db: Session, user: User, host: User, count: int, when: object) -> None:
    game = lobby.create_game(db, host, 2)
    for seat in range(count):
        db.add(_left(game.id, seat, user.id, when))
    db.commit()
    lobby.cancel_game(db, game.id, host)


def test_repeated_quits_make_a_player_wait_longer(db: Session, clock: FakeClock) -> None:
    quitter, other, host, old = _guests(db, 4)
    now = clock.now()
    _left_games(db, old, host, 5, now - timedelta(hours=30))  # outside the window: no delay
    assert pools.join(db, old, TWO, RULES).ready_at == now
    pools.leave(db, old, pools.entries(db, old, RULES)[0].id)
    _left_games(db, quitter, host, 3, now - timedelta(hours=1))  # 3 >= 2: 2 x 60 s
    mine = pools.join(db, quitter, TWO, RULES)
    assert mine.ready_at == now + timedelta(seconds=120)
    theirs = pools.join(db, other, TWO, RULES)
    assert theirs.status == "waiting" and theirs.waiting == 2
    for _ in range(11):
        clock.advance(10)
        assert pools.stay(db, quitter, mine.id, RULES).status == "waiting"
        pools.stay(db, other, theirs.id, RULES)
    clock.advance(10)  # 120 s: the delay is over; the next renewal makes the table
    assert pools.stay(db, other, theirs.id, RULES).status == "matched"
    _check_tables(db)
    assert QuitRule(2, 24, 60, 300).delay(10) == 300  # capped

"""Slow games that survive real life: vacations stop daily clocks, a time bank carries unused
time over (capped), and a daily turn missed past the table's grace seats a bot its owner can send
away again. Time is a FakeClock the tests move; nothing sleeps."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from typing import Any

import anyio
import pytest
from sqlalchemy import Engine
from sqlalchemy.orm import Session, sessionmaker

import app.engine as rules
from app.context import road_for
from app.db.models.accounts import User
from app.db.models.games import Game
from app.db.session import make_sessionmaker
from app.services.accounts import users
from app.services.botseats.runner import BotRunner
from app.services.play import games
from app.services.play.deadlines import DeadlineSweeper
from app.services.tables import clocks, lobby, seats, vacations
from app.shared.clock import FakeClock
from app.shared.errors import ServiceError
from app.shared.moves import MoveCommand
from app.shared.notify import Notifier

pytestmark = pytest.mark.anyio
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
ALLOW = vacations.Allowance(10)
DAY = 86400


@pytest.fixture
def anyio_backend() -> str:
    """The server's loop is asyncio."""
    return "asyncio"


@pytest.fixture
def fake() -> FakeClock:
    """The one clock of these tests."""
    return FakeClock(T0)


@pytest.fixture
def fsessions(engine: Engine, fake: FakeClock) -> sessionmaker[Session]:
    """Sessions whose services read the fake clock."""
    return make_sessionmaker(engine, clock=fake)


@pytest.fixture
def fdb(fsessions: sessionmaker[Session]) -> Iterator[Session]:
    """One session for the test body, on the fake clock."""
    with fsessions() as session:
        yield session


def _account(db: Session, name: str) -> User:
    return users.register(db, name.lower(), "correct horse battery", None, None)[0]


def _daily(db: Session, players: list[User], clock: dict[str, Any]) -> Game:
    first = {"first_player": 0}
    game = lobby.create_game(db, players[0], len(players), extra_options=first, clock=clock)
    for user in players[1:]:
        lobby.join_game(db, game.id, user)
    return lobby.start_game(db, game.id, players[0])


def _play_turn(sessions: sessionmaker[Session], db: Session, game_id: int, user: User) -> None:
    """`user` plays first-legal decisions, at the clock's present moment, until the turn passes."""
    road = road_for(sessions)
    turn = games.load_state(db, lobby.get_game(db, game_id)).turn.number
    while True:
        game = lobby.get_game(db, game_id)
        state = games.load_state(db, game)
        if state.turn.number != turn or game.status != "live":
            return
        action = rules.legal_actions(state, game.to_act)[0]
        road.commit_in(db, MoveCommand(game_id, game.version, action, user_id=user.id))


def _deadline(db: Session, game_id: int) -> datetime:
    return datetime.fromisoformat(lobby.get_game(db, game_id).clock["deadline"])


def _sweeper(sessions: sessionmaker[Session], timeouts_to_bot: int = 2) -> DeadlineSweeper:
    return DeadlineSweeper(
        sessions, Notifier(), bot_level="random", timeouts_to_bot=timeouts_to_bot
    )


# --- vacations stop daily clocks ---------------------------------------------------------------


def test_a_vacation_freezes_the_running_daily_turn_and_the_sweep_leaves_it(
    fdb: Session, fsessions: sessionmaker[Session], fake: FakeClock
) -> None:
    ann, bob = _account(fdb, "Ann"), _account(fdb, "Bob")
    game = _daily(fdb, [ann, bob], {"mode": "daily", "per_turn": 3600, "grace": 0})
    sweeper = _sweeper(fsessions)
    fake.advance(1800)  # half Ann's turn gone
    out = vacations.start(fdb, ann, fake.now(), ALLOW, days=3)
    assert out["active"]["days"] == 3 and out["used_days"] == 3 and out["left_days"] == 7
    back = T0 + timedelta(seconds=1800, days=3)
    assert _deadline(fdb, game.id) == T0 + timedelta(seconds=3600, days=3)
    assert lobby.get_game(fdb, game.id).due_at == T0 + timedelta(seconds=3600, days=3)
    seen = games.game_state(fdb, game.id, bob.id)["clock"]
    assert seen["vacation_until"] == [back.isoformat(), None]
    for step in (3600, DAY, DAY):  # long past the turn's hour: nothing is due while she is away
        fake.advance(step)
        assert sweeper.sweep() == []
    fake.advance((back - fake.now()).total_seconds() + 1799)  # back, and 1799 s of her 1800 used
    assert sweeper.sweep() == []
    assert games.game_state(fdb, game.id, bob.id)["clock"]["vacation_until"] == [None, None]
    fake.advance(2)
    [claim] = sweeper.sweep()
    assert (claim.game_id, claim.seat, claim.turn) == (game.id, 0, 1)


def test_a_turn_that_begins_on_vacation_starts_when_the_player_is_back_and_ending_early_pulls_it(
    fdb: Session, fsessions: sessionmaker[Session], fake: FakeClock
) -> None:
    ann, bob = _account(fdb, "Ann"), _account(fdb, "Bob")
    game = _daily(fdb, [ann, bob], {"mode": "daily", "per_turn": 3600, "bank_cap": 0, "grace": 0})
    _play_turn(fsessions, fdb, game.id, ann)  # Bob's turn now
    vacations.start(fdb, ann, fake.now(), ALLOW, until=date(2026, 3, 7))  # 5 days
    assert lobby.get_game(fdb, game.id).clock["seat"] == 1  # Bob's clock runs as before
    assert _deadline(fdb, game.id) == T0 + timedelta(seconds=3600)
    fake.advance(600)
    _play_turn(fsessions, fdb, game.id, bob)  # Ann's turn begins while she is away
    back = T0 + timedelta(days=5)
    assert _deadline(fdb, game.id) == back + timedelta(seconds=3600)
    fake.advance(DAY + 3600)  # she comes back early: 1 day and a bit count as 2 days
    out = vacations.end(fdb, ann, fake.now(), ALLOW)
    assert out["active"] is None and out["used_days"] == 2 and out["left_days"] == 8
    assert _deadline(fdb, game.id) == fake.now() + timedelta(seconds=3600)
    assert games.game_state(fdb, game.id, ann.id)["clock"]["vacation_until"] == [None, None]


def test_a_game_started_during_a_vacation_waits_for_the_player(
    fdb: Session, fake: FakeClock
) -> None:
    ann, bob = _account(fdb, "Ann"), _account(fdb, "Bob")
    vacations.start(fdb, ann, fake.now(), ALLOW, days=2)
    game = _daily(fdb, [ann, bob], {"mode": "daily", "per_turn": 600})
    assert _deadline(fdb, game.id) == T0 + timedelta(days=2, seconds=600)
    back = (T0 + timedelta(days=2)).isoformat()
    assert games.game_state(fdb, game.id, bob.id)["clock"]["vacation_until"] == [back, None]


def test_live_games_are_not_affected(
    fdb: Session, fsessions: sessionmaker[Session], fake: FakeClock
) -> None:
    ann, bob = _account(fdb, "Ann"), _account(fdb, "Bob")
    game = _daily(fdb, [ann, bob], {"mode": "live", "initial": 300, "per_turn": 0})
    before = lobby.get_game(fdb, game.id)
    clock, due = dict(before.clock), before.due_at
    vacations.start(fdb, ann, fake.now(), ALLOW, days=1)
    after = lobby.get_game(fdb, game.id)
    assert after.clock == clock and after.due_at == due
    assert "vacation_until" not in games.game_state(fdb, game.id, bob.id)["clock"]
    fake.advance(301)
    [claim] = _sweeper(fsessions).sweep()  # a live clock runs out as ever
    assert claim.game_id == game.id and claim.seat == 0


# --- the allowance and bad input ---------------------------------------------------------------


def test_the_allowance_runs_out_and_is_refused_clearly(fdb: Session, fake: FakeClock) -> None:
    ann = _account(fdb, "Ann")
    vacations.start(fdb, ann, fake.now(), ALLOW, days=7)
    with pytest.raises(ServiceError) as err:
        vacations.start(fdb, ann, fake.now(), ALLOW, days=1)
    assert err.value.code == "vacation_active"  # no overlapping vacations
    fake.advance(7 * DAY)  # over
    assert vacations.status(fdb, ann, fake.now(), ALLOW)["active"] is None
    with pytest.raises(ServiceError) as err:
        vacations.start(fdb, ann, fake.now(), ALLOW, days=4)
    assert err.value.code == "vacation_too_long" and "3" in err.value.message
    assert vacations.status(fdb, ann, fake.now(), ALLOW)["used_days"] == 7  # nothing stored
    vacations.start(fdb, ann, fake.now(), ALLOW, days=3)
    fake.advance(3 * DAY)
    with pytest.raises(ServiceError) as err:
        vacations.start(fdb, ann, fake.now(), ALLOW, days=1)
    assert err.value.code == "vacation_too_long"
    # A new calendar year brings a new allowance.
    fake.advance((datetime(2027, 1, 1, tzinfo=UTC) - fake.now()).total_seconds())
    out = vacations.start(fdb, ann, fake.now(), ALLOW, days=10)
    assert out["year"] == 2027 and out["left_days"] == 0


@pytest.mark.parametrize(
    ("asked", "code"),
    [
        ({}, "invalid_vacation"),
        ({"days": 2, "until": date(2026, 3, 9)}, "invalid_vacation"),
        ({"days": 0}, "invalid_vacation"),
        ({"until": date(2026, 3, 2)}, "invalid_vacation"),  # today: not after it
        ({"until": date(2025, 12, 31)}, "invalid_vacation"),
        ({"days": 11}, "vacation_too_long"),
    ],
)
def test_bad_input_is_refused_and_stores_nothing(
    fdb: Session, fake: FakeClock, asked: dict[str, Any], code: str
) -> None:
    ann = _account(fdb, "Ann")
    with pytest.raises(ServiceError) as err:
        vacations.start(fdb, ann, fake.now(), ALLOW, **asked)
    assert err.value.code == code
    assert vacations.status(fdb, ann, fake.now(), ALLOW)["used_days"] == 0


def test_guests_have_no_vacation_and_nothing_to_end(fdb: Session, fake: FakeClock) -> None:
    guest = users.start_guest(fdb, "Gus", None, None)[0]
    with pytest.raises(ServiceError) as err:
        vacations.start(fdb, guest, fake.now(), ALLOW, days=1)
    assert err.value.code == "account_required"
    with pytest.raises(ServiceError) as err:
        vacations.end(fdb, _account(fdb, "Ann"), fake.now(), ALLOW)
    assert err.value.code == "no_vacation"


# --- the time bank -----------------------------------------------------------------------------


def test_the_time_bank_carries_unused_time_over_up_to_its_cap(
    fdb: Session, fsessions: sessionmaker[Session], fake: FakeClock
) -> None:
    ann, bob = _account(fdb, "Ann"), _account(fdb, "Bob")
    game = _daily(fdb, [ann, bob], {"mode": "daily", "per_turn": 100, "bank_cap": 150, "grace": 0})
    fake.advance(20)
    _play_turn(fsessions, fdb, game.id, ann)  # 80 s unused
    fake.advance(100)  # Bob uses all of his: nothing banked
    _play_turn(fsessions, fdb, game.id, bob)
    seen = games.game_state(fdb, game.id, bob.id)["clock"]
    assert seen["banks"] == [80.0, 0.0] and seen["remaining"] == [180.0, 100.0]
    assert seen["bank_cap"] == 150
    assert _deadline(fdb, game.id) == fake.now() + timedelta(seconds=180)  # her turn + her bank
    fake.advance(10)  # 170 s unused: the bank keeps 150
    _play_turn(fsessions, fdb, game.id, ann)
    fake.advance(1)
    _play_turn(fsessions, fdb, game.id, bob)
    assert games.game_state(fdb, game.id, ann.id)["clock"]["banks"] == [150.0, 99.0]
    fake.advance(200)  # a busy day: 200 s of her 250, the bank pays the rest
    assert _sweeper(fsessions).sweep() == []
    _play_turn(fsessions, fdb, game.id, ann)
    assert games.game_state(fdb, game.id, ann.id)["clock"]["banks"] == [50.0, 99.0]


def test_the_bank_never_keeps_time_a_vacation_froze() -> None:
    clock = clocks.new_clock({"mode": "daily", "per_turn": 100, "bank_cap": 10**5}, 10**6)
    state = _State(1, 0)
    c, _ = clocks.start(clock, 2, state, T0, {0: T0 + timedelta(days=1)})
    assert c is not None and c["deadline"] == (T0 + timedelta(days=1, seconds=100)).isoformat()
    game = _Game(c)
    # She moves while still away, an hour before she is back: the 100 s of her turn, no more.
    plan = clocks.plan_move(game, state, _State(2, 1), 0, T0 + timedelta(hours=23))
    assert plan.values["clock"]["banks"] == [100.0, 0.0]


class _State:
    def __init__(self, turn: int, seat: int) -> None:
        self.turn = type("Turn", (), {"number": turn, "seat": seat})()
        self.over = False


class _Game:
    def __init__(self, clock: dict[str, Any]) -> None:
        self.clock = clock
        self.seats = [type("Seat", (), {"bot_level": None, "user_id": i + 1})() for i in range(2)]


def test_grace_and_bank_have_bounds() -> None:
    rules_ = clocks.DailyRules(grace=60, grace_max=600, bank_cap=30, bank_cap_max=300)
    made = clocks.new_clock({"mode": "daily", "per_turn": 100}, 10**6, None, rules_)
    assert made is not None and (made["grace"], made["bank_cap"]) == (60, 30)
    for bad in ({"grace": 601}, {"bank_cap": 301}, {"grace": -1}, {"bank_cap": 1.5}):
        with pytest.raises(ServiceError) as err:
            clocks.new_clock({"mode": "daily", "per_turn": 100, **bad}, 10**6, None, rules_)
        assert err.value.code == "invalid_options"
    with pytest.raises(ServiceError) as err:
        clocks.new_clock({"mode": "live", "initial": 9, "per_turn": 0, "grace": 5}, 10**6)
    assert err.value.code == "invalid_options"


# --- a bot after the grace, and the seat taken back --------------------------------------------


async def test_a_missed_daily_turn_seats_a_bot_after_the_grace_and_the_player_takes_it_back(
    fdb: Session, fsessions: sessionmaker[Session], fake: FakeClock
) -> None:
    ann, bob = _account(fdb, "Ann"), _account(fdb, "Bob")
    game = _daily(fdb, [ann, bob], {"mode": "daily", "per_turn": 3600, "grace": 7200})
    sweeper = _sweeper(fsessions, timeouts_to_bot=5)
    fake.advance(3600 + 7199)  # the turn ran out; the grace has a second left
    assert sweeper.sweep() == []
    assert games.game_state(fdb, game.id, ann.id)["legal_actions"]  # still hers to play
    fake.advance(2)
    [claim] = sweeper.sweep()
    assert claim.keep, "after the grace the bot replaces her, not just for one turn"
    assert lobby.get_game(fdb, game.id).seats[0].bot_level == "random"
    await _bots_play_until_bob(fsessions, game.id)
    game = lobby.get_game(fdb, game.id)
    assert game.seats[0].bot_level == "random", "the bot keeps her seat after the turn"
    assert game.clock["timeouts"] == [1, 0] and game.to_act == 1
    seats.take_seat_back(fdb, game.id, ann)  # the one road back: reclaim, as for any bot seat
    game = lobby.get_game(fdb, game.id)
    assert game.seats[0].bot_level is None
    fake.advance(60)
    _play_turn(fsessions, fdb, game.id, bob)
    _play_turn(fsessions, fdb, game.id, ann)  # she plays her seat again, by the road
    assert lobby.get_game(fdb, game.id).clock["timeouts"] == [0, 0]


async def _bots_play_until_bob(sessions: sessionmaker[Session], game_id: int) -> None:
    runner = BotRunner(road_for(sessions, Notifier()), delay_s=0, sweep_s=0)
    await runner.start()  # its first sweep finds the seat the timeout gave to a bot
    try:
        limit = time.monotonic() + 30
        while True:
            with sessions() as db:
                if lobby.get_game(db, game_id).to_act == 1:
                    break
            assert time.monotonic() < limit, "the bot did not play the missed turn"
            await anyio.sleep(0.02)
        assert await runner.idle()
    finally:
        await runner.stop()


def test_a_rematch_keeps_the_tables_grace_and_bank_cap() -> None:
    """A rematch copies the clock's settings as they were (rematch.py, `summary`)."""
    made = clocks.new_clock({"mode": "daily", "per_turn": 600, "grace": 0, "bank_cap": 120}, 10**6)
    assert made is not None
    big = 10**9
    again = clocks.new_clock(clocks.summary(made), big, None, clocks.DailyRules(0, big, 0, big))
    assert again is not None and (again["grace"], again["bank_cap"]) == (0, 120)

"""Turn clocks: banks and deadlines, timeouts played by a bot exactly once, hand-over."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any

import anyio
import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

import app.engine as rules
from app.context import road_for
from app.db.models.accounts import User
from app.db.models.games import Game, Move
from app.services.botseats.runner import BotRunner
from app.services.play import games
from app.services.play.deadlines import DeadlineSweeper, claim_timeout
from app.services.tables import clocks, lobby, seats
from app.shared.errors import ServiceError
from app.shared.notify import Notifier
from tests.moves import play

pytestmark = pytest.mark.anyio
MakeUser = Callable[[str], User]
T0 = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


@pytest.fixture
def anyio_backend() -> str:
    """The server's loop is asyncio."""
    return "asyncio"


def _state(turn: int, seat: int, over: bool = False) -> Any:
    return SimpleNamespace(turn=SimpleNamespace(number=turn, seat=seat), over=over)


def _game(
    clock: dict[str, Any] | None,
    bots: tuple[str | None, ...] = (None, None),
    owners: tuple[int | None, ...] | None = None,
) -> Any:
    owners = owners if owners is not None else tuple(range(1, len(bots) + 1))
    seats_ = [SimpleNamespace(bot_level=b, user_id=u) for b, u in zip(bots, owners, strict=True)]
    return SimpleNamespace(clock=clock, seats=seats_)


def test_a_live_clock_adds_the_bonus_each_turn_and_keeps_what_is_left() -> None:
    clock = clocks.new_clock({"mode": "live", "initial": 60, "per_turn": 5}, 3600)
    clock, due = clocks.start(clock, 2, _state(1, 0), T0)
    assert clock is not None and clock["banks"] == [65.0, 60.0]
    assert due == T0 + timedelta(seconds=65)
    # Seat 0 takes 20 s over its turn (placement, mission, draw: one turn, one running clock).
    mid = clocks.plan_move(_game(clock), _state(1, 0), _state(1, 0), 0, T0 + timedelta(seconds=10))
    assert mid.values == {} and mid.turn_seat is None
    end = clocks.plan_move(_game(clock), _state(1, 0), _state(2, 1), 0, T0 + timedelta(seconds=20))
    c = end.values["clock"]
    assert c["banks"] == [45.0, 65.0] and c["seat"] == 1 and c["turn"] == 2
    assert end.values["due_at"] == T0 + timedelta(seconds=20 + 65)
    assert end.turn_seat == 1 and end.turn == 2 and not end.timeout
    view = clocks.public(c)
    assert view["remaining"] == [45.0, 65.0] and view["timeouts"] == [0, 0]
    assert view["deadline"] == (T0 + timedelta(seconds=85)).isoformat()


def test_a_daily_clock_gives_every_turn_the_same_time_and_stops_at_the_end() -> None:
    clock, due = clocks.start(
        clocks.new_clock({"mode": "daily", "per_turn": 86400}, 10**6), 3, _state(1, 2), T0
    )
    assert due == T0 + timedelta(days=1)
    end = clocks.plan_move(_game(clock, (None,) * 3), _state(7, 2), _state(7, 2, over=True), 2, T0)
    assert end.values["due_at"] is None and end.values["clock"]["seat"] is None
    assert end.turn_seat is None
    assert clocks.public(end.values["clock"])["remaining"] == [86400.0] * 3


@pytest.mark.parametrize(
    "spec",
    [
        {"mode": "live", "initial": 0, "per_turn": 5},
        {"mode": "live", "per_turn": 5},
        {"mode": "daily", "per_turn": 0},
        {"mode": "daily", "per_turn": 10**9},
        {"mode": "daily", "per_turn": 1.5},
        {"mode": "blitz"},
    ],
)
def test_a_clock_the_server_does_not_offer_is_refused(spec: dict[str, Any]) -> None:
    with pytest.raises(ServiceError) as err:
        clocks.new_clock(spec, 30 * 86400)
    assert err.value.code == "invalid_options"


def test_no_clock_means_no_deadline_and_the_game_as_before(
    db: Session, make_user: MakeUser
) -> None:
    host, guest = make_user("A"), make_user("B")
    game = lobby.create_game(db, host, 2, clock={"mode": "none"})
    lobby.join_game(db, game.id, guest)
    game = lobby.start_game(db, game.id, host)
    assert game.clock is None and game.due_at is None
    _play_turn(db, game.id, (host, guest))
    game = lobby.get_game(db, game.id)
    assert game.clock is None and game.due_at is None
    assert games.game_state(db, game.id, host.id)["clock"] == {"mode": "none"}


# --- timeouts ----------------------------------------------------------------------------------


def _clock_game(db: Session, make_user: MakeUser, per_turn: int = 60) -> tuple[Game, list[User]]:
    players = [make_user("Ann"), make_user("Bob")]
    game = lobby.create_game(
        db,
        players[0],
        2,
        extra_options={"first_player": 0},
        clock={"mode": "daily", "per_turn": per_turn},
    )
    lobby.join_game(db, game.id, players[1])
    return lobby.start_game(db, game.id, players[0]), players


def _play_turn(db: Session, game_id: int, players: tuple[User, ...] | list[User]) -> None:
    """The seat to act plays first-legal decisions until the turn passes on."""
    game = lobby.get_game(db, game_id)
    seat, turn = game.to_act, games.load_state(db, game).turn.number
    assert seat is not None
    while True:
        game = lobby.get_game(db, game_id)
        state = games.load_state(db, game)
        if state.turn.number != turn or game.status != "live":
            return
        action = rules.legal_actions(state, seat)[0]
        play(db, game_id, players[seat].id, game.version, action)


async def _bots_finish_turn(sessions: sessionmaker[Session], game_id: int, turn: int) -> None:
    runner = BotRunner(road_for(sessions, Notifier()), delay_s=0, sweep_s=0)
    await runner.start()  # its first sweep finds the seat the timeout gave to a bot
    try:
        deadline = time.monotonic() + 30
        while True:
            with sessions() as db:
                game = lobby.get_game(db, game_id)
                if game.status != "live" or games.load_state(db, game).turn.number > turn:
                    break
            assert time.monotonic() < deadline, "the bot did not finish the timed-out turn"
            await anyio.sleep(0.02)
        assert await runner.idle()
    finally:
        await runner.stop()


async def test_a_timeout_lets_a_bot_play_the_turn_once_and_two_in_a_row_keep_it(
    db: Session, sessions: sessionmaker[Session], make_user: MakeUser
) -> None:
    game, players = _clock_game(db, make_user)
    sweeper = DeadlineSweeper(sessions, Notifier(), bot_level="greedy", timeouts_to_bot=2)
    assert sweeper.sweep(utcnow_plus(30)) == []  # not due yet
    [claim] = sweeper.sweep(utcnow_plus(61))
    assert (claim.game_id, claim.seat, claim.turn, claim.keep) == (game.id, 0, 1, False)
    assert sweeper.sweep(utcnow_plus(120)) == []  # acted on once; a bot holds the seat now
    game = lobby.get_game(db, game.id)
    assert game.due_at is None and game.seats[0].bot_level == "greedy"
    # While the bot plays the turn, its owner watches: no legal actions, actions refused.
    assert games.game_state(db, game.id, players[0].id)["legal_actions"] == []
    await _bots_finish_turn(sessions, game.id, 1)
    game = lobby.get_game(db, game.id)
    assert game.seats[0].bot_level is None, "the bot only borrowed the seat for one turn"
    assert game.clock["timeouts"] == [1, 0] and game.to_act == 1
    moves = list(db.scalars(select(Move).where(Move.game_id == game.id).order_by(Move.seq)))
    assert moves and all(m.timeout and m.seat == 0 for m in moves)
    log = games.game_log(db, game.id, players[1].id)
    assert all(e["timeout"] and "ran out of time" in e["note"] for e in log["moves"])

    _play_turn(db, game.id, players)  # Bob plays in time: no timeout for him
    [second] = sweeper.sweep(utcnow_plus(61))
    assert second.keep and second.turn == 3
    await _bots_finish_turn(sessions, game.id, 3)
    game = lobby.get_game(db, game.id)
    assert game.clock["timeouts"] == [2, 0]
    assert game.seats[0].bot_level == "greedy", "two timeouts in a row: the bot keeps the seat"
    seats.take_seat_back(db, game.id, players[0])
    assert lobby.get_game(db, game.id).seats[0].bot_level is None


async def test_taking_the_seat_back_during_a_turn_that_ran_out_returns_it_when_the_turn_ends(
    db: Session, sessions: sessionmaker[Session], make_user: MakeUser
) -> None:
    """A turn whose time is spent has none to give: the bot finishes it, and the reclaim takes
    effect at its end, even on the second timeout in a row (which would keep the seat)."""
    game, players = _clock_game(db, make_user)
    sweeper = DeadlineSweeper(sessions, Notifier(), bot_level="greedy", timeouts_to_bot=1)
    [claim] = sweeper.sweep(utcnow_plus(61))
    assert claim.keep  # one timeout is enough to keep the seat here
    seats.take_seat_back(db, game.id, players[0])
    game = lobby.get_game(db, game.id)
    assert game.seats[0].bot_level == "greedy", "the bot still finishes the timed-out turn"
    assert game.clock["autoplay"] == {"turn": 1, "seat": 0, "keep": False}
    assert game.due_at is None
    await _bots_finish_turn(sessions, game.id, 1)
    game = lobby.get_game(db, game.id)
    assert game.seats[0].bot_level is None, "the seat came back when the turn ended"
    assert game.to_act == 1 and game.due_at is not None  # Bob's turn runs on his clock


def utcnow_plus(seconds: float) -> datetime:
    """A moment `seconds` from now (sweeps take the time they act at)."""
    return datetime.now(UTC) + timedelta(seconds=seconds)


def test_a_move_in_time_resets_the_count_and_moves_the_deadline(
    db: Session, make_user: MakeUser
) -> None:
    game, players = _clock_game(db, make_user, per_turn=60)
    first_due = game.due_at
    _play_turn(db, game.id, players)
    game = lobby.get_game(db, game.id)
    assert game.due_at is not None and first_due is not None and game.due_at >= first_due
    assert game.clock["seat"] == 1 and game.clock["turn"] == 2
    assert not any(m.timeout for m in db.scalars(select(Move).where(Move.game_id == game.id)))


def test_two_sweepers_racing_claim_a_timeout_exactly_once(
    db: Session, sessions: sessionmaker[Session], make_user: MakeUser
) -> None:
    games_ = [_clock_game(db, make_user)[0] for _ in range(3)]
    later = utcnow_plus(61)
    results: list[list[Any]] = []
    barrier = threading.Barrier(4)

    def run() -> None:
        sweeper = DeadlineSweeper(sessions, Notifier())
        barrier.wait()
        results.append(sweeper.sweep(later))

    threads = [threading.Thread(target=run) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    claimed = sorted(c.game_id for r in results for c in r)
    assert claimed == sorted(g.id for g in games_)


def test_a_claim_skips_a_seat_played_by_a_bot(
    db: Session, sessions: sessionmaker[Session], make_user: MakeUser
) -> None:
    game, players = _clock_game(db, make_user)
    seats.hand_seat_to_bot(db, game.id, players[0], "random")
    with sessions() as s:
        assert claim_timeout(s, utcnow_plus(61), "greedy", 2, set()) is None


def test_a_timed_out_live_turn_empties_the_bank_and_counts_once() -> None:
    clock, _ = clocks.start(
        clocks.new_clock({"mode": "live", "initial": 10, "per_turn": 2}, 3600), 2, _state(1, 0), T0
    )
    assert clock is not None
    clock["autoplay"] = {"turn": 1, "seat": 0, "keep": False}  # as the deadline sweep marks it
    game = _game(clock, ("greedy", None))  # the bot holds the seat for the rest of the turn
    mid = clocks.plan_move(game, _state(1, 0), _state(1, 0), 0, T0 + timedelta(seconds=13))
    assert mid.timeout and mid.values == {}
    end = clocks.plan_move(game, _state(1, 0), _state(2, 1), 0, T0 + timedelta(seconds=14))
    c = end.values["clock"]
    assert end.timeout and end.release == 0
    assert c["banks"] == [0.0, 12.0] and c["timeouts"] == [1, 0] and c["autoplay"] is None
    # A move by a person in that turn (they took the seat back) is not a timeout move.
    person = clocks.plan_move(_game(clock), _state(1, 0), _state(1, 0), 0, T0)
    assert not person.timeout


# --- handing one's own seat to a bot does not stop the clock -----------------------------------


def test_a_stand_in_bot_moving_after_the_deadline_times_the_turn_out() -> None:
    """The rule (docs/api.md, "Turn clocks"): the owner's stand-in is held to the deadline."""
    clock, _ = clocks.start(
        clocks.new_clock({"mode": "daily", "per_turn": 60}, 3600), 2, _state(1, 0), T0
    )
    stand_in = _game(clock, ("greedy", None))  # the owner (user 1) handed seat 0 to a bot
    early = clocks.plan_move(stand_in, _state(1, 0), _state(2, 1), 0, T0 + timedelta(seconds=59))
    assert not early.timeout and early.values["clock"]["timeouts"] == [0, 0]
    mid = clocks.plan_move(stand_in, _state(1, 0), _state(1, 0), 0, T0 + timedelta(seconds=60.4))
    assert mid.timeout and mid.values == {}
    late = clocks.plan_move(stand_in, _state(1, 0), _state(2, 1), 0, T0 + timedelta(seconds=61))
    assert late.timeout and late.values["clock"]["timeouts"] == [1, 0]
    assert late.release is None, "the owner chose the bot: it keeps the seat"
    assert late.turn_seat == 1 and late.values["clock"]["seat"] == 1
    # A bot's own seat has no owner to hold to a clock; a person's late move is the sweep's.
    own = _game(clock, ("greedy", None), owners=(None, 2))
    assert not clocks.plan_move(
        own, _state(1, 0), _state(2, 1), 0, T0 + timedelta(seconds=61)
    ).timeout
    person = clocks.plan_move(
        _game(clock), _state(1, 0), _state(1, 0), 0, T0 + timedelta(seconds=61)
    )
    assert not person.timeout


async def test_handing_the_seat_to_a_bot_just_before_the_deadline_sidesteps_nothing(
    db: Session, sessions: sessionmaker[Session], make_user: MakeUser
) -> None:
    """The report: a hand-over 0.4 s before the deadline left `timeouts` at [0, 0] and marked
    no timed-out move."""
    game, players = _clock_game(db, make_user, per_turn=1)
    seats.hand_seat_to_bot(db, game.id, players[0], "random")
    deadline = datetime.fromisoformat(lobby.get_game(db, game.id).clock["deadline"])
    limit = time.monotonic() + 30
    while datetime.now(UTC) <= deadline:  # the turn's time passes while the bot holds it
        assert time.monotonic() < limit
        await anyio.sleep(0.05)
    await _bots_finish_turn(sessions, game.id, 1)
    game = lobby.get_game(db, game.id)
    assert game.clock["timeouts"] == [1, 0]
    assert game.seats[0].bot_level == "random", "the owner's chosen bot keeps the seat"
    turn1 = list(db.scalars(select(Move).where(Move.game_id == game.id, Move.seat == 0)))
    assert turn1 and all(m.timeout for m in turn1)
    log = games.game_log(db, game.id, players[1].id)
    assert all(e.get("timeout") for e in log["moves"] if e["seat"] == 0)


async def test_a_stand_in_bot_in_time_is_no_timeout(
    db: Session, sessions: sessionmaker[Session], make_user: MakeUser
) -> None:
    game, players = _clock_game(db, make_user, per_turn=3600)
    seats.hand_seat_to_bot(db, game.id, players[0], "random")
    await _bots_finish_turn(sessions, game.id, 1)
    game = lobby.get_game(db, game.id)
    assert game.clock["timeouts"] == [0, 0] and game.to_act == 1
    assert not any(m.timeout for m in db.scalars(select(Move).where(Move.game_id == game.id)))

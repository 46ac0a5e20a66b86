"""Turn clocks: what a clock is, when it runs, and what a move does to it.

A *turn* is everything one seat does from the moment the turn passes to it (the engine's
`turn_started`, or the game's start for the first turn) until it passes on (`turn_ended`) or the
game ends: the placement or pass, the Mission after it, every pending choice (Reefs, Treasures)
and the draw. Turns are told apart by the engine's turn number, not by the seat (a seat plays two
turns in a row when the others have no heads left). The clock of the seat to act runs for the
whole turn, in wall time, from the commit that started the turn to the commit that ends it;
every other seat's clock stands still. A bot holding the seat spends the seat's time like anyone.
A bot its owner handed the seat to is held to the turn's deadline too: its moves after the
deadline are marked `timeout`, and the turn counts as a timed-out turn (the bot keeps the seat,
its owner's choice): handing the seat over just before the deadline sidesteps nothing.

- `live`: every seat has a bank of `initial` seconds; each of its turns adds `per_turn` to the
  bank when it starts, and runs out when the bank is empty; what is left is kept.
- `daily`: every turn has `per_turn` seconds plus the seat's time bank: what a turn leaves
  unused (its deadline minus the moment it ends) is the seat's bank for its next turn, at most
  `bank_cap` seconds (0: no bank). A daily turn whose deadline passes is the player's still for
  `grace` more seconds (`due_at` = deadline + grace); then the deadline sweep seats a bot, which
  keeps the seat (grace > 0) until its owner takes it back (seats.take_seat_back).
  Vacations (app/services/tables/vacations.py) stop a daily clock: `away[seat]` is when the
  seat's owner is back; a turn of theirs that runs meanwhile has its deadline pushed by the
  vacation, and a turn that begins meanwhile starts counting when they are back. Their bank
  never gains the frozen time.
- `none`: no clock, no deadlines: the game is exactly as before clocks existed.

A live or daily clock may carry an `extension` (seconds, 0 for none): the person whose turn it
is may ask for that much more time once per turn (clock_extension.py, WCAG 2.2.1), while the
turn's time has not run out. It moves the deadline (and `due_at`) on; a live bank keeps none of
it: at the end of the turn the bank is what was left minus the extension granted, never below
zero.

The stored clock (`games.clock`) changes only in the transaction of a move (and of the start),
so a game version names one clock, as it names one state; the one exception is an extension,
which moves the running turn's deadline on without a move (the version stays). When a person's
turn runs out the deadline sweep (deadlines.py) lets a bot play the rest of it; its moves are
marked `timeout`; after `timeouts_to_bot` timed-out turns in a row the bot keeps the seat until
its owner takes it back.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import update
from sqlalchemy.orm import Session

import app.engine as rules
from app.db.models.games import Game, Seat
from app.i18n import t_
from app.infra.turn_notices import enqueue_turn
from app.shared.errors import ServiceError

MODES = ("none", "live", "daily")
Clock = dict[str, Any]


@dataclass(frozen=True)
class DailyRules:
    """The server's defaults and bounds for a daily table's options (settings `CLOCK_DAILY_*`)."""

    grace: int = 0  # default seconds after a missed deadline before a bot takes the seat
    grace_max: int = 7 * 86400
    bank_cap: int = 0  # default most seconds a seat's time bank holds
    bank_cap_max: int = 7 * 86400

    @classmethod
    def of(cls, settings: Any) -> DailyRules:
        """From the `SEADRAGONS_CLOCK_DAILY_*` settings."""
        return cls(
            settings.clock_daily_grace_seconds,
            settings.clock_daily_max_grace_seconds,
            settings.clock_daily_bank_cap_seconds,
            settings.clock_daily_max_bank_cap_seconds,
        )


def new_clock(
    spec: dict[str, Any] | None,
    max_seconds: int,
    max_extension: int | None = None,
    daily: DailyRules | None = None,
) -> Clock | None:
    """The stored clock of a new table from `{"mode", "initial", "per_turn", "extension"?,
    "grace"?, "bank_cap"?}` (the last two: daily only; defaults from `daily`); None for none.
    `max_extension`: the most extra time a turn may be given (default `max_seconds`).

    Raises `invalid_options` for a mode or a time the server does not offer.
    """
    spec = spec or {"mode": "none"}
    mode = spec.get("mode", "none")
    if mode not in MODES:
        raise ServiceError(
            "invalid_options", t_("clock mode is one of {modes}", modes=", ".join(MODES))
        )
    if mode == "none":
        return None
    per_turn = _seconds(spec.get("per_turn"), "per_turn", 0 if mode == "live" else 1, max_seconds)
    clock: Clock = {"mode": mode, "per_turn": per_turn}
    if mode == "live":
        clock["initial"] = _seconds(spec.get("initial"), "initial", 1, max_seconds)
    top = max_seconds if max_extension is None else max_extension
    clock["extension"] = _seconds(spec.get("extension", 0), "extension", 0, top)
    clock["extended"] = None  # the turn whose player asked for the extension
    if mode == "daily":
        rules_ = daily or DailyRules()
        grace = spec.get("grace", rules_.grace)
        clock["grace"] = _seconds(grace, "grace", 0, rules_.grace_max)
        cap = spec.get("bank_cap", rules_.bank_cap)
        clock["bank_cap"] = _seconds(cap, "bank_cap", 0, rules_.bank_cap_max)
        clock["away"] = {}
    elif "grace" in spec or "bank_cap" in spec:
        raise ServiceError("invalid_options", t_("only a daily clock has a grace and a time bank"))
    clock.update(turn=None, seat=None, started_at=None, deadline=None, banks=None, timeouts=None)
    clock["autoplay"] = None
    return clock


def _seconds(value: Any, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ServiceError(
            "invalid_options",
            t_(
                "clock {name} is a whole number of seconds from {low} to {high}",
                name=name,
                low=low,
                high=high,
            ),
        )
    return value


def start(
    clock: Clock | None,
    players: int,
    state: Any,
    now: datetime,
    away: dict[int, datetime] | None = None,
) -> tuple[Clock | None, Any]:
    """The clock and due time once the game is dealt: the first turn's clock starts now.

    `away`: seat -> end of its owner's vacation, for the seats whose owner is away now (daily).
    """
    if clock is None:
        return None, None
    c = copy.deepcopy(clock)
    c["banks"] = [float(c["initial"])] * players if c["mode"] == "live" else [0.0] * players
    c["timeouts"] = [0] * players
    if c["mode"] == "daily":
        c["away"] = {str(s): until.isoformat() for s, until in (away or {}).items() if until > now}
    return c, _begin_turn(c, rules.to_act(state), state.turn.number, now)


def away_until(c: Clock, seat: int, now: datetime) -> datetime | None:
    """When `seat`'s owner is back from a vacation running at `now` (daily clocks only)."""
    if c.get("mode") != "daily":
        return None
    until = (c.get("away") or {}).get(str(seat))
    if until is None:
        return None
    back = datetime.fromisoformat(until)
    return back if back > now else None


def _daily_bank(c: Clock, seat: int) -> float:
    banks = c.get("banks")
    return float(banks[seat]) if banks else 0.0


def due_of(c: Clock, deadline: datetime) -> datetime:
    """When the deadline sweep acts on a turn with `deadline`: after a daily table's grace."""
    return deadline + timedelta(seconds=c.get("grace", 0) if c["mode"] == "daily" else 0)


def _begin_turn(c: Clock, seat: int, turn: int, now: datetime) -> datetime:
    """Start `seat`'s clock for `turn`; returns when the sweep may act on it (`due_at`)."""
    starts = now
    if c["mode"] == "live":
        c["banks"][seat] = round(c["banks"][seat] + c["per_turn"], 3)
        allowed = c["banks"][seat]
    else:
        allowed = c["per_turn"] + _daily_bank(c, seat)
        # A turn that begins during its player's vacation starts counting when they are back.
        starts = away_until(c, seat, now) or now
        c["away"] = {k: v for k, v in (c.get("away") or {}).items() if _fresh(v, now)}
    deadline = starts + timedelta(seconds=allowed)
    c.update(turn=turn, seat=seat, started_at=now.isoformat(), deadline=deadline.isoformat())
    return due_of(c, deadline)


def _fresh(until: str, now: datetime) -> bool:
    return datetime.fromisoformat(until) > now


def _end_turn(c: Clock, now: datetime, late: bool = False) -> dict[str, Any] | None:
    """Stop the running clock; returns the timeout mark if the ended turn had run out.

    `late`: the turn ran out while a bot the owner chose played it (see `_late_stand_in`): it
    counts as timed out too, but the bot, the owner's choice, keeps the seat.
    """
    seat = c["seat"]
    if seat is None:
        return None
    if c["mode"] == "live":
        left = (datetime.fromisoformat(c["deadline"]) - now).total_seconds()
        # Extra time asked for this turn was for this turn: none of it goes to the bank.
        if c.get("extended") is not None and c["extended"] == c["turn"]:
            left -= c.get("extension", 0)
        c["banks"][seat] = round(max(0.0, left), 3)
    elif c.get("banks") is not None:
        # Daily: what is left carries over, up to the cap; never the time a vacation froze,
        # nor extra time asked for this turn.
        left = (datetime.fromisoformat(c["deadline"]) - now).total_seconds()
        back = away_until(c, seat, now)
        if back is not None:
            left -= (back - now).total_seconds()
        if c.get("extended") is not None and c["extended"] == c["turn"]:
            left -= c.get("extension", 0)
        c["banks"][seat] = round(min(float(c.get("bank_cap", 0)), max(0.0, left)), 3)
    auto = c.get("autoplay")
    timed_out = auto is not None and auto["turn"] == c["turn"] and auto["seat"] == seat
    c["timeouts"][seat] = c["timeouts"][seat] + 1 if timed_out or late else 0
    c["autoplay"] = None
    if timed_out:
        return auto
    return {"turn": c["turn"], "seat": seat, "keep": True} if late else None


def _late_stand_in(c: Clock | None, game: Game, seat: int, turn: int, now: datetime) -> bool:
    """A bot its owner handed the seat to is moving in that seat's turn after its deadline.

    Handing one's seat to a bot does not stop the clock: the deadline sweep never claims a turn
    a bot plays, so without this a hand-over just before the deadline would leave no trace.
    """
    if c is None or c.get("deadline") is None or c.get("seat") != seat or c.get("turn") != turn:
        return False
    row = game.seats[seat]
    if row.bot_level is None or row.user_id is None:
        return False  # a person plays it, or a bot's own seat (no owner to hold to a clock)
    return now > datetime.fromisoformat(c["deadline"])


@dataclass(frozen=True)
class MovePlan:
    """What a move does beyond the engine: clock columns, the timeout mark, seat and notice."""

    values: dict[str, Any]  # for the game's UPDATE (empty: the clock did not change)
    timeout: bool  # a bot made this move in a turn that ran out
    release: int | None  # the seat a bot only borrowed for a timed-out turn: back to its owner
    turn_seat: int | None  # the seat whose turn this move started (None: same turn, or the end)
    turn: int | None


def plan_move(game: Game, old: Any, new: Any, seat: int, now: datetime) -> MovePlan:
    """The clock's part of a move by `seat` from state `old` to `new` (pure; nothing written)."""
    c = copy.deepcopy(game.clock) if game.clock is not None else None
    auto = c.get("autoplay") if c is not None else None
    late = _late_stand_in(c, game, seat, old.turn.number, now)
    timeout = late or (
        auto is not None
        and auto["turn"] == old.turn.number
        and auto["seat"] == seat
        and game.seats[seat].bot_level is not None
    )
    over = rules.is_over(new)
    if not over and new.turn.number == old.turn.number:
        return MovePlan({}, timeout, None, None, None)
    release = None
    values: dict[str, Any] = {}
    if c is not None and c.get("timeouts") is not None:  # None: a clock that never started
        ended = _end_turn(c, now, late)
        if ended is not None and not ended.get("keep"):
            release = ended["seat"]
        due = None
        if over:
            c.update(seat=None, started_at=None, deadline=None)
        else:
            due = _begin_turn(c, rules.to_act(new), new.turn.number, now)
        values = {"clock": c, "due_at": due}
    next_seat = None if over else rules.to_act(new)
    return MovePlan(values, timeout, release, next_seat, None if over else new.turn.number)


def record(db: Session, game: Game, plan: MovePlan) -> None:
    """Write the plan's side effects in the move's transaction (after its version check)."""
    if plan.release is not None:
        # The bot only stood in for the timed-out turn: the owner plays the next one.
        db.execute(
            update(Seat)
            .where(Seat.game_id == game.id, Seat.seat == plan.release, Seat.bot_level.is_not(None))
            .values(bot_level=None)
            .execution_options(synchronize_session=False)
        )
    if plan.turn_seat is not None and plan.turn is not None:
        enqueue_turn(db, game, plan.turn_seat, plan.turn, freed=plan.release == plan.turn_seat)


def public(clock: Clock | None, now: datetime | None = None) -> dict[str, Any]:
    """The clock as everyone sees it (the same for every viewer: nothing here is secret).

    `remaining[i]`: seat i's time as of `started_at` (live: its bank, the running seat's with this
    turn's bonus; daily: `per_turn` plus its bank); the running seat's time now is `deadline` -
    now. Daily also: `grace`, `bank_cap`, `banks[i]` (seat i's time bank, seconds) and
    `vacation_until[i]` (when seat i's owner is back from a vacation, or null; with `now`,
    vacations already over are left out).
    """
    if clock is None:
        return {"mode": "none"}
    out: dict[str, Any] = {"mode": clock["mode"], "per_turn": clock["per_turn"]}
    if clock["mode"] == "live":
        out["initial"] = clock["initial"]
    # Extra time on request: the seconds offered once per turn, and the turn that used them.
    out["extension"] = clock.get("extension", 0)
    out["extended"] = clock.get("extended")
    timeouts = clock.get("timeouts")
    remaining = None
    if timeouts is not None:
        remaining = (
            list(clock["banks"])
            if clock["mode"] == "live"
            else [float(clock["per_turn"]) + _daily_bank(clock, i) for i in range(len(timeouts))]
        )
    if clock["mode"] == "daily":
        away = clock.get("away") or {}
        seats = len(timeouts) if timeouts is not None else 0
        out.update(
            grace=clock.get("grace", 0),
            bank_cap=clock.get("bank_cap", 0),
            banks=[_daily_bank(clock, i) for i in range(seats)] if timeouts is not None else None,
            vacation_until=[
                until if until is not None and (now is None or _fresh(until, now)) else None
                for until in (away.get(str(i)) for i in range(seats))
            ]
            if timeouts is not None
            else None,
        )
    out.update(
        turn=clock.get("turn"),
        seat=clock.get("seat"),
        started_at=clock.get("started_at"),
        deadline=clock.get("deadline"),
        remaining=remaining,
        timeouts=list(timeouts) if timeouts is not None else None,
    )
    return out


def summary(clock: Clock | None) -> dict[str, Any]:
    """The clock's settings alone, for lists: `{"mode", "initial"?, "per_turn"?, "grace"?,
    "bank_cap"?}`."""
    if clock is None:
        return {"mode": "none"}
    keep = ("mode", "initial", "per_turn", "grace", "bank_cap")
    out = {k: clock[k] for k in keep if k in clock}
    if clock.get("extension"):
        out["extension"] = clock["extension"]
    return out

"""Vacations: an account's days away, during which its daily clocks stand still.

The allowance is `days_per_year` whole days per calendar year (UTC); a vacation counts against
the year it starts in, whole days only. A vacation starts now and lasts a whole number of days
(given as days, or as the date one is back: the days from today to it); it may be ended early,
and then counts the days begun (at least one). One at a time: no vacation starts while one runs.

While one runs, each daily game of the account stands still for its seat (clocks.py, `away`):
the turn running now has its deadline (and `due_at`) pushed by the vacation's length, a turn that
begins meanwhile starts counting when the player is back, and ending early pulls the pushed
deadline back by the days not taken. So the deadline sweep never finds them due while away, and
they come back to exactly the time they had. Live games (mode `live`) are not affected.

Each game's clock is changed under its row lock (Postgres `FOR UPDATE`, as a move and an
extension take it), without a move: the version stays, as for an extension.
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session, selectinload

from app.db.models.accounts import User, Vacation
from app.db.models.games import Game, Seat
from app.i18n import t_
from app.services.tables import clocks
from app.shared.errors import ServiceError
from app.shared.notify import Notifier, notify

DAY = timedelta(days=1)
MAX_GAMES = 500  # live games one vacation stops (far above the caps on live games per player)


@dataclass(frozen=True)
class Allowance:
    """The vacation settings (`SEADRAGONS_VACATION_DAYS_PER_YEAR`)."""

    days_per_year: int = 30


def used_days(db: Session, user_id: int, year: int) -> int:
    """Days of vacation the account took (or is taking) that started in `year`."""
    total = db.scalar(
        select(func.coalesce(func.sum(Vacation.days), 0)).where(
            Vacation.user_id == user_id, Vacation.year == year
        )
    )
    return int(total or 0)


def running(db: Session, user_id: int, now: datetime) -> Vacation | None:
    """The account's vacation at `now`, if one runs."""
    return db.scalar(
        select(Vacation)
        .where(Vacation.user_id == user_id, Vacation.starts_at <= now, Vacation.ends_at > now)
        .order_by(Vacation.id.desc())
        .limit(1)
    )


def status(db: Session, user: User, now: datetime, allowance: Allowance) -> dict[str, Any]:
    """What the account page shows: the year's allowance, days used and left, the running one."""
    used = used_days(db, user.id, now.year)
    current = running(db, user.id, now)
    return {
        "year": now.year,
        "allowance_days": allowance.days_per_year,
        "used_days": used,
        "left_days": max(0, allowance.days_per_year - used),
        "active": None
        if current is None
        else {
            "starts_at": current.starts_at.isoformat(),
            "ends_at": current.ends_at.isoformat(),
            "days": current.days,
        },
    }


def away_of(db: Session, user_ids: list[int], now: datetime) -> dict[int, datetime]:
    """user id -> when they are back, for those among `user_ids` on vacation at `now`."""
    if not user_ids:
        return {}
    rows = db.execute(
        select(Vacation.user_id, Vacation.ends_at).where(
            Vacation.user_id.in_(user_ids), Vacation.starts_at <= now, Vacation.ends_at > now
        )
    )
    return {uid: ends for uid, ends in rows}


def _days_asked(days: int | None, until: date | None, now: datetime) -> int:
    if (days is None) == (until is None):
        raise ServiceError(
            "invalid_vacation", t_("give either the number of days or the date you are back")
        )
    if until is not None:
        days = (until - now.date()).days
        if days < 1:
            raise ServiceError("invalid_vacation", t_("the date you are back must be after today"))
    assert days is not None
    if isinstance(days, bool) or days < 1:
        raise ServiceError("invalid_vacation", t_("a vacation lasts one day or more"))
    return days


def start(
    db: Session,
    user: User,
    now: datetime,
    allowance: Allowance,
    *,
    days: int | None = None,
    until: date | None = None,
    notifier: Notifier | None = None,
) -> dict[str, Any]:
    """Start a vacation now for `days` whole days (or until the date `until`); commits.

    Refused: guests (`account_required`), bad days or date (`invalid_vacation`), one already
    running (`vacation_active`), longer than the days left this year (`vacation_too_long`).
    """
    if user.is_guest:
        raise ServiceError("account_required", t_("only an account has vacation days"))
    asked = _days_asked(days, until, now)
    # The account's row, locked: two requests at once cannot both start one (Postgres).
    db.scalar(select(User.id).where(User.id == user.id).with_for_update())
    if running(db, user.id, now) is not None:
        db.rollback()
        raise ServiceError("vacation_active", t_("a vacation of yours is running already"))
    left = allowance.days_per_year - used_days(db, user.id, now.year)
    if asked > left:
        db.rollback()
        raise ServiceError(
            "vacation_too_long",
            t_(
                "you have {left} vacation days left this year; {asked} asked",
                left=max(0, left),
                asked=asked,
            ),
        )
    ends = now + asked * DAY
    db.add(Vacation(user_id=user.id, starts_at=now, ends_at=ends, days=asked, year=now.year))
    db.flush()
    changed = _each_daily_game(db, user.id, lambda c, s: _mark_away(c, s, ends, now))
    db.commit()
    for game_id, version in changed:
        notify(notifier, game_id, version)
    return status(db, user, now, allowance)


def end(
    db: Session, user: User, now: datetime, allowance: Allowance, notifier: Notifier | None = None
) -> dict[str, Any]:
    """End the running vacation now; it counts the days begun. `no_vacation` if none runs."""
    db.scalar(select(User.id).where(User.id == user.id).with_for_update())
    current = running(db, user.id, now)
    if current is None:
        db.rollback()
        raise ServiceError("no_vacation", t_("you are not on vacation"))
    taken = max(1, math.ceil((now - current.starts_at) / DAY))
    current.days = min(current.days, taken)
    current.ends_at = now
    changed = _each_daily_game(db, user.id, lambda c, s: _mark_back(c, s, now))
    db.commit()
    for game_id, version in changed:
        notify(notifier, game_id, version)
    return status(db, user, now, allowance)


def _running_turn(c: dict[str, Any], seat: int) -> bool:
    """Whether `seat`'s turn runs on its clock now (not already handed to a bot by the sweep)."""
    auto = c.get("autoplay")
    handed = auto is not None and auto.get("turn") == c.get("turn")
    return c.get("seat") == seat and c.get("deadline") is not None and not handed


def _mark_away(c: dict[str, Any], seat: int, back: datetime, now: datetime) -> bool:
    """Mark `seat` away until `back`; its running turn's deadline moves on by the vacation."""
    c.setdefault("away", {})[str(seat)] = back.isoformat()
    if _running_turn(c, seat):
        c["deadline"] = (datetime.fromisoformat(c["deadline"]) + (back - now)).isoformat()
        return True
    return False


def _mark_back(c: dict[str, Any], seat: int, now: datetime) -> bool:
    """`seat` is back at `now`: the days its running turn was pushed by and not taken go."""
    until = (c.get("away") or {}).pop(str(seat), None)
    if until is None:
        return False
    back = datetime.fromisoformat(until)
    if back > now and _running_turn(c, seat):
        c["deadline"] = (datetime.fromisoformat(c["deadline"]) - (back - now)).isoformat()
        return True
    return False


def _each_daily_game(db: Session, user_id: int, change: Any) -> list[tuple[int, int]]:
    """Apply `change(clock, seat)` to the clock of each live daily game `user_id` holds a seat
    in, each under its row lock; returns (game id, version) of the games changed."""
    ids = db.scalars(
        select(Game.id)
        .join(Seat, Seat.game_id == Game.id)
        .where(Seat.user_id == user_id, Game.status == "live", Game.clock.is_not(None))
        .order_by(Game.id)
        .limit(MAX_GAMES)
    ).all()
    changed = []
    for game_id in ids:
        game = db.scalar(
            select(Game)
            .where(Game.id == game_id, Game.status == "live")
            .options(selectinload(Game.seats))
            .with_for_update(of=Game)
            .execution_options(populate_existing=True)
        )
        if game is None or game.clock is None or game.clock.get("mode") != "daily":
            continue
        seat = next((s.seat for s in game.seats if s.user_id == user_id), None)
        if seat is None or game.clock.get("timeouts") is None:
            continue
        c = copy.deepcopy(game.clock)
        moved = change(c, seat)
        values: dict[str, Any] = {"clock": c}
        if moved and game.due_at is not None:
            values["due_at"] = clocks.due_of(c, datetime.fromisoformat(c["deadline"]))
        db.execute(
            update(Game)
            .where(Game.id == game.id)
            .values(**values)
            .execution_options(synchronize_session=False)
        )
        changed.append((game.id, game.version))
    return changed

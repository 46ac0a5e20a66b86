"""Vacation days (app/services/tables/vacations.py): see, start and end one's vacation."""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any

from fastapi import APIRouter
from pydantic import BaseModel, Field

from app.services.tables import vacations
from app.shared.clock import now_in
from app.web.deps import DbDep, NotifierDep, SettingsDep, UserDep
from app.web.errors import errors
from app.web.schemas import Body

router = APIRouter(prefix="/api/me", tags=["account"])


class RunningVacationOut(BaseModel):
    starts_at: str
    ends_at: str  # when the account is back; its daily clocks run again from then
    days: int  # whole days it counts against the year's allowance


class VacationOut(BaseModel):
    year: int  # the calendar year (UTC) whose allowance is shown
    allowance_days: int  # SEADRAGONS_VACATION_DAYS_PER_YEAR
    used_days: int
    left_days: int
    active: RunningVacationOut | None


class VacationIn(Body):
    """Exactly one of `days` (whole days from now) and `until` (the date one is back, UTC)."""

    days: int | None = Field(default=None, ge=1, le=366, examples=[7])
    # A JSON string "YYYY-MM-DD" (the body is strict, so the date is parsed here, not coerced).
    until: Annotated[dt.date | None, Field(strict=False)] = Field(
        default=None, examples=["2026-12-24"]
    )


def _allowance(settings: Any) -> vacations.Allowance:
    return vacations.Allowance(settings.vacation_days_per_year)


@router.get("/vacation", response_model=VacationOut, responses=errors(401, 503))
def get_vacation(db: DbDep, user: UserDep, settings: SettingsDep) -> Any:
    """The caller's vacation days this year and the vacation running now, if any."""
    return vacations.status(db, user, now_in(db), _allowance(settings))


@router.post(
    "/vacation",
    response_model=VacationOut,
    status_code=201,
    responses=errors(401, 403, 409, 413, 422, 503),
)
def start_vacation(
    body: VacationIn, db: DbDep, user: UserDep, settings: SettingsDep, notifier: NotifierDep
) -> Any:
    """Start a vacation now: the caller's daily clocks stand still until it ends (live games
    are not affected). 422 invalid_vacation, 403 account_required, 409 vacation_active,
    409 vacation_too_long."""
    return vacations.start(
        db,
        user,
        now_in(db),
        _allowance(settings),
        days=body.days,
        until=body.until,
        notifier=notifier,
    )


@router.post("/vacation/end", response_model=VacationOut, responses=errors(401, 409, 413, 422, 503))
def end_vacation(db: DbDep, user: UserDep, settings: SettingsDep, notifier: NotifierDep) -> Any:
    """End the running vacation now (it counts the days begun); 409 no_vacation."""
    return vacations.end(db, user, now_in(db), _allowance(settings), notifier)

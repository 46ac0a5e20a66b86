"""Account settings routes: the email address for "your turn" notices, on/off."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from app.services.accounts import account, users
from app.shared.errors import ServiceError
from app.shared.http import client_address, session_token
from app.web.deps import DbDep, NotifierDep, SettingsDep, UserDep
from app.web.errors import errors
from app.web.inputs import NO_CONTROL_PATTERN
from app.web.schemas import Body, Password

router = APIRouter(prefix="/api/me", tags=["account"])


class AccountOut(BaseModel):
    email: str | None
    email_verified: bool
    notices: bool
    # False when the server has no SEADRAGONS_SMTP_URL: it sends no email at all.
    email_enabled: bool
    guest: bool


class EmailIn(Body):
    # null removes the address; the format is the string's (null has none).
    email: Annotated[str, Field(max_length=320, json_schema_extra={"format": "email"})] | None = (
        Field(examples=["nessie@example.org"])
    )


class NoticesIn(Body):
    enabled: bool


class PasswordChangeIn(Body):
    current_password: str = Password
    new_password: str = Field(
        min_length=users.PASSWORD_MIN,
        max_length=users.PASSWORD_MAX,
        json_schema_extra={"pattern": NO_CONTROL_PATTERN},
    )


class PasswordChangedOut(BaseModel):
    ok: bool = True
    # How many other sessions of the account were signed out (this one stays).
    signed_out: int


def _mail_enabled(request: Request) -> bool:
    return bool(request.app.state.mailer.enabled)


def _out(request: Request, user: Any) -> AccountOut:
    return AccountOut(**account.settings_of(user, _mail_enabled(request)))


@router.get("/account", response_model=AccountOut, responses=errors(401, 503))
def get_account(request: Request, user: UserDep) -> AccountOut:
    """The caller's notice settings."""
    return _out(request, user)


@router.post(
    "/email", response_model=AccountOut, responses=errors(401, 403, 409, 413, 422, 429, 503)
)
def set_email(
    body: EmailIn, request: Request, db: DbDep, user: UserDep, settings: SettingsDep
) -> AccountOut:
    """Set the address (a verification link is emailed; it counts once opened) or remove it."""
    user = account.set_email(
        db,
        user,
        body.email,
        mail_enabled=_mail_enabled(request),
        per_hour=settings.email_verify_per_hour,
        per_recipient_per_day=settings.email_verify_per_recipient_per_day,
    )
    request.app.state.mailer.wake()
    return _out(request, user)


@router.post("/notices", response_model=AccountOut, responses=errors(401, 403, 413, 422, 503))
def set_notices(body: NoticesIn, request: Request, db: DbDep, user: UserDep) -> AccountOut:
    """Turn "your turn" emails on or off."""
    return _out(request, account.set_notices(db, user, body.enabled))


@router.post(
    "/password",
    response_model=PasswordChangedOut,
    responses=errors(401, 403, 413, 422, 429, 503),
)
def change_password(
    body: PasswordChangeIn, request: Request, db: DbDep, user: UserDep, notifier: NotifierDep
) -> PasswordChangedOut:
    """Change the account's password (the current one must be given); every other session of
    the account is signed out. Wrong current passwords count against the sign-in throttle
    (429 too_many_attempts)."""
    throttle = request.app.state.login_throttle
    address = client_address(request)
    throttle.check(user.username or "", address)
    try:
        revoked = users.change_password(
            db,
            user,
            body.current_password,
            body.new_password,
            session_token(request),
            notifier=notifier,
        )
    except ServiceError as exc:
        if exc.code == "wrong_password":
            throttle.failed(user.username or "", address)
        raise
    return PasswordChangedOut(signed_out=revoked)

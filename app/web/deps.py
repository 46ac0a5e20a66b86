"""Request dependencies: the database session, the signed session cookie, the current user."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated

from fastapi import Depends, Path, Query, Request, Response
from sqlalchemy.orm import Session

from app.db.models.accounts import User
from app.db.session import read_session
from app.logging_setup import bind_request
from app.services.accounts import users
from app.services.play.road import MoveRoad
from app.services.tables.caps import LiveCaps, address_key
from app.settings import Settings
from app.shared.errors import ServiceError
from app.shared.http import COOKIE, client_address, session_token
from app.shared.notify import Notifier

# Ids, seat numbers, versions and offsets are 32-bit signed columns in the database: a larger
# number can name nothing, and is refused (422) before it reaches a query (Postgres would fail).
MAX_INT = 2**31 - 1

GameId = Annotated[int, Path(ge=1, le=MAX_INT, description="a game id")]
SeatNo = Annotated[int, Path(ge=0, le=MAX_INT, description="a seat number, 0 .. players-1")]
SinceQuery = Annotated[int, Query(ge=0, le=MAX_INT, description="only moves with seq > since")]


def get_db(request: Request) -> Iterator[Session]:
    """One session per request; services commit, this only ends what was left: reads, with a
    COMMIT that keeps the connection's prepared statements (app.db.session.read_session); a
    request that failed is rolled back."""
    with read_session(request.app.state.sessionmaker) as session:
        yield session


def get_settings(request: Request) -> Settings:
    """The settings the app was created with."""
    return request.app.state.settings


def get_notifier(request: Request) -> Notifier:
    """The app's after-commit hooks (the realtime layer listens there)."""
    return request.app.state.notifier


def get_road(request: Request) -> MoveRoad:
    """The one road for moves, built once with the app's context."""
    return request.app.state.context.road


def optional_user(request: Request, db: Annotated[Session, Depends(get_db)]) -> User | None:
    """The signed-in user, or None."""
    token = session_token(request)
    user = users.user_for_token(db, token) if token else None
    if user is not None:
        bind_request(user_id=user.id)
    return user


def current_user(user: Annotated[User | None, Depends(optional_user)]) -> User:
    """The signed-in user; 401 `not_signed_in` otherwise."""
    if user is None:
        raise ServiceError("not_signed_in", "sign in (as a guest or with an account) first")
    return user


def set_session_cookie(request: Request, response: Response, token: str) -> None:
    """Send the signed session cookie: HttpOnly, SameSite=Lax, Secure when configured."""
    settings: Settings = request.app.state.settings
    response.set_cookie(
        COOKIE,
        request.app.state.signer.sign(token).decode(),
        max_age=settings.session_days * 86400,
        httponly=True,
        samesite="lax",
        secure=settings.secure_cookies,
        path="/",
    )


def clear_session_cookie(request: Request, response: Response) -> None:
    """Tell the browser to forget the session cookie."""
    settings: Settings = request.app.state.settings
    response.delete_cookie(
        COOKIE, httponly=True, samesite="lax", secure=settings.secure_cookies, path="/"
    )


def live_caps(request: Request) -> LiveCaps:
    """The caps on live games for a start caused by this request (its address, the settings)."""
    settings: Settings = request.app.state.settings
    return LiveCaps(
        per_user=settings.max_live_games_per_user,
        per_address=settings.max_live_games_per_address,
        address=address_key(settings.resolved_secret_key(), client_address(request)),
    )


DbDep = Annotated[Session, Depends(get_db)]
UserDep = Annotated[User, Depends(current_user)]
MaybeUserDep = Annotated[User | None, Depends(optional_user)]
NotifierDep = Annotated[Notifier, Depends(get_notifier)]
RoadDep = Annotated[MoveRoad, Depends(get_road)]
SettingsDep = Annotated[Settings, Depends(get_settings)]
LiveCapsDep = Annotated[LiveCaps, Depends(live_caps)]

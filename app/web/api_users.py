"""Identity routes: guest sessions, accounts, login, logout, me."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel

from app.i18n import current_language
from app.services.accounts import users
from app.services.tables import lobby
from app.shared.errors import ServiceError
from app.web.deps import (
    DbDep,
    MaybeUserDep,
    NotifierDep,
    SettingsDep,
    UserDep,
    clear_session_cookie,
    client_address,
    session_token,
    set_session_cookie,
)
from app.web.errors import errors
from app.web.language import remember_account_language
from app.web.schemas import CredentialsIn, GameListOut, GameOut, GuestIn, OkOut, RegisterIn, UserOut
from app.web.throttle import Throttles

router = APIRouter(prefix="/api", tags=["identity"])


class SessionOut(BaseModel):
    """Who is signed in, or `user: null`: a page asks without an error when nobody is."""

    user: UserOut | None


def _throttles(request: Request) -> Throttles:
    return request.app.state.throttles


@router.post(
    "/session/guest", response_model=UserOut, responses=errors(403, 409, 413, 422, 429, 503)
)
def start_guest(
    body: GuestIn,
    request: Request,
    response: Response,
    db: DbDep,
    user: MaybeUserDep,
    settings: SettingsDep,
) -> UserOut:
    """Play as a guest called `name` (a signed-in guest is renamed and keeps their games and
    their session)."""
    address = client_address(request)
    user, token = users.start_guest(
        db,
        body.name,
        user,
        session_token(request),
        settings.session_days,
        admit=lambda: _throttles(request).admit_guest(address),
    )
    set_session_cookie(request, response, token)
    remember_account_language(response, settings, user)
    return UserOut.of(user)


@router.post(
    "/users",
    response_model=UserOut,
    status_code=201,
    responses=errors(403, 409, 413, 422, 429, 503),
)
def register(
    body: RegisterIn,
    request: Request,
    response: Response,
    db: DbDep,
    user: MaybeUserDep,
    settings: SettingsDep,
    notifier: NotifierDep,
) -> UserOut:
    """Create an account; a signed-in guest becomes that account and keeps their games (and
    every other session of that guest is signed out)."""
    address = client_address(request)
    user, token = users.register(
        db,
        body.username,
        body.password,
        user,
        session_token(request),
        settings.session_days,
        admit=lambda: _throttles(request).admit_account(address),
        notifier=notifier,
    )
    if user.language is None:
        # An account reads the language it signed up in (its emails too) until it switches.
        user.language = current_language()
        db.commit()
    set_session_cookie(request, response, token)
    remember_account_language(response, settings, user)
    return UserOut.of(user)


@router.post(
    "/session/login", response_model=UserOut, responses=errors(401, 403, 413, 422, 429, 503)
)
def login(
    body: CredentialsIn,
    request: Request,
    response: Response,
    db: DbDep,
    settings: SettingsDep,
    notifier: NotifierDep,
) -> UserOut:
    """Sign in with a username and password; every other session of the account is signed out
    (failures are throttled per username and address: 429 too_many_attempts)."""
    throttle = request.app.state.login_throttle
    client = client_address(request)
    throttle.check(body.username, client)
    try:
        user, token = users.login(
            db,
            body.username,
            body.password,
            session_token(request),
            settings.session_days,
            notifier=notifier,
        )
    except ServiceError as exc:
        if exc.code == "bad_credentials":
            throttle.failed(body.username, client)
        raise
    set_session_cookie(request, response, token)
    remember_account_language(response, settings, user)
    return UserOut.of(user)


@router.post("/session/logout", response_model=OkOut, responses=errors(403, 503))
def logout(request: Request, response: Response, db: DbDep, notifier: NotifierDep) -> OkOut:
    """Revoke the current session (harmless when not signed in); its sockets close everywhere."""
    users.logout(db, session_token(request), notifier=notifier)
    clear_session_cookie(request, response)
    return OkOut()


@router.get("/session", response_model=SessionOut, responses=errors(503))
def session(user: MaybeUserDep) -> SessionOut:
    """The signed-in user or null, always 200 (pages call it; GET /api/me answers 401)."""
    return SessionOut(user=UserOut.of(user) if user is not None else None)


@router.get("/me", response_model=UserOut, responses=errors(401, 503))
def me(user: UserDep) -> UserOut:
    """Who the session cookie belongs to."""
    return UserOut.of(user)


@router.get("/me/games", response_model=GameListOut, responses=errors(401, 503))
def my_games(db: DbDep, user: UserDep) -> GameListOut:
    """My open, live and finished games, newest first (to rejoin them)."""
    return GameListOut(games=[GameOut.of(g, user.id) for g in lobby.my_games(db, user)])

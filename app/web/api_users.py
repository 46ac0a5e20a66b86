"""Identity routes: guest sessions, accounts, login, logout, me."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel

from app.services import lobby, users
from app.services.errors import ServiceError
from app.web.deps import (
    DbDep,
    MaybeUserDep,
    NotifierDep,
    SettingsDep,
    UserDep,
    clear_session_cookie,
    session_token,
    set_session_cookie,
)
from app.web.schemas import CredentialsIn, GameListOut, GameOut, GuestIn, OkOut, UserOut

router = APIRouter(prefix="/api", tags=["identity"])


class SessionOut(BaseModel):
    """Who is signed in, or `user: null`: a page asks without an error when nobody is."""

    user: UserOut | None


@router.post("/session/guest", response_model=UserOut)
def start_guest(
    body: GuestIn,
    request: Request,
    response: Response,
    db: DbDep,
    user: MaybeUserDep,
    settings: SettingsDep,
) -> UserOut:
    """Play as a guest called `name` (a signed-in guest is renamed and keeps their games)."""
    user, token = users.start_guest(
        db, body.name, user, session_token(request), settings.session_days
    )
    set_session_cookie(request, response, token)
    return UserOut.of(user)


@router.post("/users", response_model=UserOut, status_code=201)
def register(
    body: CredentialsIn,
    request: Request,
    response: Response,
    db: DbDep,
    user: MaybeUserDep,
    settings: SettingsDep,
) -> UserOut:
    """Create an account; a signed-in guest becomes that account and keeps their games."""
    user, token = users.register(
        db, body.username, body.password, user, session_token(request), settings.session_days
    )
    set_session_cookie(request, response, token)
    return UserOut.of(user)


@router.post("/session/login", response_model=UserOut)
def login(
    body: CredentialsIn, request: Request, response: Response, db: DbDep, settings: SettingsDep
) -> UserOut:
    """Sign in with a username and password (failures are throttled: 429 too_many_attempts)."""
    throttle = request.app.state.login_throttle
    client = request.client.host if request.client else None
    throttle.check(body.username, client)
    try:
        user, token = users.login(
            db, body.username, body.password, session_token(request), settings.session_days
        )
    except ServiceError as exc:
        if exc.code == "bad_credentials":
            throttle.failed(body.username, client)
        raise
    set_session_cookie(request, response, token)
    return UserOut.of(user)


@router.post("/session/logout", response_model=OkOut)
def logout(request: Request, response: Response, db: DbDep, notifier: NotifierDep) -> OkOut:
    """Revoke the current session (harmless when not signed in); its sockets close everywhere."""
    token = session_token(request)
    users.logout(db, token)
    if token:
        notifier.sessions_revoked([users.token_hash(token)])
    clear_session_cookie(request, response)
    return OkOut()


@router.get("/session", response_model=SessionOut)
def session(user: MaybeUserDep) -> SessionOut:
    """The signed-in user or null, always 200 (pages call it; GET /api/me answers 401)."""
    return SessionOut(user=UserOut.of(user) if user is not None else None)


@router.get("/me", response_model=UserOut)
def me(user: UserDep) -> UserOut:
    """Who the session cookie belongs to."""
    return UserOut.of(user)


@router.get("/me/games", response_model=GameListOut)
def my_games(db: DbDep, user: UserDep) -> GameListOut:
    """My open, live and finished games, newest first (to rejoin them)."""
    return GameListOut(games=[GameOut.of(g, user.id) for g in lobby.my_games(db, user)])

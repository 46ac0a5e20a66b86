"""Identity: guests, accounts, passwords and server-side sessions."""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Callable
from datetime import timedelta

from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app.db.models.accounts import AuthSession, User
from app.db.models.games import Game, Seat
from app.i18n import t_
from app.services.tables import lookalikes
from app.shared.clock import now_in
from app.shared.errors import ServiceError
from app.shared.notify import Notifier
from app.shared.passwords import passwords_of

# Letters and digits of any script, inner spaces and a little punctuation; no markup characters,
# no control characters. Templates escape anyway; this keeps names readable everywhere.
DISPLAY_NAME = re.compile(r"^[^\W_](?:[\w .'-]{0,22}[\w.'-])?$")
USERNAME = re.compile(r"^[a-z0-9_.-]{3,24}$")
PASSWORD_MIN, PASSWORD_MAX = 8, 128
# The same rules for what a request may send, before spaces are normalised and letters
# lower-cased (Python `re` semantics; pinned to the checks above by tests/web/test_input_edges.py):
# every string they match passes the check (a name mixing scripts aside: mixed_scripts).
NAME_INPUT = r"^ *[^\W_][\w .'-]*$"
# NAME_INPUT as the OpenAPI schema states it, in its own dialect (ECMA 262 with Unicode
# properties), where `\w` means ASCII only while Python reads it as letters and digits of every
# script, as this spells out (tests/web/test_schema_truth.py compares the two readings).
NAME_SCHEMA = r"^ *[\p{L}\p{N}][\p{L}\p{N}_ .'-]*$"
USERNAME_INPUT = r"^[A-Za-z0-9_.-]{3,24}$"


# Each rule in words, for the refusal and for the sign-up form's request answered before any
# check (app.web.errors words a schema's refusal of these fields with them).
NAME_RULE = t_(
    "a name is 1 to 24 letters, digits, spaces or . ' - _, starting with a letter or digit"
)
USERNAME_RULE = t_("a username is 3 to 24 of a-z, 0-9, _ . -")
PASSWORD_RULE = t_(
    "a password has {password_min} to {password_max} characters",
    password_min=PASSWORD_MIN,
    password_max=PASSWORD_MAX,
)


def clean_display_name(name: str) -> str:
    """Normalise spaces and check a display name (1-24 characters, letters/digits first, in one
    script or scripts written together: app/services/tables/lookalikes.py). Invisible characters are
    refused, not dropped: none is a letter, a digit or a space (and the schema says the same)."""
    name = " ".join(name.split())
    if not DISPLAY_NAME.match(name):
        raise ServiceError("invalid_name", NAME_RULE)
    if lookalikes.mixes_scripts(name):
        raise ServiceError(
            "mixed_scripts",
            "a name is written in one script (letters of several alphabets can imitate a name)",
        )
    return name


def clean_username(username: str) -> str:
    """Lower-case and check a username (3-24 of a-z 0-9 _ . -)."""
    username = username.strip().lower()
    if not USERNAME.match(username):
        raise ServiceError("invalid_username", USERNAME_RULE)
    return username


def _check_password(password: str) -> None:
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise ServiceError("invalid_password", PASSWORD_RULE)


def token_hash(token: str) -> str:
    """The SHA-256 under which a session token is stored (and named to revocation listeners)."""
    return hashlib.sha256(token.encode()).hexdigest()


def _new_session(db: Session, user: User, days: int) -> str:
    token = secrets.token_urlsafe(32)
    if user.id is not None:
        # Housekeeping while we are here: the user's expired sessions are of no use to anyone.
        db.execute(
            delete(AuthSession).where(
                AuthSession.user_id == user.id, AuthSession.expires_at <= now_in(db)
            )
        )
    db.add(
        AuthSession(
            token_hash=token_hash(token),
            user=user,
            expires_at=now_in(db) + timedelta(days=days),
        )
    )
    return token


def _drop_session(db: Session, token: str | None) -> list[str]:
    """Delete the session behind `token`; the hashes deleted (none if it was already gone)."""
    if not token:
        return []
    deleted = db.execute(
        delete(AuthSession)
        .where(AuthSession.token_hash == token_hash(token))
        .returning(AuthSession.token_hash)
    )
    return list(deleted.scalars())


def _take_session(db: Session, token: str | None) -> None:
    """Consume the caller's own session, which must still exist: of concurrent requests
    carrying one cookie exactly one gets here (the row delete serialises them); the others
    are refused, so one browser session never forks into two live sessions."""
    if not _drop_session(db, token):
        db.rollback()
        raise ServiceError(
            "session_changed",
            "another request replaced this session at the same moment; reload and try again",
        )


def _drop_user_sessions(db: Session, user_id: int) -> list[str]:
    """Delete every session of `user_id`; the hashes deleted."""
    deleted = db.execute(
        delete(AuthSession).where(AuthSession.user_id == user_id).returning(AuthSession.token_hash)
    )
    return list(deleted.scalars())


def _tell(notifier: Notifier | None, revoked: dict[int, list[str]]) -> None:
    if notifier is None:
        return
    for user_id, hashes in revoked.items():
        if hashes:
            notifier.sessions_revoked(user_id, frozenset(hashes))


def user_for_token(db: Session, token: str) -> User | None:
    """The user of a live session token, or None if unknown, revoked or expired."""
    row = db.get(AuthSession, token_hash(token))
    if row is None or row.expires_at <= now_in(db):
        return None
    return row.user


def _tablemates(db: Session, user: User) -> list[str]:
    """The names of everyone else seated at the open and live tables where `user` sits."""
    tables = (
        select(Seat.game_id)
        .join(Game, Game.id == Seat.game_id)
        .where(Seat.user_id == user.id, Game.status.in_(("open", "live")))
    )
    names = db.scalars(
        select(User.display_name)
        .join(Seat, Seat.user_id == User.id)
        .where(Seat.game_id.in_(tables), User.id != user.id)
    )
    return list(names)


def start_guest(
    db: Session,
    name: str,
    current: User | None,
    old_token: str | None,
    days: int = 30,
    *,
    admit: Callable[[], None] | None = None,
) -> tuple[User, str]:
    """Sign in as a guest called `name`; a signed-in guest is renamed and keeps their games.

    Renaming keeps the caller's session (the token returned is `old_token`): a browser session
    is one guest with one session, however many requests race with its cookie, so it never
    forks into two live sessions of which one could be upgraded and the other kept. `admit`
    is called before a new guest is created (the per-address limit); renaming is free.
    """
    display = clean_display_name(name)
    if current is not None and not current.is_guest:
        raise ServiceError("already_signed_in", "log out before playing as a guest")
    if current is not None:
        if display != current.display_name:
            lookalikes.refuse_lookalike(display, _tablemates(db, current))
        current.display_name = display
        # The caller's live session stays; one that is gone or expired is replaced.
        live = old_token is not None and user_for_token(db, old_token) is current
        token = old_token if live and old_token else _new_session(db, current, days)
        db.commit()
        return current, token
    if admit is not None:
        admit()
    user = User(display_name=display)
    db.add(user)
    token = _new_session(db, user, days)
    db.commit()
    return user, token


def register(
    db: Session,
    username: str,
    password: str,
    current: User | None,
    old_token: str | None,
    days: int = 30,
    *,
    admit: Callable[[], None] | None = None,
    notifier: Notifier | None = None,
) -> tuple[User, str]:
    """Create an account, or upgrade the signed-in guest in place so they keep their games.

    An upgraded guest's every other session is revoked: the caller alone holds the account,
    with a fresh token. `admit` is called before the account is created (per-address limit).
    """
    name = clean_username(username)
    _check_password(password)
    if current is not None and not current.is_guest:
        raise ServiceError("already_signed_in", "you already have an account; log out first")
    if db.scalar(select(User.id).where(User.username == name)) is not None:
        raise ServiceError("username_taken", t_("the username {name} is taken", name=repr(name)))
    if admit is not None:
        admit()
    revoked: dict[int, list[str]] = {}
    if current is not None:
        _take_session(db, old_token)
        user = current
        revoked[user.id] = [token_hash(old_token or ""), *_drop_user_sessions(db, user.id)]
    else:
        user = User(display_name=name)
        db.add(user)
    user.username = name
    user.password_hash = passwords_of(db).hasher.hash(password)
    token = _new_session(db, user, days)
    try:
        db.commit()
    except IntegrityError:  # a concurrent registration took the name between check and commit
        db.rollback()
        raise ServiceError(
            "username_taken", t_("the username {name} is taken", name=repr(name))
        ) from None
    _tell(notifier, revoked)
    return user, token


def login(
    db: Session,
    username: str,
    password: str,
    old_token: str | None,
    days: int = 30,
    *,
    notifier: Notifier | None = None,
) -> tuple[User, str]:
    """Check a username and password and open a new session; every other session of that
    account (and the caller's previous session) is revoked."""
    user = db.scalar(select(User).where(User.username == username.strip().lower()))
    passwords = passwords_of(db)
    try:
        stored = user.password_hash if user and user.password_hash else passwords.dummy_hash
        passwords.hasher.verify(stored, password)
    except (VerificationError, InvalidHashError):
        user = None
    if user is None:
        raise ServiceError("bad_credentials", "wrong username or password")
    if passwords.hasher.check_needs_rehash(user.password_hash or ""):
        user.password_hash = passwords.hasher.hash(password)
    revoked: dict[int, list[str]] = {}
    previous = user_for_token(db, old_token) if old_token else None
    dropped = _drop_session(db, old_token)
    if previous is not None and dropped:
        revoked[previous.id] = dropped
    revoked.setdefault(user.id, []).extend(_drop_user_sessions(db, user.id))
    token = _new_session(db, user, days)
    db.commit()
    _tell(notifier, revoked)
    return user, token


def logout(db: Session, token: str | None, *, notifier: Notifier | None = None) -> None:
    """Revoke the session behind `token` (nothing happens if there is none)."""
    user = user_for_token(db, token) if token else None
    dropped = _drop_session(db, token)
    db.commit()
    if user is not None:
        _tell(notifier, {user.id: dropped})


def revoke_all(db: Session, user_id: int, *, notifier: Notifier | None = None) -> int:
    """Revoke every session of a user (e.g. after a password change); returns how many."""
    dropped = _drop_user_sessions(db, user_id)
    db.commit()
    _tell(notifier, {user_id: dropped})
    return len(dropped)


def change_password(
    db: Session,
    user: User,
    current: str,
    new: str,
    token: str | None,
    *,
    notifier: Notifier | None = None,
) -> int:
    """Replace an account's password after checking the current one; every other session of the
    account is revoked (the caller's, `token`, stays). Returns how many were revoked.

    `wrong_password` for a wrong current password (the caller counts it against the sign-in
    throttle: guessing here is guessing at the sign-in form), `invalid_password` for a new one
    outside the rules or equal to the current one, `account_required` for a guest.
    """
    if user.is_guest or not user.password_hash:
        raise ServiceError("account_required", "guests have no password: register an account")
    try:
        passwords_of(db).hasher.verify(user.password_hash, current)
    except (VerificationError, InvalidHashError):
        raise ServiceError("wrong_password", "that is not your current password") from None
    _check_password(new)
    if new == current:
        raise ServiceError("invalid_password", "the new password is the one you have now")
    user.password_hash = passwords_of(db).hasher.hash(new)
    keep = token_hash(token) if token else None
    revoked = db.execute(
        delete(AuthSession)
        .where(AuthSession.user_id == user.id, AuthSession.token_hash != (keep or ""))
        .returning(AuthSession.token_hash)
    )
    hashes = list(revoked.scalars())
    db.commit()
    _tell(notifier, {user.id: hashes})
    return len(hashes)

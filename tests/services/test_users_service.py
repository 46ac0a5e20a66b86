"""Concurrent requests with one session cookie, and the open-table cap."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from app.db.models.accounts import AuthSession, User
from app.db.models.games import Game
from app.services.accounts import users
from app.services.tables import lobby
from tests.services.races import in_threads


def _race(count: int, work: Callable[[int, Session], Any], sessions: sessionmaker[Session]) -> list:
    """Run `work(i, own_session)` in `count` threads released together; outcomes by index."""
    barrier = threading.Barrier(count)

    def one(i: int) -> Any:
        with sessions() as own:
            barrier.wait(timeout=20)
            return work(i, own)

    return in_threads(count, one)


def _sessions_of(db: Session, user_id: int) -> int:
    return db.scalar(select(func.count()).where(AuthSession.user_id == user_id)) or 0


def test_concurrent_guest_calls_with_one_cookie_never_fork_the_session(
    sessions: sessionmaker[Session], db: Session
) -> None:
    guest, token = users.start_guest(db, "Origin", None, None)

    def rename(i: int, own: Session) -> int:
        current = users.user_for_token(own, token)
        user, new_token = users.start_guest(own, f"Name {i}", current, token)
        return user.id if users.user_for_token(own, new_token) else -1

    outcomes = _race(6, rename, sessions)
    assert outcomes == [guest.id] * 6  # the same guest every time, never a second one
    db.expire_all()
    assert _sessions_of(db, guest.id) == 1


def test_concurrent_upgrades_with_one_cookie_leave_one_account_session(
    sessions: sessionmaker[Session], db: Session
) -> None:
    guest, token = users.start_guest(db, "Racer", None, None)

    def register(i: int, own: Session) -> str:
        current = users.user_for_token(own, token)
        user, _ = users.register(own, f"racer_{i}", "long enough", current, token)
        return user.username or ""

    outcomes = _race(4, register, sessions)
    names = [o for o in outcomes if o.startswith("racer_")]
    # One request upgraded the guest; the others were refused or (arriving after it, with a
    # dead token) made accounts of their own. Never two sessions of the upgraded guest.
    assert all(o.startswith("racer_") or o == "session_changed" for o in outcomes), outcomes
    db.expire_all()
    upgraded = db.get(User, guest.id)
    assert upgraded is not None and upgraded.username in names
    assert _sessions_of(db, guest.id) == 1


def test_open_tables_per_host_are_capped_even_when_racing(
    sessions: sessionmaker[Session], db: Session, make_user: Callable[[str], User]
) -> None:
    host = make_user("Busy")

    def create(_i: int, own: Session) -> str:
        me = own.get(User, host.id)
        assert me is not None
        lobby.create_game(own, me, 2, max_open=2)
        return "created"

    outcomes = _race(5, create, sessions)
    assert sorted(outcomes) == ["created"] * 2 + ["too_many_tables"] * 3
    open_count = db.scalar(
        select(func.count()).where(Game.host_id == host.id, Game.status == "open")
    )
    assert open_count == 2

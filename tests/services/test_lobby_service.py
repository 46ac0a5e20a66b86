"""Lobby services: concurrent joins and sessions."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from app.db.models.accounts import AuthSession, User
from app.db.models.base import utcnow
from app.db.models.games import Seat
from app.services.accounts import users
from app.services.tables import lobby
from app.shared.errors import ServiceError


def test_concurrent_joins_never_double_book_a_seat(
    sessions: sessionmaker[Session], db: Session, make_user: Callable[[str], User]
) -> None:
    host = make_user("Host")
    game = lobby.create_game(db, host, 3)
    joiners = [make_user(f"J{i}") for i in range(6)]
    barrier = threading.Barrier(len(joiners))
    outcomes: list[str] = [""] * len(joiners)

    def join(i: int) -> None:
        with sessions() as own:
            user = own.get(User, joiners[i].id)
            assert user is not None
            barrier.wait(timeout=10)
            try:
                lobby.join_game(own, game.id, user)
                outcomes[i] = "joined"
            except ServiceError as exc:
                outcomes[i] = exc.code

    threads = [threading.Thread(target=join, args=(i,)) for i in range(len(joiners))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sorted(outcomes) == ["game_full"] * 4 + ["joined"] * 2
    db.expire_all()  # this session cached the seats before the other threads filled them
    seats = db.scalars(select(Seat).where(Seat.game_id == game.id).order_by(Seat.seat)).all()
    assert seats[0].user_id == host.id
    assert len({s.user_id for s in seats}) == 3 and all(s.user_id for s in seats)


def test_expired_and_revoked_sessions(db: Session) -> None:
    user, token = users.start_guest(db, "Ann", None, None)
    assert users.user_for_token(db, token) == user
    row = db.scalar(select(AuthSession).where(AuthSession.user_id == user.id))
    assert row is not None
    row.expires_at = utcnow() - timedelta(seconds=1)
    db.commit()
    assert users.user_for_token(db, token) is None
    _, token2 = users.start_guest(db, "Ann", user, token)
    assert users.user_for_token(db, token2) == user
    assert users.revoke_all(db, user.id) >= 1
    assert users.user_for_token(db, token2) is None

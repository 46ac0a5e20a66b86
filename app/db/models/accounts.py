"""Accounts: users (guests and accounts), their login sessions and their days away."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, ForeignKey, Index, Integer, String, true
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.db.models.base import Base, UTCDateTime, utcnow


class User(Base):
    """A guest (no username) or an account; a guest who registers is upgraded in place."""

    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    display_name: Mapped[str] = mapped_column(String(32))
    # Stored lower-case so uniqueness is case-insensitive on every backend.
    username: Mapped[str | None] = mapped_column(String(32), unique=True)
    password_hash: Mapped[str | None] = mapped_column(String(255))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    # "Your turn" emails: an address counts once its verification link was opened;
    # `notices` is the player's on/off switch (also turned off by the one-click unsubscribe).
    email: Mapped[str | None] = mapped_column(String(254))
    email_verified_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    notices: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    # The language the account reads the site and its emails in (app.i18n.LANGUAGES); None
    # until chosen with the header's switch: then the browser's Accept-Language decides.
    language: Mapped[str | None] = mapped_column(String(8))

    @property
    def is_guest(self) -> bool:
        """True until the user registers a username and password."""
        return self.username is None


class AuthSession(Base):
    """A server-side login session; the cookie carries a signed random token, we keep its hash."""

    __tablename__ = "sessions"

    # sha256 of the token: a leaked table does not let anyone sign in.
    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime())

    user: Mapped[User] = relationship(lazy="joined")


class Vacation(Base):
    """An account's days away (app/services/tables/vacations.py): its daily clocks stand still
    from `starts_at` to `ends_at` (moved to the moment it was ended early). `days`: the whole
    days it counts against the allowance of `year`, the calendar year (UTC) it started in."""

    __tablename__ = "vacations"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    starts_at: Mapped[datetime] = mapped_column(UTCDateTime())
    ends_at: Mapped[datetime] = mapped_column(UTCDateTime())
    days: Mapped[int] = mapped_column(Integer)
    year: Mapped[int] = mapped_column(Integer)

    __table_args__ = (
        Index("ix_vacations_user_id_year", "user_id", "year"),
        Index("ix_vacations_user_id_ends_at", "user_id", "ends_at"),
    )

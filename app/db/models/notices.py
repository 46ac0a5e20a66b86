"""Notices: the email outbox (and turn notices sent by push) and browsers' push subscriptions."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from app.db.models.base import Base, UTCDateTime, utcnow


class OutboxEmail(Base):
    """An email to send (app/services/notices/mailer.py): written in the transaction that causes it,
    sent later by a background sender with bounded retries, so sending never blocks a request.
    """

    __tablename__ = "outbox_emails"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))  # "turn" | "verify"
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    turn: Mapped[int | None] = mapped_column(Integer)
    # "turn:{game}:{turn}": at most one notice per game and turn, however many instances run.
    dedupe: Mapped[str | None] = mapped_column(String(64), unique=True)
    # pending -> sent | skipped (no longer relevant when its time came) | failed (retries spent)
    status: Mapped[str] = mapped_column(String(16), default="pending")
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_try_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    sent_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    last_error: Mapped[str | None] = mapped_column(String(500))
    # Verification emails: a keyed hash of the address they go to, for the per-recipient limit
    # (app/services/accounts/account.py); None for other kinds.
    recipient: Mapped[str | None] = mapped_column(String(64))
    # Turn notices: "email", or "push" for a player with a push device when the move wrote it
    # (sent through the job queue by app/services/notices/push.py; back to "email" when no
    # device took it, or after PUSH_EMAIL_AFTER_SECONDS).
    channel: Mapped[str] = mapped_column(String(8), default="email", server_default="email")

    __table_args__ = (
        Index("ix_outbox_emails_status_next_try_at", "status", "next_try_at"),
        Index("ix_outbox_emails_recipient_created_at", "recipient", "created_at"),
    )


class PushSubscription(Base):
    """A browser's Web Push subscription (app/services/notices/devices.py): where "your turn"
    goes with the tab closed. The endpoint is the push service's capability URL; `p256dh` and
    `auth` are the browser's keys the payload is encrypted to. Dropped when the push service
    says it is gone (404/410) or the player removes it."""

    __tablename__ = "push_subscriptions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    endpoint: Mapped[str] = mapped_column(String(1024))
    # SHA-256 of the endpoint: one row per browser, however long its URL.
    endpoint_hash: Mapped[str] = mapped_column(String(64), unique=True)
    p256dh: Mapped[str] = mapped_column(String(128))
    auth: Mapped[str] = mapped_column(String(64))
    # What the player sees in their list of devices ("Firefox on Android").
    label: Mapped[str] = mapped_column(String(80))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    last_ok_at: Mapped[datetime | None] = mapped_column(UTCDateTime())

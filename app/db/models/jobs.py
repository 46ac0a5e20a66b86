"""The durable background jobs (app/infra/jobs.py)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from app.db.models.base import Base, JsonType, UTCDateTime, utcnow


class Job(Base):
    """A durable background job (app/infra/jobs.py): at most one per (kind, key), so enqueuing
    the same work twice is harmless; claimed with a lease that a crashed worker lets run out.
    """

    __tablename__ = "jobs"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(32))
    key: Mapped[str] = mapped_column(String(128))
    payload: Mapped[dict[str, Any] | None] = mapped_column(JsonType)
    # pending -> running -> done | failed (retries spent); running with an expired lease is
    # pending again for any worker.
    status: Mapped[str] = mapped_column(String(16), default="pending")
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    max_attempts: Mapped[int] = mapped_column(Integer, default=5)
    run_after: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    claimed_until: Mapped[datetime | None] = mapped_column(UTCDateTime())
    # A random token per claim: a worker whose lease ran out cannot finish someone else's run.
    claimed_by: Mapped[str | None] = mapped_column(String(32))
    progress: Mapped[dict[str, Any] | None] = mapped_column(JsonType)
    error: Mapped[str | None] = mapped_column(String(1000))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    # Who asked for this job (None: the server set it off), which bounds each account's open
    # requests; and until when someone is waiting on it: such jobs are claimed first.
    requested_by: Mapped[int | None] = mapped_column(Integer)
    wanted_until: Mapped[datetime | None] = mapped_column(UTCDateTime())

    __table_args__ = (
        UniqueConstraint("kind", "key", name="uq_jobs_kind_key"),
        Index("ix_jobs_status_run_after", "status", "run_after"),
        Index("ix_jobs_kind_requested_by", "kind", "requested_by"),
    )

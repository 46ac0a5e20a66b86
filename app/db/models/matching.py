"""Quick match: the players waiting in the pools."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from app.db.models.base import Base, UTCDateTime, utcnow


class PoolEntry(Base):
    """A player waiting in a quick-match pool (app/services/matching): one choice of player
    count (0: any), variant, pace and rated. Waiting lasts until `expires_at`, which the waiting
    page pushes forward while it is open; `ready_at` is later than `created_at` for a player who
    left too many games lately. Matched: `game_id` names the table, kept until it expires so
    the waiting page learns where to go."""

    __tablename__ = "pool_entries"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    players: Mapped[int] = mapped_column(Integer)  # 2..5, or 0 for any
    expansion: Mapped[bool] = mapped_column(Boolean)
    pace: Mapped[str] = mapped_column(String(8))  # "live" | "daily"
    rated: Mapped[bool] = mapped_column(Boolean)
    # The displayed rating in the variant when the entry was made (None: none), for pairing.
    rating: Mapped[int | None] = mapped_column(Integer)
    # `app/services/tables/caps.py` address_key of the request that made it (per-address cap).
    address: Mapped[str | None] = mapped_column(String(32), index=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    ready_at: Mapped[datetime] = mapped_column(UTCDateTime())
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime(), index=True)
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))

    __table_args__ = (
        UniqueConstraint(
            "user_id", "players", "expansion", "pace", "rated", name="uq_pool_entries_choice"
        ),
    )

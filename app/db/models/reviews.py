"""Reviews: a finished game's analysis."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Float, ForeignKey, Integer
from sqlalchemy.orm import Mapped, mapped_column

from app.db.models.base import Base, JsonType, UTCDateTime, utcnow


class GameAnalysis(Base):
    """A finished game's analysis (app/review, computed by the `game_analysis` job): the JSON
    that GET /api/games/{id}/analysis serves, and the settings it was computed with."""

    __tablename__ = "game_analyses"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    format: Mapped[int] = mapped_column(Integer)
    analysis: Mapped[dict[str, Any]] = mapped_column(JsonType)
    cpu_seconds: Mapped[float] = mapped_column(Float)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)

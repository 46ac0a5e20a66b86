"""Ratings: accounts' ratings, each seat's result of a finished game, and the per-player sums
that profiles read."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    BigInteger,
    Boolean,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from app.db.models.base import Base, UTCDateTime, utcnow


class Rating(Base):
    """An account's rating in one variant ("base" | "expansion"): OpenSkill's (mu, sigma) and
    the displayed number derived from them, kept for the leaderboard's index. Provisional
    (sigma above RATING_PROVISIONAL_SIGMA) is decided when read, so the setting can change."""

    __tablename__ = "ratings"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    variant: Mapped[str] = mapped_column(String(16), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    display: Mapped[int] = mapped_column(Integer)
    games: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)

    __table_args__ = (Index("ix_ratings_variant_display", "variant", "display"),)


class GameResult(Base):
    """One seat's result of a finished game: its place and points (public facts only), and for
    a rated account its rating before and after. Written once per game by the results job."""

    __tablename__ = "game_results"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column(Integer)
    # The seat's owner (None: a bot's own seat, then `bot_level` names it).
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    bot_level: Mapped[str | None] = mapped_column(String(32))
    variant: Mapped[str] = mapped_column(String(16))
    players: Mapped[int] = mapped_column(Integer)
    rated: Mapped[bool] = mapped_column(Boolean)
    place: Mapped[int] = mapped_column(Integer)
    # The owner did not play the seat to the end (left, or a bot kept it): ranked last.
    quit: Mapped[bool] = mapped_column(Boolean)
    total: Mapped[int] = mapped_column(Integer)
    gold: Mapped[int] = mapped_column(Integer)
    ships: Mapped[int] = mapped_column(Integer)
    missions: Mapped[int] = mapped_column(Integer)
    most_missions: Mapped[int] = mapped_column(Integer)
    realms: Mapped[int] = mapped_column(Integer)
    tails: Mapped[int | None] = mapped_column(Integer)
    mu_before: Mapped[float | None] = mapped_column(Float)
    sigma_before: Mapped[float | None] = mapped_column(Float)
    mu_after: Mapped[float | None] = mapped_column(Float)
    sigma_after: Mapped[float | None] = mapped_column(Float)
    display_after: Mapped[int | None] = mapped_column(Integer)
    finished_at: Mapped[datetime] = mapped_column(UTCDateTime())

    __table_args__ = (
        UniqueConstraint("game_id", "seat", name="uq_game_results_game_seat"),
        Index("ix_game_results_user_id_variant_id", "user_id", "variant", "id"),
        # A player's newest results across variants (a profile's recent games), read backwards.
        Index("ix_game_results_user_id_id", "user_id", "id"),
    )


class ProfileSummary(Base):
    """Sums over an account's public finished games of one variant and player count, kept so a
    profile reads a few rows instead of every seat of every game: games played and won, the
    player's points per scoring category, and their opponents' (summed over opponent seats).
    Added to in the results job's transaction (app/services/ratings/results.py), so exactly once per
    game, and rebuilt from `game_results` by `seadragons ratings recompute`."""

    __tablename__ = "profile_summaries"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    variant: Mapped[str] = mapped_column(String(16), primary_key=True)
    players: Mapped[int] = mapped_column(Integer, primary_key=True)
    played: Mapped[int] = mapped_column(Integer)
    won: Mapped[int] = mapped_column(Integer)
    own_gold: Mapped[int] = mapped_column(BigInteger)
    own_ships: Mapped[int] = mapped_column(BigInteger)
    own_missions: Mapped[int] = mapped_column(BigInteger)
    own_most_missions: Mapped[int] = mapped_column(BigInteger)
    own_realms: Mapped[int] = mapped_column(BigInteger)
    own_tails: Mapped[int] = mapped_column(BigInteger)
    own_tails_n: Mapped[int] = mapped_column(Integer)  # seats with a tails score (expansion)
    opp_seats: Mapped[int] = mapped_column(Integer)
    opp_gold: Mapped[int] = mapped_column(BigInteger)
    opp_ships: Mapped[int] = mapped_column(BigInteger)
    opp_missions: Mapped[int] = mapped_column(BigInteger)
    opp_most_missions: Mapped[int] = mapped_column(BigInteger)
    opp_realms: Mapped[int] = mapped_column(BigInteger)
    opp_tails: Mapped[int] = mapped_column(BigInteger)
    opp_tails_n: Mapped[int] = mapped_column(Integer)

"""Games: a table with its seats, its move log and its chat."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.db.models.accounts import User
from app.db.models.base import Base, JsonType, UTCDateTime, utcnow


class Game(Base):
    """A table: lobby data, then the engine snapshot and its version once started."""

    __tablename__ = "games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    host_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    # open -> live -> finished; open -> cancelled when everyone leaves.
    status: Mapped[str] = mapped_column(String(16), default="open")
    visibility: Mapped[str] = mapped_column(String(16), default="public")
    invite_code: Mapped[str] = mapped_column(String(32), unique=True, index=True)
    players: Mapped[int] = mapped_column(Integer)
    # GameOptions.to_dict(); the engine's own format.
    options: Mapped[dict[str, Any]] = mapped_column(JsonType)
    # Drawn with `secrets` at start; never leaves the server, not even after the end.
    seed: Mapped[int | None] = mapped_column(BigInteger)
    # Number of accepted moves; every action names the version it was made against.
    version: Mapped[int] = mapped_column(Integer, default=0)
    snapshot: Mapped[dict[str, Any] | None] = mapped_column(JsonType)
    # Denormalised from the snapshot so lobby lists need not load game states.
    to_act: Mapped[int | None] = mapped_column(Integer)
    final_scores: Mapped[dict[str, Any] | None] = mapped_column(JsonType)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    started_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    # The turn clock (app/services/tables/clocks.py): None when the table has none. Changed only
    # with
    # moves (and at the start), so a game version names one clock, as it names one state.
    clock: Mapped[dict[str, Any] | None] = mapped_column(JsonType)
    # When the current turn runs out while a person plays it: what the deadline sweep looks at
    # (app/services/play/deadlines.py). Cleared when the timeout is claimed.
    due_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), index=True)
    # The finished game this table is the rematch of (at most one rematch per game).
    rematch_of: Mapped[int | None] = mapped_column(ForeignKey("games.id"), unique=True)
    # The game whose bots' names this table's bots carry (None: its own id): a rematch keeps
    # its bots' names (app/services/tables/names.py).
    bot_names_of: Mapped[int | None] = mapped_column(Integer)
    # Who started it, for the cap on live games per address (app/services/tables/caps.py): a keyed
    # hash of the starting request's address, never the address itself.
    started_from: Mapped[str | None] = mapped_column(String(32), index=True)
    # A rated table (app/services/ratings/results.py): accounts only; its result moves their
    # ratings.
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())

    seats: Mapped[list[Seat]] = relationship(
        back_populates="game", order_by="Seat.seat", cascade="all, delete-orphan"
    )

    __table_args__ = (Index("ix_games_status_visibility", "status", "visibility"),)


class Seat(Base):
    """One seat of a game, created empty with the game.

    `user_id` is the human who owns the seat (None for a pure bot seat); `bot_level` set means a
    bot plays the seat right now, so a player can be replaced by a bot and take the seat back.
    """

    __tablename__ = "seats"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column(Integer)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), index=True)
    bot_level: Mapped[str | None] = mapped_column(String(32))
    joined_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    # Presence for the bot grace period (app/services/tables/presence.py): the owner's last request
    # or
    # socket heartbeat in this game; and when the owner left the live game (None: still playing).
    last_seen_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    left_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    # Until when the owner counts as having a socket open on this game: pushed forward by the
    # socket heartbeat, cleared on disconnect (no "your turn" email while it is in the future).
    socket_until: Mapped[datetime | None] = mapped_column(UTCDateTime())
    # A rematch keeps an empty seat for this player until they accept or decline.
    reserved_for: Mapped[int | None] = mapped_column(ForeignKey("users.id"))

    game: Mapped[Game] = relationship(back_populates="seats")
    user: Mapped[User | None] = relationship(lazy="joined", foreign_keys=[user_id])
    reserved_user: Mapped[User | None] = relationship(lazy="joined", foreign_keys=[reserved_for])

    __table_args__ = (
        UniqueConstraint("game_id", "seat", name="uq_seats_game_seat"),
        # NULLs are distinct, so any number of bot seats; one seat per human per game.
        UniqueConstraint("game_id", "user_id", name="uq_seats_game_user"),
    )

    @property
    def is_empty(self) -> bool:
        """Nobody (human or bot) holds this seat."""
        return self.user_id is None and self.bot_level is None

    def is_free_for(self, user_id: int | None) -> bool:
        """Empty, and not kept for someone else by a rematch."""
        return self.is_empty and self.reserved_for in (None, user_id)


class Move(Base):
    """An accepted action; (game_id, seq) is unique and seq equals the game version it produced."""

    __tablename__ = "moves"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[dict[str, Any]] = mapped_column(JsonType)
    # Full events, secrets included; filtered per viewer with engine.event_for on the way out.
    events: Mapped[list[dict[str, Any]]] = mapped_column(JsonType)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    # A bot played this move because the seat's clock ran out.
    timeout: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())

    __table_args__ = (UniqueConstraint("game_id", "seq", name="uq_moves_game_seq"),)


class ChatMessage(Base):
    """A chat line in a game, as typed (plain text: clients escape it on display)."""

    __tablename__ = "chat_messages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    # The display name when it was said, so renaming later does not rewrite history.
    name: Mapped[str] = mapped_column(String(32))
    text: Mapped[str] = mapped_column(String(500))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)

    __table_args__ = (Index("ix_chat_messages_game_id_id", "game_id", "id"),)

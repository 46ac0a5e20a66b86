"""SQLAlchemy 2 models: users, sessions, games, seats, the move log and the email outbox."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    UniqueConstraint,
    false,
    true,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship
from sqlalchemy.types import TypeDecorator

# JSONB on Postgres (compact, indexable), plain JSON text elsewhere.
JsonType = JSON().with_variant(JSONB(), "postgresql")

# Stable constraint names so Alembic migrations can refer to them on every backend.
NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def utcnow() -> datetime:
    """The current time, timezone-aware, in UTC."""
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """A timezone-aware UTC datetime on every backend (SQLite hands back naive values)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is not None and value.tzinfo is not None:
            value = value.astimezone(UTC)
        return value

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is not None and value.tzinfo is None:
            value = value.replace(tzinfo=UTC)
        return value


class Base(DeclarativeBase):
    """Declarative base with the naming convention."""

    metadata = MetaData(naming_convention=NAMING)


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

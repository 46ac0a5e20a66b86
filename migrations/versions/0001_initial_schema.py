"""Initial schema: users, sessions, games, seats, moves.

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# Frozen copies of the model types: a migration must not change when the models do.
JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def _ts(name: str, nullable: bool = False) -> sa.Column:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    """Apply this revision."""
    op.create_table(
        "users",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("display_name", sa.String(length=32), nullable=False),
        sa.Column("username", sa.String(length=32), nullable=True),
        sa.Column("password_hash", sa.String(length=255), nullable=True),
        _ts("created_at"),
        sa.PrimaryKeyConstraint("id", name="pk_users"),
        sa.UniqueConstraint("username", name="uq_users_username"),
    )
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        _ts("created_at"),
        _ts("expires_at"),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name="fk_sessions_user_id_users", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("token_hash", name="pk_sessions"),
    )
    op.create_index("ix_sessions_user_id", "sessions", ["user_id"])
    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("host_id", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("visibility", sa.String(length=16), nullable=False),
        sa.Column("invite_code", sa.String(length=32), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("options", JSON, nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("snapshot", JSON, nullable=True),
        sa.Column("to_act", sa.Integer(), nullable=True),
        sa.Column("final_scores", JSON, nullable=True),
        _ts("created_at"),
        _ts("started_at", nullable=True),
        _ts("finished_at", nullable=True),
        sa.ForeignKeyConstraint(["host_id"], ["users.id"], name="fk_games_host_id_users"),
        sa.PrimaryKeyConstraint("id", name="pk_games"),
    )
    op.create_index("ix_games_host_id", "games", ["host_id"])
    op.create_index("ix_games_status_visibility", "games", ["status", "visibility"])
    op.create_table(
        "seats",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("bot_level", sa.String(length=32), nullable=True),
        _ts("joined_at", nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name="fk_seats_game_id_games", ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name="fk_seats_user_id_users"),
        sa.PrimaryKeyConstraint("id", name="pk_seats"),
        sa.UniqueConstraint("game_id", "seat", name="uq_seats_game_seat"),
        sa.UniqueConstraint("game_id", "user_id", name="uq_seats_game_user"),
    )
    op.create_index("ix_seats_user_id", "seats", ["user_id"])
    op.create_table(
        "moves",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("action", JSON, nullable=False),
        sa.Column("events", JSON, nullable=False),
        _ts("created_at"),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name="fk_moves_game_id_games", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_moves"),
        sa.UniqueConstraint("game_id", "seq", name="uq_moves_game_seq"),
    )


def downgrade() -> None:
    """Revert this revision."""
    op.drop_table("moves")
    op.drop_index("ix_seats_user_id", table_name="seats")
    op.drop_table("seats")
    op.drop_index("ix_games_status_visibility", table_name="games")
    op.drop_index("ix_games_host_id", table_name="games")
    op.drop_table("games")
    op.drop_index("ix_sessions_user_id", table_name="sessions")
    op.drop_table("sessions")
    op.drop_table("users")

"""Quick match: the pools' waiting players (app/services/matching).

Revision ID: 0011_quick_match
Revises: 0010_profile_summary
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011_quick_match"
down_revision: str | None = "0010_profile_summary"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "pool_entries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("expansion", sa.Boolean(), nullable=False),
        sa.Column("pace", sa.String(length=8), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("rating", sa.Integer(), nullable=True),
        sa.Column("address", sa.String(length=32), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ready_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_pool_entries_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_pool_entries_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_pool_entries")),
        sa.UniqueConstraint(
            "user_id", "players", "expansion", "pace", "rated", name="uq_pool_entries_choice"
        ),
    )
    op.create_index(op.f("ix_pool_entries_user_id"), "pool_entries", ["user_id"])
    op.create_index(op.f("ix_pool_entries_address"), "pool_entries", ["address"])
    op.create_index(op.f("ix_pool_entries_expires_at"), "pool_entries", ["expires_at"])


def downgrade() -> None:
    op.drop_table("pool_entries")

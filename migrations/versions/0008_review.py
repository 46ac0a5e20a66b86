"""Game analyses (app/review): one stored analysis per finished game.

Revision ID: 0008_review
Revises: 0007_ratings
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0008_review"
# The job queue this builds on arrived with 0007_ratings (merged into this branch).
down_revision: str | None = "0007_ratings"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def upgrade() -> None:
    """Apply this revision."""
    op.create_table(
        "game_analyses",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("format", sa.Integer(), nullable=False),
        sa.Column("analysis", JSON, nullable=False),
        sa.Column("cpu_seconds", sa.Float(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name="fk_game_analyses_game_id_games", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", name="pk_game_analyses"),
    )


def downgrade() -> None:
    """Revert this revision."""
    op.drop_table("game_analyses")

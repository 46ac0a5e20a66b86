"""Index games.invite_code: invite links look a game up by its code alone.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Apply this revision."""
    op.create_index("ix_games_invite_code", "games", ["invite_code"], unique=True)


def downgrade() -> None:
    """Revert this revision."""
    op.drop_index("ix_games_invite_code", table_name="games")

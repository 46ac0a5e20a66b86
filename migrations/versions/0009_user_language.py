"""The language an account reads the site and its emails in.

Revision ID: 0009_user_language
Revises: 0008_review
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009_user_language"
down_revision: str | None = "0008_review"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Apply this revision."""
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("language", sa.String(length=8), nullable=True))


def downgrade() -> None:
    """Revert this revision."""
    with op.batch_alter_table("users") as batch:
        batch.drop_column("language")

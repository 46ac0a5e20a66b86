"""Vacations: an account's days away, during which its daily clocks stand still
(app/services/tables/vacations.py).

Revision ID: 0013_vacation
Revises: 0012_push
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013_vacation"
down_revision: str | None = "0012_push"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Apply this revision."""
    op.create_table(
        "vacations",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ends_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("days", sa.Integer(), nullable=False),
        sa.Column("year", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name="fk_vacations_user_id_users", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_vacations"),
    )
    op.create_index("ix_vacations_user_id_year", "vacations", ["user_id", "year"])
    op.create_index("ix_vacations_user_id_ends_at", "vacations", ["user_id", "ends_at"])


def downgrade() -> None:
    """Revert this revision."""
    op.drop_index("ix_vacations_user_id_ends_at", table_name="vacations")
    op.drop_index("ix_vacations_user_id_year", table_name="vacations")
    op.drop_table("vacations")

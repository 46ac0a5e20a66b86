"""Hardening, round two: caps on live games per address, rematch bot names, mail recipients.

Games get the keyed hash of the address that started them (the cap on live games per address)
and the game whose bots' names their bots carry (a rematch keeps them); outbox emails get the
keyed hash of the address a verification email goes to (the limit per recipient).

Revision ID: 0006_harden
Revises: 0005
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006_harden"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Apply this revision."""
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("bot_names_of", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("started_from", sa.String(length=32), nullable=True))
        batch.create_index("ix_games_started_from", ["started_from"])
    with op.batch_alter_table("outbox_emails") as batch:
        batch.add_column(sa.Column("recipient", sa.String(length=64), nullable=True))
        batch.create_index("ix_outbox_emails_recipient_created_at", ["recipient", "created_at"])


def downgrade() -> None:
    """Revert this revision."""
    with op.batch_alter_table("outbox_emails") as batch:
        batch.drop_index("ix_outbox_emails_recipient_created_at")
        batch.drop_column("recipient")
    with op.batch_alter_table("games") as batch:
        batch.drop_index("ix_games_started_from")
        batch.drop_column("started_from")
        batch.drop_column("bot_names_of")

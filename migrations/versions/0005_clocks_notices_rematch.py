"""Turn clocks, "your turn" emails and rematches.

Games get their clock, the due time the deadline sweep looks at, and the game they are a rematch
of; seats the socket presence used by notices and a rematch reservation; moves a timeout mark;
users an email address, its verification time and a notices switch; and an email outbox.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-30
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Apply this revision."""
    # Batch mode: SQLite copies the tables; Postgres adds nullable or defaulted columns in place.
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("email", sa.String(length=254), nullable=True))
        batch.add_column(sa.Column("email_verified_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(
            sa.Column("notices", sa.Boolean(), server_default=sa.true(), nullable=False)
        )
    with op.batch_alter_table("games") as batch:
        json = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
        batch.add_column(sa.Column("clock", json, nullable=True))
        batch.add_column(sa.Column("due_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("rematch_of", sa.Integer(), nullable=True))
        batch.create_index("ix_games_due_at", ["due_at"])
        batch.create_foreign_key("fk_games_rematch_of_games", "games", ["rematch_of"], ["id"])
        batch.create_unique_constraint("uq_games_rematch_of", ["rematch_of"])
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("socket_until", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("reserved_for", sa.Integer(), nullable=True))
        batch.create_foreign_key("fk_seats_reserved_for_users", "users", ["reserved_for"], ["id"])
    with op.batch_alter_table("moves") as batch:
        batch.add_column(
            sa.Column("timeout", sa.Boolean(), server_default=sa.false(), nullable=False)
        )
    op.create_table(
        "outbox_emails",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("turn", sa.Integer(), nullable=True),
        sa.Column("dedupe", sa.String(length=64), nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_try_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_error", sa.String(length=500), nullable=True),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name="fk_outbox_emails_user_id_users", ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name="fk_outbox_emails_game_id_games", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_outbox_emails"),
        sa.UniqueConstraint("dedupe", name="uq_outbox_emails_dedupe"),
    )
    op.create_index("ix_outbox_emails_user_id", "outbox_emails", ["user_id"])
    op.create_index(
        "ix_outbox_emails_status_next_try_at", "outbox_emails", ["status", "next_try_at"]
    )


def downgrade() -> None:
    """Revert this revision."""
    op.drop_index("ix_outbox_emails_status_next_try_at", table_name="outbox_emails")
    op.drop_index("ix_outbox_emails_user_id", table_name="outbox_emails")
    op.drop_table("outbox_emails")
    with op.batch_alter_table("moves") as batch:
        batch.drop_column("timeout")
    with op.batch_alter_table("seats") as batch:
        batch.drop_constraint("fk_seats_reserved_for_users", type_="foreignkey")
        batch.drop_column("reserved_for")
        batch.drop_column("socket_until")
    with op.batch_alter_table("games") as batch:
        batch.drop_constraint("uq_games_rematch_of", type_="unique")
        batch.drop_constraint("fk_games_rematch_of_games", type_="foreignkey")
        batch.drop_index("ix_games_due_at")
        batch.drop_column("rematch_of")
        batch.drop_column("due_at")
        batch.drop_column("clock")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("notices")
        batch.drop_column("email_verified_at")
        batch.drop_column("email")

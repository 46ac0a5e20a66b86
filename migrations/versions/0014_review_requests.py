"""Review requests: who asked for a job, and until when someone is waiting on it.

`jobs.requested_by` (the account that asked for an analysis; NULL for work the server set
off itself) bounds each account's open requests; `jobs.wanted_until` (the requester's page was
open until then) puts the job ahead of the others in the claim order.

Revision ID: 0014_review_requests
Revises: 0013_vacation
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014_review_requests"
down_revision: str | None = "0013_vacation"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Apply this revision."""
    with op.batch_alter_table("jobs") as batch:
        batch.add_column(sa.Column("requested_by", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("wanted_until", sa.DateTime(timezone=True), nullable=True))
        batch.create_index("ix_jobs_kind_requested_by", ["kind", "requested_by"])


def downgrade() -> None:
    """Revert this revision."""
    with op.batch_alter_table("jobs") as batch:
        batch.drop_index("ix_jobs_kind_requested_by")
        batch.drop_column("wanted_until")
        batch.drop_column("requested_by")

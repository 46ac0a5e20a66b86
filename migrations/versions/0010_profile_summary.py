"""Profile summaries: per account, variant and player count, the sums a profile shows; and
an index of a player's results by id alone (a profile's recent games, across variants).

Filled here from the results already stored (public finished games), as
`seadragons ratings recompute` would; from then on the results job adds each game's seats.

Revision ID: 0010_profile_summary
Revises: 0009_user_language
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010_profile_summary"
down_revision: str | None = "0009_user_language"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

CATEGORIES = ("gold", "ships", "missions", "most_missions", "realms", "tails")

# The same sums as app/services/ratings/profiles.py's SUMMARY_FROM_RESULTS, frozen as of this
# revision.
FILL = f"""
INSERT INTO profile_summaries (user_id, variant, players, played, won,
    {", ".join(f"own_{c}" for c in CATEGORIES)}, own_tails_n, opp_seats,
    {", ".join(f"opp_{c}" for c in CATEGORIES)}, opp_tails_n)
SELECT m.user_id, m.variant, m.players, count(DISTINCT m.game_id),
    count(DISTINCT CASE WHEN m.place = 1 AND NOT m.quit THEN m.game_id END),
    {", ".join(f"coalesce(sum(CASE WHEN o.seat = m.seat THEN o.{c} END), 0)" for c in CATEGORIES)},
    count(CASE WHEN o.seat = m.seat THEN o.tails END),
    count(CASE WHEN o.seat != m.seat THEN 1 END),
    {", ".join(f"coalesce(sum(CASE WHEN o.seat != m.seat THEN o.{c} END), 0)" for c in CATEGORIES)},
    count(CASE WHEN o.seat != m.seat THEN o.tails END)
FROM game_results m
JOIN games g ON g.id = m.game_id AND g.visibility = 'public'
JOIN game_results o ON o.game_id = m.game_id
WHERE m.user_id IS NOT NULL
GROUP BY m.user_id, m.variant, m.players
"""


def upgrade() -> None:
    """Apply this revision."""
    op.create_table(
        "profile_summaries",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("variant", sa.String(length=16), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("played", sa.Integer(), nullable=False),
        sa.Column("won", sa.Integer(), nullable=False),
        *(sa.Column(f"own_{c}", sa.BigInteger(), nullable=False) for c in CATEGORIES),
        sa.Column("own_tails_n", sa.Integer(), nullable=False),
        sa.Column("opp_seats", sa.Integer(), nullable=False),
        *(sa.Column(f"opp_{c}", sa.BigInteger(), nullable=False) for c in CATEGORIES),
        sa.Column("opp_tails_n", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name="fk_profile_summaries_user_id_users",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("user_id", "variant", "players", name="pk_profile_summaries"),
    )
    op.execute(FILL)
    op.create_index("ix_game_results_user_id_id", "game_results", ["user_id", "id"])


def downgrade() -> None:
    """Revert this revision."""
    op.drop_index("ix_game_results_user_id_id", table_name="game_results")
    op.drop_table("profile_summaries")

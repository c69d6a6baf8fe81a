"""Clubs, their members and tournaments.

Revision ID: c1_clubs
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "c1_clubs"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "toepen_clubs",
        sa.Column("id", sa.String(12), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("name_key", sa.String(80), nullable=False, unique=True),
        sa.Column("house_rules", sa.Text, nullable=False),
        sa.Column("scheme", sa.Text, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "toepen_club_members",
        sa.Column("id", sa.String(12), primary_key=True),
        sa.Column("club_id", sa.String(12),
                  sa.ForeignKey("toepen_clubs.id", ondelete="CASCADE"), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("name_key", sa.String(64), nullable=False),
        sa.Column("account", sa.String(64), nullable=True),
        sa.Column("admin", sa.Boolean, nullable=False),
        sa.Column("key_hash", sa.String(64), nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("club_id", "name_key"),
    )
    op.create_index("ix_toepen_club_members_club_id", "toepen_club_members", ["club_id"])
    op.create_index("ix_toepen_club_members_key_hash", "toepen_club_members", ["key_hash"])
    op.create_table(
        "toepen_tournaments",
        sa.Column("id", sa.String(12), primary_key=True),
        sa.Column("club_id", sa.String(12),
                  sa.ForeignKey("toepen_clubs.id", ondelete="CASCADE"), nullable=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("season", sa.String(20), nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("key_hash", sa.String(64), nullable=False),
        sa.Column("state", sa.Text, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_toepen_tournaments_club_id", "toepen_tournaments", ["club_id"])
    op.create_index("ix_toepen_tournaments_season", "toepen_tournaments", ["season"])


def downgrade() -> None:
    op.drop_table("toepen_tournaments")
    op.drop_table("toepen_club_members")
    op.drop_table("toepen_clubs")

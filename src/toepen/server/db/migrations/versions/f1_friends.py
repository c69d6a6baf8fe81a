"""Who is here (issue 26): players following each other, invitations to a table.

Revision ID: f1_friends
Revises: a1_accounts
"""

import sqlalchemy as sa
from alembic import op

revision = "f1_friends"
down_revision = "a1_accounts"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "toepen_follows",
        sa.Column("follower_id", sa.Integer,
                  sa.ForeignKey("toepen_users.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("followee_id", sa.Integer,
                  sa.ForeignKey("toepen_users.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_toepen_follows_followee", "toepen_follows", ["followee_id"])
    op.create_table(
        "toepen_invitations",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("from_id", sa.Integer,
                  sa.ForeignKey("toepen_users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("to_id", sa.Integer,
                  sa.ForeignKey("toepen_users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("table_id", sa.String(12),
                  sa.ForeignKey("toepen_tables.id", ondelete="CASCADE"), nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_toepen_invitations_to", "toepen_invitations", ["to_id"])
    op.create_index("ix_toepen_invitations_from", "toepen_invitations", ["from_id"])


def downgrade() -> None:
    op.drop_table("toepen_invitations")
    op.drop_table("toepen_follows")

"""Score sheets for real cards (toepen.tally): one record per sheet.

Revision ID: t1_sheets
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "t1_sheets"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "toepen_sheets",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("key_hash", sa.String(64), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("record", sa.Text, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("toepen_sheets")

"""Tables, seats and actions.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "toepen_tables",
        sa.Column("id", sa.String(12), primary_key=True),
        sa.Column("code", sa.String(6), nullable=False),
        sa.Column("preset", sa.String(40), nullable=False),
        sa.Column("rules", sa.Text, nullable=False),
        sa.Column("size", sa.Integer, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("dealer", sa.Integer, nullable=False),
        sa.Column("idle_seconds", sa.Float, nullable=False),
        sa.Column("autostart", sa.Boolean, nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("players", sa.Text, nullable=True),
        sa.Column("creator", sa.String(64), nullable=False),
        sa.Column("host_hash", sa.String(64), nullable=False),
        sa.Column("winner", sa.Integer, nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_toepen_tables_code", "toepen_tables", ["code"], unique=True)
    op.create_index("ix_toepen_tables_status", "toepen_tables", ["status"])
    op.create_index("ix_toepen_tables_creator", "toepen_tables", ["creator"])
    op.create_table(
        "toepen_seats",
        sa.Column("table_id", sa.String(12),
                  sa.ForeignKey("toepen_tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("bot", sa.String(40), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
    )
    op.create_index("ix_toepen_seats_token_hash", "toepen_seats", ["token_hash"])
    op.create_table(
        "toepen_actions",
        sa.Column("table_id", sa.String(12),
                  sa.ForeignKey("toepen_tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("n", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("action", sa.String(20), nullable=False),
        sa.Column("by", sa.String(8), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("toepen_actions")
    op.drop_table("toepen_seats")
    op.drop_table("toepen_tables")

"""Accounts: users, sessions, seats of accounts, rated tables, results and ratings.

Revision ID: a1_accounts
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "a1_accounts"
down_revision = "0001"
branch_labels = ("accounts",)
depends_on = None


def upgrade() -> None:
    op.create_table(
        "toepen_users",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("name_key", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("password_hash", sa.String(255), nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_toepen_users_name_key", "toepen_users", ["name_key"], unique=True)
    op.create_table(
        "toepen_user_sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("user_id", sa.Integer,
                  sa.ForeignKey("toepen_users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_toepen_user_sessions_user_id", "toepen_user_sessions", ["user_id"])
    op.create_table(
        "toepen_seat_accounts",
        sa.Column("table_id", sa.String(12),
                  sa.ForeignKey("toepen_tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("user_id", sa.Integer,
                  sa.ForeignKey("toepen_users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("claimed", sa.Boolean, nullable=False),
    )
    op.create_index("ix_toepen_seat_accounts_user_id", "toepen_seat_accounts", ["user_id"])
    op.create_table(
        "toepen_table_rated",
        sa.Column("table_id", sa.String(12),
                  sa.ForeignKey("toepen_tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("rated", sa.Boolean, nullable=False),
    )
    op.create_table(
        "toepen_results",
        sa.Column("table_id", sa.String(12),
                  sa.ForeignKey("toepen_tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("user_id", sa.Integer,
                  sa.ForeignKey("toepen_users.id", ondelete="SET NULL"), nullable=True),
        sa.Column("family", sa.String(40), nullable=False),
        sa.Column("size", sa.Integer, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("won", sa.Boolean, nullable=False),
        sa.Column("people", sa.Integer, nullable=False),
        sa.Column("hands", sa.Integer, nullable=False),
        sa.Column("hands_won", sa.Integer, nullable=False),
        sa.Column("lives_lost", sa.Integer, nullable=False),
        sa.Column("knocks", sa.Integer, nullable=False),
        sa.Column("bluffs", sa.Integer, nullable=False),
        sa.Column("mu_before", sa.Float, nullable=True),
        sa.Column("sigma_before", sa.Float, nullable=True),
        sa.Column("mu_after", sa.Float, nullable=True),
        sa.Column("sigma_after", sa.Float, nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_toepen_results_user_id", "toepen_results", ["user_id"])
    op.create_table(
        "toepen_ratings",
        sa.Column("user_id", sa.Integer,
                  sa.ForeignKey("toepen_users.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("family", sa.String(40), primary_key=True),
        sa.Column("size", sa.Integer, primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    for name in ("toepen_ratings", "toepen_results", "toepen_table_rated",
                 "toepen_seat_accounts", "toepen_user_sessions", "toepen_users"):
        op.drop_table(name)

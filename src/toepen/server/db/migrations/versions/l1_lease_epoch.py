"""Fencing of a table's lease: the epoch of the lease (``toepen_tables.epoch``, raised by
each process that takes the lease) and the epoch each action was written under
(``toepen_actions.epoch``; 0: written outside a lease, by a lone server or a client's own
process). See :meth:`toepen.server.db.store.Store.take_lease`.

Revision ID: l1_lease_epoch
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "l1_lease_epoch"
down_revision = "0001"
branch_labels = ("lease",)
depends_on = None


def upgrade() -> None:
    op.add_column("toepen_tables", sa.Column("epoch", sa.Integer, nullable=False,
                                             server_default="0"))
    op.add_column("toepen_actions", sa.Column("epoch", sa.Integer, nullable=False,
                                              server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("toepen_actions") as batch:
        batch.drop_column("epoch")
    with op.batch_alter_table("toepen_tables") as batch:
        batch.drop_column("epoch")

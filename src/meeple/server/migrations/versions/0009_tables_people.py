"""Rematches, invitations and blocks (issue #44, items 1, 2 and 6).

Revision ID: 0009_tables_people
Revises: 0008_table_rules
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009_tables_people"
down_revision = "0008_table_rules"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``tables.rematch_of`` (unique), ``tables.lapse_at``, ``seats.invited``, ``seats.reserved_from``, ``blocks``.

    Every existing table and seat keeps playing as it was: no rematch, no reservation.
    """
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("rematch_of", sa.String(32), nullable=True))
        batch.add_column(sa.Column("lapse_at", sa.Float(), nullable=True))
        batch.create_unique_constraint("uq_tables_rematch_of", ["rematch_of"])
        batch.create_index("ix_tables_lapse_at", ["lapse_at"])
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("invited", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("reserved_from", sa.Integer(), nullable=True))
        batch.create_foreign_key("fk_seats_invited_accounts", "accounts", ["invited"], ["id"])
        batch.create_index("ix_seats_invited", ["invited"])
    op.create_table(
        "blocks",
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("blocked_id", sa.Integer(), sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("created", sa.Float(), nullable=False),
    )
    op.create_index("ix_blocks_blocked_id", "blocks", ["blocked_id"])


def downgrade() -> None:
    """Drop what :func:`upgrade` added."""
    op.drop_index("ix_blocks_blocked_id", table_name="blocks")
    op.drop_table("blocks")
    with op.batch_alter_table("seats") as batch:
        batch.drop_index("ix_seats_invited")
        batch.drop_constraint("fk_seats_invited_accounts", type_="foreignkey")
        batch.drop_column("reserved_from")
        batch.drop_column("invited")
    with op.batch_alter_table("tables") as batch:
        batch.drop_index("ix_tables_lapse_at")
        batch.drop_constraint("uq_tables_rematch_of", type_="unique")
        batch.drop_column("lapse_at")
        batch.drop_column("rematch_of")

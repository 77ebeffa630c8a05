"""Rematches, invitations and blocks (issue #44, items 1, 2 and 6).

Revision ID: 0011_tables_people
Revises: 0010_social
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011_tables_people"
down_revision = "0010_social"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``tables.rematch_of`` (unique), ``lapse_at``, ``seats.invited``, ``reserved_from`` and ``blocks``.

    Every existing table and seat keeps playing as it was: no rematch, no reservation. Plain ``ALTER TABLE ... ADD
    COLUMN`` on both databases (as 0004: SQLite's "batch" copy of ``tables`` is forbidden by its foreign keys).
    """
    op.add_column("tables", sa.Column("rematch_of", sa.String(32), nullable=True))
    op.add_column("tables", sa.Column("lapse_at", sa.Float(), nullable=True))
    op.create_index("ix_tables_rematch_of", "tables", ["rematch_of"], unique=True)
    op.create_index("ix_tables_lapse_at", "tables", ["lapse_at"])
    if op.get_bind().dialect.name == "sqlite":
        op.execute("ALTER TABLE seats ADD COLUMN invited INTEGER REFERENCES accounts (id)")
    else:
        op.add_column("seats", sa.Column("invited", sa.Integer(), nullable=True))
        op.create_foreign_key("fk_seats_invited", "seats", "accounts", ["invited"], ["id"])
    op.add_column("seats", sa.Column("reserved_from", sa.Integer(), nullable=True))
    op.create_index("ix_seats_invited", "seats", ["invited"])
    op.create_table(
        "blocks",
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("blocked_id", sa.Integer(), sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("created", sa.Float(), nullable=False),
    )
    op.create_index("ix_blocks_blocked_id", "blocks", ["blocked_id"])


def downgrade() -> None:
    """Drop what :func:`upgrade` added."""
    op.drop_index("ix_blocks_blocked_id", "blocks")
    op.drop_table("blocks")
    op.drop_index("ix_seats_invited", "seats")
    if op.get_bind().dialect.name != "sqlite":
        op.drop_constraint("fk_seats_invited", "seats", type_="foreignkey")
    op.drop_column("seats", "reserved_from")
    op.drop_column("seats", "invited")
    op.drop_index("ix_tables_lapse_at", "tables")
    op.drop_index("ix_tables_rematch_of", "tables")
    op.drop_column("tables", "lapse_at")
    op.drop_column("tables", "rematch_of")

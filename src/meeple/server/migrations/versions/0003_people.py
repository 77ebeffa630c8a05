"""People at the table: seat names, open seats and quick match, chat (issue #34).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``seats.name``, ``seats.joined``, ``tables.quickmatch``, ``tables.fill_at`` and the ``chat`` table.

    Every new column is nullable: the tables of an older release keep playing as they were (no names, no open seats).
    """
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("name", sa.String(24), nullable=True))
        batch.add_column(sa.Column("joined", sa.Float(), nullable=True))
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("quickmatch", sa.String(80), nullable=True))
        batch.add_column(sa.Column("fill_at", sa.Float(), nullable=True))
        batch.create_index("ix_tables_quickmatch", ["quickmatch"])
    op.create_table(
        "chat",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("text", sa.String(500), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
    )
    op.create_index("ix_chat_table", "chat", ["table_id", "id"])


def downgrade() -> None:
    """Drop what :func:`upgrade` added."""
    op.drop_index("ix_chat_table", "chat")
    op.drop_table("chat")
    with op.batch_alter_table("tables") as batch:
        batch.drop_index("ix_tables_quickmatch")
        batch.drop_column("fill_at")
        batch.drop_column("quickmatch")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("joined")
        batch.drop_column("name")

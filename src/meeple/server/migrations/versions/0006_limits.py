"""The lobby's indexes and the server's shared keys (issue 41, items 4 and 6).

Revision ID: 0006_limits
Revises: 0005_turn_based
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_limits"
down_revision = "0005_turn_based"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Index ``tables`` by ``created`` and by ``(status, created)``; create ``server_keys``.

    The lobby lists the newest tables (of one status): with these indexes it reads only the rows it ranks, however
    many tables were ever made. ``server_keys`` holds the device cookies' signing key, shared by every process.
    """
    op.create_index("ix_tables_created", "tables", ["created"])
    op.create_index("ix_tables_status_created", "tables", ["status", "created"])
    op.create_table(
        "server_keys",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.String(128), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
    )


def downgrade() -> None:
    """Drop what :func:`upgrade` created."""
    op.drop_table("server_keys")
    op.drop_index("ix_tables_status_created", table_name="tables")
    op.drop_index("ix_tables_created", table_name="tables")

"""The creator of a table (a hash of its client address): quotas per address and the lobby's share per address.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``tables.creator`` (nullable: tables made before it, and by ``meeple serve GAME``, have none)."""
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("creator", sa.String(24), nullable=True))
        batch.create_index("ix_tables_creator", ["creator"])


def downgrade() -> None:
    """Drop ``tables.creator``."""
    with op.batch_alter_table("tables") as batch:
        batch.drop_index("ix_tables_creator")
        batch.drop_column("creator")

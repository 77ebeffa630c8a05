"""Turn-based play: the language an account reads, for its turn e-mails (issue #34, item 7).

Revision ID: 0005_turn_based
Revises: 0004_accounts
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005_turn_based"
down_revision = "0004_accounts"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``accounts.lang`` (nullable: an account of an older release gets English e-mails until it plays again).

    A turn-based table needs nothing else: its clock (``per_move`` alone) and the turn's e-mail decision live in the
    table's ``clock`` JSON column, its deadline in ``tables.deadline``.
    """
    op.add_column("accounts", sa.Column("lang", sa.String(8), nullable=True))


def downgrade() -> None:
    """Drop what :func:`upgrade` added."""
    op.drop_column("accounts", "lang")

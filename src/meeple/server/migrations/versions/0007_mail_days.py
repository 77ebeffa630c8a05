"""Turn e-mails are capped per recipient address and UTC day, across processes (issue #41, item 8).

Revision ID: 0007_mail_days
Revises: 0006_limits
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007_mail_days"
down_revision = "0006_limits"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``mail_days``: e-mails sent per recipient address (its SHA-256) on its latest UTC day."""
    op.create_table(
        "mail_days",
        sa.Column("address_key", sa.String(64), primary_key=True),
        sa.Column("day", sa.String(10), nullable=False),
        sa.Column("sent", sa.Integer(), nullable=False),
    )


def downgrade() -> None:
    """Drop what :func:`upgrade` added."""
    op.drop_table("mail_days")

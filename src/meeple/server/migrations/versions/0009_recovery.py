"""Password reset, e-mail verification, reports and the operator's actions (issue #44, items 5, 6 and 8).

Revision ID: 0009_recovery
Revises: 0008_table_rules
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009_recovery"
down_revision = "0008_table_rules"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``accounts.email_verified`` and ``banned``, and four tables (links, reports, the log, banned mailboxes).

    Addresses stored before are not verified: turn e-mails wait until their owner opens a verification link.
    """
    op.add_column("accounts", sa.Column("email_verified", sa.Float(), nullable=True))
    op.add_column("accounts", sa.Column("banned", sa.Float(), nullable=True))
    op.create_table(
        "account_links",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id"), nullable=False, index=True),
        sa.Column("purpose", sa.String(8), nullable=False),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("created", sa.Float(), nullable=False),
        sa.Column("expires", sa.Float(), nullable=False, index=True),
    )
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("reporter_id", sa.Integer(), sa.ForeignKey("accounts.id"), nullable=False, index=True),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id"), nullable=False, index=True),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.Column("reason", sa.String(500), nullable=False),
        sa.Column("chat", sa.JSON(), nullable=False),
        sa.Column("created", sa.Float(), nullable=False, index=True),
    )
    op.create_table(
        "moderation_log",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("actor", sa.String(64), nullable=False),
        sa.Column("action", sa.String(16), nullable=False),
        sa.Column("target", sa.String(80), nullable=False),
        sa.Column("detail", sa.String(500), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=True),
    )
    op.create_table(
        "banned_mailboxes",
        sa.Column("address_key", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id"), nullable=False, index=True),
        sa.Column("at", sa.Float(), nullable=False),
    )


def downgrade() -> None:
    """Drop what :func:`upgrade` added."""
    op.drop_table("banned_mailboxes")
    op.drop_table("moderation_log")
    op.drop_table("reports")
    op.drop_table("account_links")
    op.drop_column("accounts", "banned")
    op.drop_column("accounts", "email_verified")

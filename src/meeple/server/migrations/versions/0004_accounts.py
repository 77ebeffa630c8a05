"""Accounts, log-in sessions, ratings; seats bound to accounts; rated tables (issue #34, items 5, 6 and 8).

Revision ID: 0004_accounts
Revises: 0003
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_accounts"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``accounts``, ``sessions`` and ``ratings``; add ``seats.account_id``, ``tables.rated``, ``rated_at``.

    The tables of an older release keep playing as they were: their seats are bound to no account, and they are not
    rated (``rated`` defaults to false in the database itself, so existing rows get it too).
    """
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("username", sa.String(40), nullable=False),
        sa.Column("username_key", sa.String(40), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("created", sa.Float(), nullable=False),
        sa.Column("deleted", sa.Float(), nullable=True),
    )
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
        sa.Column("expires", sa.Float(), nullable=False),
        sa.Column("last_seen", sa.Float(), nullable=False),
    )
    op.create_index("ix_sessions_account_id", "sessions", ["account_id"])
    op.create_index("ix_sessions_expires", "sessions", ["expires"])
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("game", sa.String(64), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated", sa.Float(), nullable=False),
    )
    # plain ALTER TABLE ... ADD COLUMN on both databases: SQLite's "batch" copy of a table would drop and re-create
    # ``tables``, which the foreign keys of its seats, events and chat lines forbid
    if op.get_bind().dialect.name == "sqlite":
        op.execute("ALTER TABLE seats ADD COLUMN account_id INTEGER REFERENCES accounts (id)")
    else:
        op.add_column("seats", sa.Column("account_id", sa.Integer(), nullable=True))
        op.create_foreign_key("fk_seats_account_id", "seats", "accounts", ["account_id"], ["id"])
    op.create_index("ix_seats_account_id", "seats", ["account_id"])
    op.add_column("tables", sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.add_column("tables", sa.Column("rated_at", sa.Float(), nullable=True))


def downgrade() -> None:
    """Drop what :func:`upgrade` added."""
    op.drop_column("tables", "rated_at")
    op.drop_column("tables", "rated")
    op.drop_index("ix_seats_account_id", "seats")
    if op.get_bind().dialect.name != "sqlite":
        op.drop_constraint("fk_seats_account_id", "seats", type_="foreignkey")
    op.drop_column("seats", "account_id")
    op.drop_table("ratings")
    op.drop_index("ix_sessions_expires", "sessions")
    op.drop_index("ix_sessions_account_id", "sessions")
    op.drop_table("sessions")
    op.drop_table("accounts")

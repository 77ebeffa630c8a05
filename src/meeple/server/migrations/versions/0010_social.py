"""Friends, presence, results and rating history (issue #44, items 3 and 7).

Revision ID: 0010_social
Revises: 0009_recovery
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from meeple.server.names import skeleton

revision = "0010_social"
down_revision = "0009_recovery"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``follows``, ``rating_history``, ``accounts.seen_at``, ``hide_table``, ``skeleton`` and ``seats.rank``.

    Every live account's ``skeleton`` is computed from its username (:func:`meeple.server.names.skeleton`).

    Games finished before this revision keep no rank (their records still give it): profile statistics count the
    games finished from now on, and the rating history starts empty.
    """
    op.create_table(
        "follows",
        sa.Column("follower_id", sa.Integer(), sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("followee_id", sa.Integer(), sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("created", sa.Float(), nullable=False),
    )
    op.create_index("ix_follows_followee", "follows", ["followee_id"])
    op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=False),
    )
    op.create_index("ix_rating_history_account", "rating_history", ["account_id", "game", "at"])
    op.add_column("accounts", sa.Column("seen_at", sa.Float(), nullable=True))
    op.add_column("accounts", sa.Column("hide_table", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.add_column("seats", sa.Column("rank", sa.Integer(), nullable=True))
    op.add_column("accounts", sa.Column("skeleton", sa.String(40), nullable=True))
    op.create_index("ix_accounts_skeleton", "accounts", ["skeleton"])
    bind = op.get_bind()
    live = bind.execute(sa.text("SELECT id, username FROM accounts WHERE deleted IS NULL")).all()
    for account_id, username in live:
        bind.execute(
            sa.text("UPDATE accounts SET skeleton = :skeleton WHERE id = :id"),
            {"skeleton": skeleton(username), "id": account_id},
        )


def downgrade() -> None:
    """Drop what :func:`upgrade` added."""
    op.drop_index("ix_accounts_skeleton", "accounts")
    op.drop_column("accounts", "skeleton")
    op.drop_column("seats", "rank")
    op.drop_column("accounts", "hide_table")
    op.drop_column("accounts", "seen_at")
    op.drop_index("ix_rating_history_account", "rating_history")
    op.drop_table("rating_history")
    op.drop_index("ix_follows_followee", "follows")
    op.drop_table("follows")

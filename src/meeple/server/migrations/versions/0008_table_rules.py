"""Tables that nobody plays, and rated tables' rules (issue 41, items 2, 3 and 7).

Revision ID: 0008_table_rules
Revises: 0007_mail_days
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008_table_rules"
down_revision = "0007_mail_days"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``tables.live_at``, ``ended``, ``ended_at`` and ``seats.arrived``, ``moved``, ``forfeit``.

    The tables of an older release keep playing as they were: a human seat that moved or held a connection counts as
    arrived (when it first moved, else when its table was created), so no game under way is aborted as "nobody came";
    a live table's no-start window counts from its creation.
    """
    op.add_column("tables", sa.Column("live_at", sa.Float(), nullable=True))
    op.add_column("tables", sa.Column("ended", sa.String(16), nullable=True))
    op.add_column("tables", sa.Column("ended_at", sa.Float(), nullable=True))
    op.add_column("seats", sa.Column("arrived", sa.Float(), nullable=True))
    op.add_column("seats", sa.Column("moved", sa.Float(), nullable=True))
    op.add_column("seats", sa.Column("forfeit", sa.String(8), nullable=True))
    op.execute("UPDATE tables SET live_at = created WHERE status <> 'waiting'")
    first_move = (
        "SELECT MIN(events.at) FROM events WHERE events.table_id = seats.table_id AND events.seat = seats.seat"
        " AND events.by_bot = :no"
    )
    held = (
        "EXISTS (SELECT 1 FROM presence WHERE presence.table_id = seats.table_id AND presence.seat = seats.seat"
        " AND presence.process <> 'start')"
    )
    created = "(SELECT tables.created FROM tables WHERE tables.id = seats.table_id)"
    bind = op.get_bind()
    bind.execute(sa.text(f"UPDATE seats SET moved = ({first_move}) WHERE player = 'human'"), {"no": False})
    bind.execute(sa.text(f"UPDATE seats SET arrived = COALESCE(moved, {created}) WHERE moved IS NOT NULL OR {held}"))


def downgrade() -> None:
    """Drop what :func:`upgrade` added."""
    for column in ("forfeit", "moved", "arrived"):
        op.drop_column("seats", column)
    for column in ("ended_at", "ended", "live_at"):
        op.drop_column("tables", column)

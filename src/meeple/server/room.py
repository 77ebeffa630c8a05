"""Room for a new table: live tables per creator address, started and unstarted tables counted apart.

A table is *started* when it is live and one of its humans came (a connection or a move: ``seats.arrived``); until
then (waiting for open seats, or live and never opened) it is *unstarted*. ``--max-tables`` bounds the started ones:
past it no table is made (429 "this server is full"). ``--max-unstarted-tables`` bounds the unstarted ones, and a new
table that finds them at that bound aborts the oldest one made by an address (``ended: "server_full"``) to make
room: tables nobody came to cannot keep everyone else out. The operator's tables (no creator) are never aborted so.

Rules: issue 41, item 3 ("unstarted tables count apart and the oldest go first when full").
"""

from __future__ import annotations

import logging

from sqlalchemy import and_, func, or_, select, update
from sqlalchemy.orm import Session

from meeple.i18n import M
from meeple.server.db import SeatRow, TableRow
from meeple.server.quotas import QuotaExceeded, Quotas

log = logging.getLogger("meeple.server")


def make_room(s: Session, quotas: Quotas, creator: str, now: float, channel: str | None) -> list[str]:
    """Check the table quotas for a new table of ``creator``; abort the oldest unstarted tables if they are full.

    Runs in the creating transaction ``s``; ``channel`` is the PostgreSQL notification channel (None: SQLite).
    Returns the tables aborted to make room (the caller tells their connections once it committed).

    Raises:
        QuotaExceeded: ``creator`` has :attr:`Quotas.max_tables_per_address` live and waiting tables, or the server
            :attr:`Quotas.max_tables` started ones.
    """
    live = TableRow.status.in_(("live", "waiting"))
    mine = s.scalar(select(func.count()).select_from(TableRow).where(live, TableRow.creator == creator)) or 0
    if mine >= quotas.max_tables_per_address:
        limit = quotas.max_tables_per_address
        text = M("too many live tables created from one address: at most {n}", n=limit)
        raise QuotaExceeded(f"too many live tables created from one address: at most {limit}", 60, "live_tables", text)
    came = select(SeatRow.table_id).where(SeatRow.table_id == TableRow.id, SeatRow.arrived.is_not(None)).exists()
    started = s.scalar(select(func.count()).select_from(TableRow).where(TableRow.status == "live", came)) or 0
    if started >= quotas.max_tables:
        raise QuotaExceeded(
            "this server is full: no new table now", 60, "max_tables", M("this server is full: no new table now")
        )
    unstarted = or_(TableRow.status == "waiting", and_(TableRow.status == "live", ~came))
    count = s.scalar(select(func.count()).select_from(TableRow).where(unstarted)) or 0
    if count < quotas.max_unstarted_tables:
        return []
    oldest = select(TableRow.id).where(unstarted, TableRow.creator.is_not(None)).order_by(TableRow.created)
    oldest = oldest.limit(count - quotas.max_unstarted_tables + 1)
    evicted = list(s.scalars(oldest.with_for_update(skip_locked=True) if channel is not None else oldest))
    for table_id in evicted:
        values = {"status": "aborted", "ended": "server_full", "ended_at": now, "deadline": None, "fill_at": None}
        s.execute(update(TableRow).where(TableRow.id == table_id).values(rev=TableRow.rev + 1, **values))
        if channel is not None:
            s.execute(select(func.pg_notify(channel, table_id)))
        log.info("table %s aborted: the server was full of unstarted tables and it was the oldest", table_id)
    return evicted

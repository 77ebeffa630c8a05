"""Presence: which seats have an open connection, written by each process for its own connections only.

A process counts its connections in memory (:class:`Presence`) and writes the counts to its own rows of the
``presence`` table: at once when a connection opens or closes (in the table's transaction), and every
:data:`HEARTBEAT` seconds (:func:`write_own`), which also repairs a row a failed write or another process left
wrong. A row not refreshed for :data:`STALE` seconds is a dead process's: another process zeroes it
(:func:`close_dead`), but only once it has itself been reaching the database for :data:`~meeple.server.health.SETTLE`
seconds, so a process cut off from the database never takes the others' connections for dead.

Lock order, everywhere: a table's row before its presence rows; presence rows by ``(table_id, seat, process)``. The
heartbeat locks presence rows only (its own, in that order) and no table row, so it cannot deadlock with a move.

Rules: issue "Survive the database and the other process" (presence that a fault cannot fake, no deadlocks).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, Engine, and_, func, select, update
from sqlalchemy.dialects import postgresql, sqlite

from meeple.server.db import PresenceRow, TableRow, is_postgresql

HEARTBEAT = 5.0
"""Seconds between a process's presence refreshes."""
HEARTBEAT_DEGRADED = 1.0
"""Seconds between heartbeats while the database is unreachable (the heartbeat is how a process sees it back)."""
STALE = 3 * HEARTBEAT
"""A presence row not refreshed for this long belongs to a dead process: its connections count as closed."""

Key = tuple[str, int]
"""``(table_id, seat)``."""


class Presence:
    """This process's open connections per seat (the truth its presence rows are written from).

    Changed in the event loop only; the heartbeat thread reads a copy (``dict(...)`` copies atomically).
    """

    def __init__(self) -> None:
        self.counts: dict[Key, int] = {}
        self.unwritten: set[Key] = set()
        """Seats whose count changed without reaching the database (a failed transaction): the heartbeat writes them."""

    def change(self, table_id: str, seat: int, delta: int) -> int:
        """Count a connection opened (+1) or closed (-1); return the seat's new count in this process."""
        key = (table_id, seat)
        count = max(0, self.counts.get(key, 0) + delta)
        self.counts[key] = count
        self.unwritten.add(key)
        return count

    def written(self, table_id: str, seat: int) -> None:
        """The seat's count reached the database."""
        self.unwritten.discard((table_id, seat))


def _upsert_statement(dialect: object) -> Any:
    """The presence row upsert of ``dialect`` (``postgresql`` or ``sqlite``), its values bound at execution."""
    stmt = dialect.insert(PresenceRow)  # type: ignore[attr-defined]
    return stmt.on_conflict_do_update(
        index_elements=["table_id", "seat", "process"],
        set_={"connections": stmt.excluded.connections, "seen_at": stmt.excluded.seen_at},
    )


_UPSERT = {"postgresql": _upsert_statement(postgresql), "sqlite": _upsert_statement(sqlite)}
"""Built once: the heartbeat writes every connected seat (building a statement costs more than running it)."""


def upsert(s: Connection, process: str, table_id: str, seat: int, connections: int, now: float) -> None:
    """Write one presence row of ``process`` (insert or update)."""
    upsert_many(s, process, [(table_id, seat, connections)], now)


def upsert_many(s: Connection, process: str, rows: list[tuple[str, int, int]], now: float) -> None:
    """Write presence rows of ``process``, ``(table_id, seat, connections)`` each, in the order given, in one go.

    One statement executed for many parameter sets (the driver's ``executemany``): the rows are written (and
    locked) one after the other, in ``rows``' order.
    """
    if not rows:
        return
    stmt = _UPSERT["postgresql" if is_postgresql_connection(s) else "sqlite"]
    params = [
        {"table_id": table_id, "seat": seat, "process": process, "connections": n, "seen_at": now}
        for table_id, seat, n in rows
    ]
    s.execute(stmt, params[0] if len(params) == 1 else params)


def is_postgresql_connection(s: Connection) -> bool:
    """Whether ``s`` talks to PostgreSQL."""
    return s.dialect.name == "postgresql"


def write_own(engine: Engine, presence: Presence, process: str, now: float) -> None:
    """The heartbeat's write: every seat this process has connections for (and every unwritten count), in key order.

    One short transaction that locks only this process's presence rows, after a key-share lock of their tables' rows
    in id order: an inserted presence row's foreign-key check takes that lock, and taken after the new row it
    deadlocked with a move transaction (table row, then that presence row) on PostgreSQL. Table row before presence,
    as everywhere.
    """
    counts = dict(presence.counts)
    keys = sorted(k for k, n in counts.items() if n > 0 or k in presence.unwritten)
    if not keys:
        return
    with engine.begin() as s:
        if is_postgresql_connection(s):
            tables = sorted({table_id for table_id, _ in keys})
            s.execute(
                select(TableRow.id).where(TableRow.id.in_(tables)).order_by(TableRow.id).with_for_update(key_share=True)
            )
        upsert_many(s, process, [(table_id, seat, counts[(table_id, seat)]) for table_id, seat in keys], now)
    for key in keys:
        if presence.counts.get(key) == counts[key]:
            presence.unwritten.discard(key)


def dead_tables(engine: Engine, process: str, cutoff: float) -> list[str]:
    """Tables where another process's row counts connections but was not refreshed since ``cutoff``."""
    with engine.connect() as s:
        stale = and_(PresenceRow.connections > 0, PresenceRow.seen_at < cutoff, PresenceRow.process != process)
        return sorted(s.scalars(select(PresenceRow.table_id).where(stale).distinct()))


def close_dead(engine: Engine, table_id: str, process: str, cutoff: float, now: float, channel: str) -> bool:
    """Zero the stale rows of other processes at one table and make the table due now; True if any was zeroed.

    Locks the table's row first, then the rows to zero in key order (the order of every other transaction).
    """
    pg = is_postgresql(engine)
    with engine.begin() as s:
        head = select(TableRow.id).where(TableRow.id == table_id)
        if s.execute(head.with_for_update() if pg else head).first() is None:
            return False
        stale = and_(
            PresenceRow.table_id == table_id,
            PresenceRow.connections > 0,
            PresenceRow.seen_at < cutoff,
            PresenceRow.process != process,
        )
        rows = select(PresenceRow.seat, PresenceRow.process).where(stale)
        rows = rows.order_by(PresenceRow.seat, PresenceRow.process)
        found = list(s.execute(rows.with_for_update() if pg else rows))
        if not found:
            return False
        s.execute(update(PresenceRow).where(stale).values(connections=0))
        s.execute(update(TableRow).where(TableRow.id == table_id).values(deadline=now, rev=TableRow.rev + 1))
        if pg:
            s.execute(select(func.pg_notify(channel, table_id)))
    return True

"""What a finished table's players see of its rematch: who offered it, who accepted, until when (issue #44, item 1).

The rematch of a table is the one table whose ``rematch_of`` names it (:mod:`meeple.server.rematch` creates it).
Its seats are the finished table's rotated by one (:func:`rematch_seat`): seat ``i`` of the finished table plays
seat ``i + 1`` (mod the player count) of the rematch, so another seat moves first. Each human seat of the rematch
holds, in ``reserved_from``, the seat of the finished table whose holder it is reserved for.

The view (:func:`rematch_view`) is public: the rematch's id (a spectator may watch it too), its status and the
seats of the finished table that offered and accepted. It carries no token and no seed (tests/server/test_leaks.py).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, select

from meeple.server.db import SeatRow, TableRow


def rematch_seat(seat: int, players: int) -> int:
    """The rematch's seat of the finished table's ``seat``: rotated by one, so another seat moves first."""
    return (seat + 1) % players


def rematch_view(s: Connection, table_id: str) -> dict[str, Any] | None:
    """The ``rematch`` message's body for the finished table ``table_id``, or None when no rematch was offered.

    ``{"table": the rematch's id, "status": its status (waiting, live, finished, aborted...), "ended": why it was
    aborted (lapsed, declined) or None, "offered_by": the finished table's seat that offered it, "accepted": the
    finished table's seats that accepted (the offerer's included), "waiting_for": those not yet, "lapse_at": when the
    offer lapses (Unix seconds) while it waits}``.
    """
    row = s.execute(
        select(TableRow.id, TableRow.status, TableRow.ended, TableRow.lapse_at).where(TableRow.rematch_of == table_id)
    ).first()
    if row is None:
        return None
    seats = s.execute(
        select(SeatRow.reserved_from, SeatRow.player, SeatRow.joined)
        .where(SeatRow.table_id == row.id, SeatRow.reserved_from.is_not(None))
        .order_by(SeatRow.reserved_from)
    ).all()
    offered = next((int(r.reserved_from) for r in seats if r.player == "human" and r.joined is None), None)
    return {
        "table": row.id,
        "status": row.status,
        "ended": row.ended,
        "offered_by": offered,
        "accepted": [int(r.reserved_from) for r in seats if r.player == "human"],
        "waiting_for": [int(r.reserved_from) for r in seats if r.player == "open"],
        "lapse_at": row.lapse_at if row.status == "waiting" else None,
    }

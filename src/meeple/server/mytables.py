"""``GET /api/me/tables``: the logged-in account's live and waiting tables, its turns first (issue #34 item 7).

Each entry holds what the lobby and a spectator see already (the game, the seats' public names, the status, the
seat to move, the clock's deadline) and which seat is the account's: no observation, no seed, no token. A table
aborted in the last :data:`ABORTED_DAYS` days is listed too (after the others), saying why: its players learn it
ended without a result.

Rules: issue #34 "People at the table", item 7 ("My tables"); issue 41, item 3 (an aborted table says so).
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from pydantic import BaseModel, Field
from sqlalchemy import Engine, and_, or_, select
from sqlalchemy.orm import Session

from meeple.i18n import Translator
from meeple.server.clock import clock_view, is_turn_based
from meeple.server.db import SeatRow, TableRow
from meeple.server.live import LiveTable, TableNotFound
from meeple.server.protocol import AbortReason, SeatInfo, TableStatus
from meeple.server.quotas import Limiter
from meeple.server.tables import TableService

MAX_MY_TABLES = 100
"""Tables listed at most (the newest): a player has rarely more games under way."""
ABORTED_DAYS = 3.0
"""Days an aborted table stays in "My tables" (saying why it ended)."""


class MyTable(BaseModel):
    """One table of ``GET /api/me/tables``: public facts, and the account's seat."""

    table: str
    game: str
    status: TableStatus = Field(description="waiting (open seats free), live, or aborted (lately)")
    ended: AbortReason | None = Field(default=None, description="why an aborted table was aborted")
    seat: int = Field(description="the account's seat (or the seat reserved for it, when ``invited``)")
    invited: bool = Field(default=False, description="an open seat reserved for the account: it may join or decline")
    your_turn: bool = Field(description="the game is live and the account's seat is to move")
    current_player: int | None = Field(description="the seat to move (None while waiting)")
    seats: list[SeatInfo]
    turn_based: bool = Field(description="a clock of an hour or more per move, no bank")
    per_move: float | None = Field(description="the clock's seconds per move, if any")
    deadline: float | None = Field(description="when the running turn times out (Unix seconds), or None")
    created: float


def count_request(limiter: Limiter, address: str, account_id: int) -> None:
    """Count one "My tables" list asked by ``address`` for ``account_id`` (both have a quota).

    Raises:
        QuotaExceeded: past ``--my-tables-per-minute`` for the address or for the account (429 with Retry-After).
    """
    limiter.hit("my_tables", address, "lists of your tables")
    limiter.hit("my_tables", f"account {account_id}", "lists of your tables")


def account_tables(engine: Engine, account_id: int, limit: int = MAX_MY_TABLES) -> list[tuple[str, int]]:
    """The ``(table, seat)`` of the live, waiting and lately aborted tables where ``account_id`` sits, newest first.

    A waiting table with a seat reserved for the account (an invitation, a rematch) is listed with that seat.
    """
    lately = and_(TableRow.status == "aborted", TableRow.ended_at >= time.time() - ABORTED_DAYS * 86_400)
    invited = and_(SeatRow.invited == account_id, SeatRow.player == "open", TableRow.status == "waiting")
    stmt = (
        select(SeatRow.table_id, SeatRow.seat)
        .join(TableRow, TableRow.id == SeatRow.table_id)
        .where(
            or_(and_(SeatRow.account_id == account_id, or_(TableRow.status.in_(("live", "waiting")), lately)), invited)
        )
        .order_by(TableRow.created.desc(), SeatRow.seat)
        .limit(limit)
    )
    with Session(engine) as s:
        found = [(str(t), int(seat)) for t, seat in s.execute(stmt)]
    first: dict[str, int] = {}
    for t, seat in found:
        first.setdefault(t, seat)  # one entry per table: its lowest seat
    return list(first.items())


async def my_tables(service: TableService, account_id: int, reader: Translator) -> list[dict[str, Any]]:
    """The :class:`MyTable` entries of ``account_id``: its turns first (soonest deadline first), then the others.

    Args:
        service: the table service (each table is read as a spectator would see it).
        account_id: the logged-in account.
        reader: the language of the seats' names (bots, unnamed seats).
    """
    entries: list[dict[str, Any]] = []
    for table_id, seat in await asyncio.to_thread(account_tables, service.engine, account_id):
        try:
            live = await service.get(table_id)
        except TableNotFound:  # pragma: no cover - deleted meanwhile
            continue
        async with live.lock:
            if live.status in ("live", "waiting", "aborted"):
                entries.append(table_entry(live, seat, reader))
    entries.sort(key=_order)
    return entries


def table_entry(live: LiveTable, seat: int, reader: Translator) -> dict[str, Any]:
    """The :class:`MyTable` entry of ``live`` for its ``seat``: public facts only (tests/server/test_leaks.py)."""
    mover = live.mover() if live.status == "live" else None
    clock = clock_view(live.clock)
    return {
        "table": live.id,
        "game": live.game,
        "status": live.status,
        "ended": live.ended,
        "seat": seat,
        "invited": live.seats[seat].is_open,
        "your_turn": mover == seat,
        "current_player": mover,
        "seats": live.public_seats(reader),
        "turn_based": is_turn_based(live.clock),
        "per_move": clock["spec"].get("per_move") if clock is not None else None,
        "deadline": clock["deadline"] if clock is not None else None,
        "created": live.created,
    }


def _order(entry: dict[str, Any]) -> tuple[bool, bool, bool, float, float]:
    """Your turns first, then the soonest deadline, then the newest table; aborted ones last."""
    deadline = entry["deadline"]
    over = entry["status"] == "aborted"
    return (over, not entry["your_turn"], deadline is None, float(deadline or 0.0), -float(entry["created"]))

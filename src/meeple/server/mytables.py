"""``GET /api/me/tables``: the logged-in account's live and waiting tables, its turns first (issue #34 item 7).

Each entry holds what the lobby and a spectator see already (the game, the seats' public names, the status, the
seat to move, the clock's deadline) and which seat is the account's: no observation, no seed, no token.

Rules: issue #34 "People at the table", item 7 ("My tables").
"""

from __future__ import annotations

import asyncio
from typing import Any

from pydantic import BaseModel, Field
from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from meeple.i18n import Translator
from meeple.server.clock import clock_view, is_turn_based
from meeple.server.db import SeatRow, TableRow
from meeple.server.live import LiveTable, TableNotFound
from meeple.server.protocol import SeatInfo, TableStatus
from meeple.server.tables import TableService

MAX_MY_TABLES = 100
"""Tables listed at most (the newest): a player has rarely more games under way."""


class MyTable(BaseModel):
    """One table of ``GET /api/me/tables``: public facts, and the account's seat."""

    table: str
    game: str
    status: TableStatus = Field(description="waiting (open seats free) or live")
    seat: int = Field(description="the account's seat")
    your_turn: bool = Field(description="the game is live and the account's seat is to move")
    current_player: int | None = Field(description="the seat to move (None while waiting)")
    seats: list[SeatInfo]
    turn_based: bool = Field(description="a clock of an hour or more per move, no bank")
    per_move: float | None = Field(description="the clock's seconds per move, if any")
    deadline: float | None = Field(description="when the running turn times out (Unix seconds), or None")
    created: float


def account_tables(engine: Engine, account_id: int, limit: int = MAX_MY_TABLES) -> list[tuple[str, int]]:
    """The ``(table, seat)`` of the live and waiting tables where ``account_id`` holds a seat, newest first."""
    stmt = (
        select(SeatRow.table_id, SeatRow.seat)
        .join(TableRow, TableRow.id == SeatRow.table_id)
        .where(SeatRow.account_id == account_id, TableRow.status.in_(("live", "waiting")))
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
            if live.status in ("live", "waiting"):
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
        "seat": seat,
        "your_turn": mover == seat,
        "current_player": mover,
        "seats": live.public_seats(reader),
        "turn_based": is_turn_based(live.clock),
        "per_move": clock["spec"].get("per_move") if clock is not None else None,
        "deadline": clock["deadline"] if clock is not None else None,
        "created": live.created,
    }


def _order(entry: dict[str, Any]) -> tuple[bool, bool, float, float]:
    """Your turns first, then the soonest deadline, then the newest table."""
    deadline = entry["deadline"]
    return (not entry["your_turn"], deadline is None, float(deadline or 0.0), -float(entry["created"]))
